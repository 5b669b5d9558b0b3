package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// RunFormat is the version of the stored run format.
const RunFormat = 1

// Run is one run of the suite: what was run, where, and the results. It is
// what --store saves as JSON.
type Run struct {
	Format int    `json:"format"`        // RunFormat
	ID     string `json:"id"`            // a UUID version 7 (time-ordered)
	Tag    string `json:"tag,omitempty"` // a name given with run --tag, see [CheckTag]
	// Incomplete marks a run interrupted before its last round: Results
	// hold the rounds that every variant completed.
	Incomplete bool      `json:"incomplete,omitempty"`
	Start      time.Time `json:"start"`    // when the run started (UTC)
	Duration   Duration  `json:"duration"` // wall time of the run
	Groups     []string  `json:"groups"`   // the groups requested
	// Filter is the --filter pattern that chose among the groups'
	// variants, or "" for all of them.
	Filter  string      `json:"filter,omitempty"`
	Config  Config      `json:"config"` // the configuration in force
	Env     Environment `json:"env"`    // the machine and build
	Results []Result    `json:"results"`

	// Seed is the seed of the round orders ([RoundOrder]): with the same
	// variants, it reproduces the order of every round.
	Seed uint64 `json:"seed"`
	// Calibration is the fixed calibration workload, measured in every
	// round (see [CalibrationVariant]); nil in runs stored before it.
	Calibration *Result `json:"calibration,omitempty"`
	// Against holds, for a run made with --against, the other build's
	// environment and results, measured in the same rounds; its ID is the
	// path of the other binary.
	Against *Run `json:"against,omitempty"`
	// Pool, in a reference that [Store.LoadRef] pooled from several
	// stored runs of one tag, says which runs it holds and which it left
	// out; nil for a stored run. It is never stored.
	Pool *Pool `json:"-"`
}

// Pool describes a reference pooled from the stored runs of one tag (see
// [Store.LoadRef]).
type Pool struct {
	Tag  string   // the tag
	Runs []string // the ids of the runs pooled, oldest first
	// Left are the runs of the tag left out, oldest first, each with why:
	// another commit (or tree state), configuration, variant set or
	// calibration workload than the newest.
	Left []PoolLeft
	// Unread is the count of older runs of the tag not read: the pool
	// already held the rounds a comparison pairs (see [Store.LoadRef]).
	Unread int
}

// PoolLeft is a stored run left out of a [Pool].
type PoolLeft struct {
	ID  string
	Why string
}

// maxTagLen bounds the length of a run's tag.
const maxTagLen = 64

// CheckTag returns an error unless tag can name a run: 1 to [maxTagLen]
// letters, digits, '.', '_' or '-', starting with a letter or digit, and
// neither "latest" nor a UUID (which --ref and --uuid read as ids).
func CheckTag(tag string) error {
	if tag == "" || len(tag) > maxTagLen {
		return fmt.Errorf("bench: a tag has 1 to %d characters, not %d", maxTagLen, len(tag))
	}
	for i, c := range tag {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !letter && (i == 0 || !strings.ContainsRune("._-", c)) {
			return fmt.Errorf("bench: tag %q: letters, digits, '.', '_' and '-' only, starting with a letter or digit", tag)
		}
	}
	if _, err := uuid.Parse(tag); err == nil || tag == "latest" {
		return fmt.Errorf("bench: tag %q would read as a run id", tag)
	}
	return nil
}

// NewRunID returns a new time-ordered run id (a UUID version 7, RFC 9562).
func NewRunID() (string, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return "", fmt.Errorf("bench: %w", err)
	}
	return id.String(), nil
}

// Store is a directory of stored runs, one <id>.json file each.
type Store struct {
	Dir string
}

// ErrNoRun is returned (wrapped) when a requested run is not stored.
var ErrNoRun = errors.New("bench: no such stored run")

// Probe creates the store's directory if needed and checks that a file can
// be written in it, so that a run with --store fails before it measures
// anything rather than after.
func (s Store) Probe() error {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return fmt.Errorf("bench: cannot create storage: %w", err)
	}
	f, err := os.CreateTemp(s.Dir, ".probe-*.tmp")
	if err != nil {
		return fmt.Errorf("bench: cannot write to storage: %w", err)
	}
	_, werr := f.Write([]byte("josebench\n"))
	cerr := f.Close()
	rerr := os.Remove(f.Name())
	if err := errors.Join(werr, cerr, rerr); err != nil {
		return fmt.Errorf("bench: cannot write to storage: %w", err)
	}
	return nil
}

// Save writes run to the store, creating the directory if needed, and
// returns the file's path. The file is written under a temporary name and
// renamed, so a stored run is never partial.
func (s Store) Save(run *Run) (string, error) {
	if _, err := uuid.Parse(run.ID); err != nil {
		return "", fmt.Errorf("bench: run id %q is not a UUID", run.ID)
	}
	data, err := json.MarshalIndent(run, "", "  ")
	if err != nil {
		return "", fmt.Errorf("bench: %w", err)
	}
	data = append(data, '\n')
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return "", fmt.Errorf("bench: cannot create storage: %w", err)
	}
	path := filepath.Join(s.Dir, run.ID+".json")
	tmp, err := os.CreateTemp(s.Dir, ".run-*.tmp")
	if err != nil {
		return "", fmt.Errorf("bench: cannot write to storage: %w", err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("bench: cannot write to storage: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("bench: cannot write to storage: %w", err)
	}
	return path, nil
}

// IDs returns the ids of the stored runs, oldest first (version 7 UUIDs
// sort by time). A missing directory holds no runs.
func (s Store) IDs() ([]string, error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("bench: cannot read storage: %w", err)
	}
	var ids []string
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || e.IsDir() {
			continue
		}
		if _, err := uuid.Parse(id); err == nil {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// Load reads the run with the given id, the newest one for "latest", the
// Nth before the newest for "latest~N" (latest~0 is latest; counted in the
// order of [Store.List] and `josebench log`, complete and incomplete runs
// alike), or the newest one tagged id (see [CheckTag]). A run that is not
// stored is an error wrapping [ErrNoRun].
func (s Store) Load(id string) (*Run, error) {
	back, relative, err := parseLatest(id)
	if err != nil {
		return nil, err
	}
	if !relative && CheckTag(id) == nil {
		runs, err := s.List()
		if err != nil {
			return nil, err
		}
		for i := len(runs) - 1; i >= 0; i-- {
			if runs[i].Tag == id {
				return s.Load(runs[i].ID)
			}
		}
		hint := ""
		if n, ok := strings.CutPrefix(id, "latest-"); ok && isDigits(n) {
			hint = fmt.Sprintf(" (the run %s before the latest is latest~%s)", n, n)
		}
		return nil, fmt.Errorf("%w: no run tagged %q in %s%s", ErrNoRun, id, s.Dir, hint)
	}
	if relative {
		ids, err := s.IDs()
		if err != nil {
			return nil, err
		}
		switch {
		case len(ids) == 0:
			return nil, fmt.Errorf("%w: storage %s holds no runs", ErrNoRun, s.Dir)
		case back >= 1 && len(ids) == 1:
			return nil, fmt.Errorf("%w: %s: storage %s holds 1 run, latest", ErrNoRun, id, s.Dir)
		case back >= uint64(len(ids)):
			return nil, fmt.Errorf("%w: %s: storage %s holds %d runs, latest to latest~%d", ErrNoRun, id, s.Dir, len(ids), len(ids)-1)
		}
		id = ids[len(ids)-1-int(back)]
	}
	if _, err := uuid.Parse(id); err != nil {
		return nil, fmt.Errorf("bench: run id %q is neither a UUID, \"latest\", \"latest~N\" nor a tag", id)
	}
	data, err := os.ReadFile(filepath.Join(s.Dir, id+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s in %s", ErrNoRun, id, s.Dir)
	}
	if err != nil {
		return nil, fmt.Errorf("bench: cannot read storage: %w", err)
	}
	return DecodeRun(data)
}

// parseLatest reads a reference relative to the newest run: "latest"
// (0) or "latest~N", N a decimal count of runs back. relative is false for
// anything else; "latest~" followed by anything but digits is an error.
func parseLatest(id string) (back uint64, relative bool, err error) {
	if id == "latest" {
		return 0, true, nil
	}
	n, ok := strings.CutPrefix(id, "latest~")
	if !ok {
		return 0, false, nil
	}
	if !isDigits(n) || len(n) > 9 {
		return 0, false, fmt.Errorf("bench: run reference %q: want latest~N, N the count of runs before the latest (0 to 999999999)", id)
	}
	back, _ = strconv.ParseUint(n, 10, 64)
	return back, true, nil
}

// isDigits reports whether s is one or more ASCII digits.
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// RunInfo describes a stored run, as `josebench log` lists it.
type RunInfo struct {
	ID         string
	Start      time.Time
	Tag        string
	Groups     []string
	Filter     string // the run's --filter, "" for none
	Variants   int
	Commit     string
	Modified   bool
	CommitFrom string // see [Environment]
	GoVersion  string
	Incomplete bool
}

// List returns the stored runs, oldest first. A run file that cannot be
// read or decoded is an error naming it.
func (s Store) List() ([]RunInfo, error) {
	ids, err := s.IDs()
	if err != nil {
		return nil, err
	}
	infos := make([]RunInfo, 0, len(ids))
	for _, id := range ids {
		data, err := os.ReadFile(filepath.Join(s.Dir, id+".json"))
		if err != nil {
			return nil, fmt.Errorf("bench: cannot read storage: %w", err)
		}
		var r struct {
			Format     int         `json:"format"`
			ID         string      `json:"id"`
			Start      time.Time   `json:"start"`
			Tag        string      `json:"tag"`
			Groups     []string    `json:"groups"`
			Filter     string      `json:"filter"`
			Env        Environment `json:"env"`
			Incomplete bool        `json:"incomplete"`
			Results    []struct{}  `json:"results"`
		}
		if err := json.Unmarshal(data, &r); err != nil || r.Format != RunFormat {
			return nil, fmt.Errorf("bench: stored run %s is not valid (format %d): %v", id, r.Format, err)
		}
		infos = append(infos, RunInfo{ID: id, Start: r.Start, Tag: r.Tag, Groups: r.Groups, Filter: r.Filter, Variants: len(r.Results),
			Commit: r.Env.Commit, Modified: r.Env.Modified, CommitFrom: r.Env.CommitFrom, GoVersion: r.Env.GoVersion, Incomplete: r.Incomplete})
	}
	return infos, nil
}

// DecodeRun parses a stored run and recomputes its statistics from the
// iterations, so that a report never shows numbers the samples do not give.
func DecodeRun(data []byte) (*Run, error) {
	var run Run
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&run); err != nil {
		return nil, fmt.Errorf("bench: stored run is not valid: %w", err)
	}
	if run.Format != RunFormat {
		return nil, fmt.Errorf("bench: stored run has format %d, want %d", run.Format, RunFormat)
	}
	run.summarize()
	return &run, nil
}

// summarize recomputes the statistics of every result of run.
func (run *Run) summarize() {
	for i := range run.Results {
		run.Results[i].summarize()
	}
	if run.Calibration != nil {
		run.Calibration.summarize()
	}
	if run.Against != nil {
		run.Against.summarize()
	}
}
