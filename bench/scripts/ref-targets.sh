#!/usr/bin/env bash
# ref-targets.sh BASE NEW OUTDIR [N]: the measurement behind README.md's
# "Comparing with a stored run". N times (20 by default), BASE stores a
# run of a small group set (HS256,ES256,EdDSA; GROUPS_SET overrides it);
# once all are stored (the first at least a minute earlier), NEW runs with
# --ref against each, with --fail-slower 10. Both run with the built-in
# configuration and no --rounds, so the stored runs and the comparisons
# take runner.ref_rounds rounds (200; 2.7 to 10.4 s a run here, 4 to 5.5
# minutes in all for N=20). Each run has its own tag, so no --ref pools runs.
# Runs N/4+1..N/2 of the stored ones and the last N/2 of the comparisons
# run while two busy loops load both cores. Prints one line per
# comparison (exit status, variants whose interval excludes 0, variants
# not comparable, variants flagged by --fail-slower) and the totals. The
# comparisons are stored too (tags cmp1..cmpN), for TestReplay.
set -u
base=$1 new=$2 out=$3 n=${4:-20}
groups=${GROUPS_SET:-HS256,ES256,EdDSA}
mkdir -p "$out"
store="$out/runs"
load() { # start two busy loops; their pids on stdout
	for _ in 1 2; do sh -c 'while :; do :; done' >/dev/null 2>&1 & echo $!; done
}
for i in $(seq 1 "$n"); do
	pids=""
	if [ "$i" -gt $((n / 4)) ] && [ "$i" -le $((n / 2)) ]; then pids=$(load); fi
	"$base" run --group "$groups" --store --storage "$store" --tag "ref$i" --progress none --report none >/dev/null 2>&1
	for p in $pids; do kill "$p"; done
done
sleep 60
exits=0 sig=0 nc=0 total=0 flagged=0
for i in $(seq 1 "$n"); do
	pids=""
	if [ "$i" -gt $((n / 2)) ]; then pids=$(load); fi
	"$new" run --group "$groups" --storage "$store" --ref "ref$i" --fail-slower 10 --progress none --output csv \
		--store --tag "cmp$i" \
		>"$out/cmp$i.csv" 2>"$out/cmp$i.err"
	code=$?
	for p in $pids; do kill "$p"; done
	read -r s c v < <(python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(sum(r["diff_significant"] == "true" for r in rows), sum(r["diff"] == "" for r in rows), len(rows))' "$out/cmp$i.csv")
	f=$(grep -c '^	' "$out/cmp$i.err")
	echo "comparison $i: exit $code, interval excludes 0: $s of $v, not comparable: $c, flagged: $f"
	[ "$code" = 1 ] && exits=$((exits + 1))
	sig=$((sig + s)) nc=$((nc + c)) total=$((total + v)) flagged=$((flagged + f))
done
echo "total: exit 1 in $exits of $n; interval excludes 0 for $sig of $total variants; not comparable $nc; flagged $flagged"
