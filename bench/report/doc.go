// Package report renders stored josebench runs: the reports (simple,
// default, aggregate, and those bench.yaml defines from them), in the
// outputs console, md, csv, json, html and gobench, and the comparison with
// a reference run.
//
// # csv and json
//
// The machine-readable outputs hold one record per row of the report (a
// variant, or an iteration in the default report) with a field per column,
// every value a number but the names (benchmark, groups, subject, set), and
// empty in csv, null in json, where a value does not exist (cpu when the
// thread CPU time was not measured, the diff of a variant that the
// reference run does not have). The csv header gives each field's name, a
// time field's followed by its unit ("mean (μs)"); json gives the names in
// "columns", the unit in "time_unit", and the report's notes. Times are in
// the run's time unit, percentages as plain numbers of percent (-9.09, not "-9.09%"), bytes and
// allocations per operation whole numbers. A column that holds an interval
// becomes two fields named after it, its ends:
//
//	interval       interval_low, interval_high  the 95% interval of the median of the rounds, in % of that median
//	diff_interval  diff_low, diff_high          the interval of the diff (95%, or 1 - Options.Alpha), in %
//	par_interval   par_low, par_high            the 95% interval of par_ops_s, in operations per second
//
// and a diff column (diff, or diff_cpu with --metric cpu: the change from
// the reference run in %, positive is slower) is followed by
// diff_significant, true when the change is beyond noise (its interval
// excludes 0 and reaches 95%: the console's diff without ~), false when
// within it, empty or null when there is no diff (the variant is new, the
// metric is missing, or the runs are not comparable: the notes say why).
//
// Every report but default has rounds, its and rejects: the rounds and
// iterations a variant kept, and the iterations it rejected (re-run or
// dropped, at most runner.retry_limit). When the run warns about sample
// loss (runner.warn_kept_below, runner.warn_rejects_above), every report,
// default included, has a text field sample_warning: what concerns the
// row's variant ("kept 30 of 50"; "28% rejected", of all it measured,
// its rejects below runner.retry_limit; "retry_limit reached, 14 of 50
// kept deviate": more than runner.warn_rejects_above percent of
// the iterations kept still deviate by runner.retry_threshold in their
// thread CPU time, in wall time where it was not measured; "retry_limit
// reached, 30 of 50 kept deviate, 24 in wall time alone": more than that
// share deviate, no more than it in thread CPU time, the others in wall
// time alone, their thread CPU time steady: the machine was busy), empty
// or null for the others; the notes give the warnings themselves.
package report
