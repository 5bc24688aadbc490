package experiments

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/internal/shellword"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// Observer is told about a run's progress. Calls are serialised.
type Observer interface {
	// Start is called once: total candidates of this run (this shard) and
	// how many of them were already recorded.
	Start(total, done int)
	// Done is called after each candidate's record is written.
	Done(rec *records.Record)
}

// A PropensityObserver is an Observer that is also told how the propensity
// fits progress: on a large data set they take a while before the first
// candidate trains. Calls are serialised with those of the Observer.
type PropensityObserver interface {
	Observer
	// PropensityEpoch is called after each epoch (1-based, of epochs) of
	// the propensity fit of split m.
	PropensityEpoch(m, epoch, epochs int)
}

// Summary is what a Run did.
type Summary struct {
	Total, Resumed, Trained, Failed int
	Elapsed                         time.Duration
	Records                         string // the records file this run appended to
	Out                             string
}

// Runner runs one sweep into one output folder.
type Runner struct {
	cfg    Config
	mem    Memory // the sweep's memory estimate and limit
	out    string
	engine train.Engine
	data   *datasets.Dataset
	grid   []float64 // the fixed λs; the coarse grid of an adaptive grid
	// adaptive is the adaptive grid, nil for a fixed one.
	adaptive *scalarize.Adaptive
	// evalOnly are the λ of a conditioned sweep's evaluation grid that
	// grid does not hold.
	evalOnly []float64
	obs      Observer
	writer   *records.Writer
	path     string

	warnings []string
	// columnWarnings are the data's column warnings among them, which the
	// run's invocation line keeps for the report.
	columnWarnings []string

	mu   sync.Mutex
	done map[string]*records.Record
	sum  Summary
}

// Memory is the sweep's memory estimate, from its data's own sizes, and
// the limit it was checked against.
func (r *Runner) Memory() Memory { return r.mem }

// NewRunner checks the config (Config.Validate, which needs no data, so an
// impossible sweep is refused before anything is read or written), loads the
// data, resolves the config and checks it against what out already holds (a
// folder belongs to one configuration; a different one is refused), reads
// the records already there and opens this shard's records file. The
// settings c leaves to the sweep (LockstepAuto, SelectFractionAuto) keep the
// values of a folder that already holds one, so that the same call resumes
// it. obs may be nil.
func NewRunner(c Config, out string, obs Observer) (*Runner, error) {
	c = c.resuming(out).lockstepChosen()
	if err := c.Validate(); err != nil {
		return nil, err
	}
	data, err := LoadDataset(c)
	if err != nil {
		return nil, err
	}
	if c.groups, err = trainableGroups(c, data); err != nil {
		return nil, err
	}
	// The default batch of a CSV depends on the training size of a split.
	sp0, err := splitOf(c, data, 0)
	if err != nil {
		return nil, err
	}
	c, err = c.Resolved(len(sp0.Train))
	if err != nil {
		return nil, err
	}
	// The memory check again, now with the data's own width and the
	// validation part's size, which Validate could only floor.
	evalRows := len(sp0.Train)
	if c.ValFraction > 0 {
		evalRows = int(math.Round(c.ValFraction * float64(len(sp0.Train))))
	}
	mem, err := c.checkMemoryOn(data.Dim, data.N, min(max(evalRows, 1), EvalBlock))
	if err != nil {
		return nil, err
	}
	c.Coding = &Coding{Target: data.Target, TargetPositive: data.LabelPositive,
		Sensitive: data.Sensitive, SensitivePositive: data.GroupPositive}
	c.DataID = data.ID
	if err := c.checkBaseRun(); err != nil {
		return nil, err
	}
	warnings, err := checkGroups(c, data)
	if err != nil {
		return nil, err
	}
	cols := columnWarnings(data.ColumnWarnings)
	warnings = append(slices.Concat(data.Notes, data.GroupNotes, cols), warnings...)
	engine, _ := EngineByName(c.Engine) // checked by Resolved
	grid, adaptive, _ := c.lambdaGrid() // checked by Validate
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("output folder: %w", err)
	}
	if err := runfolder.Claim(out, c.Config); err != nil {
		return nil, err
	}
	r := &Runner{cfg: c, out: out, engine: engine, data: data, grid: grid, adaptive: adaptive, obs: obs,
		evalOnly: c.evalOnlyGrid(grid), done: map[string]*records.Record{}, warnings: warnings, columnWarnings: cols, mem: mem}
	existing, err := runfolder.ReadRecords(out)
	if err != nil {
		return nil, err
	}
	digest := c.Digest()
	for i := range existing {
		rec := &existing[i]
		if rec.Config != digest {
			return nil, fmt.Errorf("%s holds records of another configuration (%s, not %s): use another --out", out, rec.Config, digest)
		}
		if rec.DataID != "" && rec.DataID != c.DataID {
			return nil, fmt.Errorf("%s holds records of other rows (data_id %s, not %s: the file's rows, or the values of its target or sensitive column, changed): use another --out", out, rec.DataID, c.DataID)
		}
		r.done[rec.Key()] = rec
	}
	r.path = filepath.Join(out, runfolder.RecordsFile(c.Shard))
	var lastWrite time.Time // of a killed run, before Open may cut a torn line
	if st, err := os.Stat(r.path); err == nil {
		lastWrite = st.ModTime()
	}
	if r.writer, err = runfolder.OpenRecords(out, c.Shard); err != nil {
		return nil, err
	}
	if err := r.recoverKilled(lastWrite); err != nil {
		r.writer.Close()
		return nil, err
	}
	if _, err := runfolder.RemoveStaleTemps(out, c.Splits, c.Shard, time.Now()); err != nil {
		r.writer.Close()
		return nil, err
	}
	return r, nil
}

// trainableGroups is R when the data's sensitive attribute has R > 2
// groups, which train with the R-group penalty (docs/method.md §3.3), and 0
// otherwise: two groups from --sensitive-levels, of one column or an
// intersection, train as the binary a they code. The adversarial baseline
// and λ-conditioned networks train two groups only and are refused.
func trainableGroups(c Config, d *datasets.Dataset) (int, error) {
	if len(d.Levels) <= 2 {
		return 0, nil
	}
	what := fmt.Sprintf("%d sensitive groups (%s)", len(d.Levels), strings.Join(d.Levels, ", "))
	switch {
	case c.Method == MethodAdversarial:
		return 0, fmt.Errorf("the adversarial baseline trains against a two-group adversary, not %s; use the method cheb or linear", what)
	case c.Conditioned:
		return 0, fmt.Errorf("--conditioned trains two groups, not %s; leave it out to train one network per λ", what)
	}
	return len(d.Levels), nil
}

// Warnings are what NewRunner found doubtful about the sweep's data before
// training (a group with few rows in a training split, say), one line each.
func (r *Runner) Warnings() []string { return r.warnings }

// checkGroups looks at the rows each split of the sweep trains on. A
// penalised sweep in which every batch would lack one of the groups (a
// training split without one of them, or batches of one row) is refused:
// its penalty would be 0 throughout. A group with fewer than MinGroupRows
// rows gives a warning.
func checkGroups(c Config, d *datasets.Dataset) ([]string, error) {
	var warnings []string
	for m := 0; m < c.Splits; m++ {
		if !c.Shard.Owns(m) {
			continue
		}
		sp, err := splitOf(c, d, m)
		if err != nil {
			return nil, err
		}
		fit, _ := holdOut(c, d, m, sp.Train, c.ValFraction)
		batch := min(c.Batch, len(fit))
		if c.groups > 2 {
			w, err := checkLevels(c, d, m, fit, batch)
			if err != nil {
				return nil, err
			}
			warnings = append(warnings, w...)
			continue
		}
		var n1 int
		for _, i := range fit {
			n1 += int(d.A[i])
		}
		n0 := len(fit) - n1
		if c.Method != MethodAdversarial && (n1 == 0 || n0 == 0 || batch < 2) {
			return nil, fmt.Errorf("split %d: the networks train on %d rows (%d with a = 1, %d with a = 0) in batches of %d: every batch would lack one of the groups, so the unfairness penalty would be 0 throughout; use more rows (or a larger --batch)",
				m, len(fit), n1, n0, batch)
		}
		if n1 < MinGroupRows || n0 < MinGroupRows {
			warnings = append(warnings, fmt.Sprintf("split %d: the networks train on %d rows with a = 1 and %d with a = 0; with fewer than %d rows in a group the ATO estimates are noisy",
				m, n1, n0, MinGroupRows))
		}
	}
	return warnings, nil
}

// checkLevels is checkGroups for R > 2 groups on the rows fit of split m:
// a group without rows (or batches of one row) is refused, a group with
// fewer than MinGroupRows rows warned about, naming it.
func checkLevels(c Config, d *datasets.Dataset, m int, fit []int, batch int) ([]string, error) {
	counts := make([]int, c.groups)
	for _, i := range fit {
		counts[d.Groups[i]]++
	}
	var few []string
	for g, n := range counts {
		if n == 0 || batch < 2 {
			return nil, fmt.Errorf("split %d: the networks train on %d rows, %d of group %q, in batches of %d: every batch would lack one of the groups, so the unfairness penalty would be 0 throughout; use more rows (or a larger --batch), or merge rare groups with --min-group-rows",
				m, len(fit), n, d.Levels[g], batch)
		}
		if n < MinGroupRows {
			few = append(few, fmt.Sprintf("%d of group %q", n, d.Levels[g]))
		}
	}
	if len(few) == 0 {
		return nil, nil
	}
	return []string{fmt.Sprintf("split %d: the networks train on %s; with fewer than %d rows in a group the ATO estimates are noisy",
		m, strings.Join(few, ", "), MinGroupRows)}, nil
}

// Config is the resolved configuration the runner uses.
func (r *Runner) Config() Config { return r.cfg }

// Levels are the names of the sensitive attribute's groups when the sweep
// trains more than two (docs/method.md §1.9), and nil when it trains the
// binary a.
func (r *Runner) Levels() []string {
	if r.cfg.groups == 0 {
		return nil
	}
	return r.data.Levels
}

// Close closes the records file.
func (r *Runner) Close() error { return r.writer.Close() }

// ReadConfig reads the configuration stored in an output folder
// (runfolder.ReadConfig), as a Config to validate, run or resume.
func ReadConfig(dir string) (Config, error) {
	c, err := runfolder.ReadConfig(dir)
	return Config{Config: c}, err
}

// Candidates lists the keys of every candidate of the sweep that belongs to
// the runner's shard, in order (split, then λ). For an adaptive grid they are
// the keys of its coarse grid: the other λs are chosen as the run goes.
func (r *Runner) Candidates() []string {
	var keys []string
	for m := 0; m < r.cfg.Splits; m++ {
		if !r.cfg.Shard.Owns(m) {
			continue
		}
		for _, l := range append(slices.Clone(r.grid), r.evalOnly...) {
			keys = append(keys, records.CandidateKey(r.cfg.Method, r.cfg.Penalty, m, l))
		}
	}
	return keys
}

func (r *Runner) isDone(m int, lambda float64) (*records.Record, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rec, ok := r.done[records.CandidateKey(r.cfg.Method, r.cfg.Penalty, m, lambda)]
	return rec, ok
}

// finish appends a record and tells the observer.
func (r *Runner) finish(rec *records.Record) error {
	rec.Config = r.cfg.Digest()
	rec.DataID = r.cfg.DataID
	rec.Shard = r.cfg.Shard.String()
	if err := r.writer.Append(rec); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done[rec.Key()] = rec
	r.sum.Trained++
	if !rec.OK() {
		r.sum.Failed++
	}
	if r.obs != nil {
		r.obs.Done(rec)
	}
	return nil
}

// Run trains every candidate of the shard that is not recorded yet. When ctx
// is cancelled it stops the candidates in flight (they are not recorded) and
// returns ctx's error; everything finished before is on disk.
func (r *Runner) Run(ctx context.Context) (Summary, error) {
	start := time.Now()
	r.mu.Lock()
	r.sum = Summary{Records: r.path, Out: r.out}
	for m := 0; m < r.cfg.Splits; m++ {
		if r.cfg.Shard.Owns(m) {
			r.sum.Total += r.perSplit()
			r.sum.Resumed += min(r.perSplit(), r.doneInSplit(m))
		}
	}
	if r.obs != nil {
		r.obs.Start(r.sum.Total, r.sum.Resumed)
	}
	before := r.shardRecords()
	r.mu.Unlock()
	wd, _ := os.Getwd()
	begun := runfolder.Invocation{Args: r.cfg.Args, Dir: wd, Shard: r.cfg.Shard.String(), Start: start, Status: runfolder.StatusKilled,
		ColumnWarnings: r.columnWarnings}
	if err := runfolder.MarkRunning(r.out, begun, before, r.cfg.Shard); err != nil {
		return r.sum, err
	}

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	workers := make(chan struct{}, r.cfg.Workers)
	// A few more splits than workers are open at once, so that workers do
	// not idle while a split waits for its standardization runs, without
	// holding every split's data in memory.
	open := make(chan struct{}, r.cfg.Workers+1)
	var wg sync.WaitGroup
splits:
	for m := 0; m < r.cfg.Splits; m++ {
		if !r.cfg.Shard.Owns(m) || r.splitDone(m) {
			continue
		}
		select {
		case open <- struct{}{}:
		case <-ctx.Done():
			break splits
		}
		wg.Add(1)
		go func(m int) {
			defer wg.Done()
			defer func() { <-open }()
			run := r.runSplit
			switch r.cfg.Method {
			case MethodAdversarial:
				run = r.runAdversarialSplit
			case MethodThresholds:
				run = r.runThresholdsSplit
			case MethodReductions:
				run = r.runReductionsSplit
			}
			if err := run(ctx, m, workers); err != nil {
				cancel(err)
			}
		}(m)
	}
	wg.Wait()
	r.mu.Lock()
	sum := r.sum
	r.mu.Unlock()
	sum.Elapsed = time.Since(start)
	err := context.Cause(ctx)
	inv := runfolder.Invocation{Args: r.cfg.Args, Shard: r.cfg.Shard.String(), Start: start, End: start.Add(sum.Elapsed),
		Trained: sum.Trained, Status: "done", ColumnWarnings: r.columnWarnings}
	inv.Dir, _ = os.Getwd()
	switch {
	case errors.Is(err, context.Canceled):
		inv.Status = "interrupted"
	case err != nil:
		inv.Status = "failed: " + err.Error()
	}
	ierr := runfolder.AppendInvocation(r.out, inv)
	if ierr == nil {
		ierr = runfolder.UnmarkRunning(r.out, r.cfg.Shard)
	}
	if ierr != nil && err == nil {
		err = ierr
	}
	return sum, err
}

// shardRecords counts the records of the runner's shard (the caller holds
// r.mu).
func (r *Runner) shardRecords() int {
	n, shard := 0, r.cfg.Shard.String()
	for _, rec := range r.done {
		if rec.Shard == shard {
			n++
		}
	}
	return n
}

// recoverKilled writes the invocations line of a killed earlier run of the
// shard (runfolder.RecoverKilledRun), lastWrite being its records file's time.
func (r *Runner) recoverKilled(lastWrite time.Time) error {
	r.mu.Lock()
	n := r.shardRecords()
	r.mu.Unlock()
	return runfolder.RecoverKilledRun(r.out, r.cfg.Shard, lastWrite, n)
}

// doneInSplit counts the candidates of split m with a record (the caller
// holds r.mu).
func (r *Runner) doneInSplit(m int) int {
	n := 0
	for _, rec := range r.done {
		if rec.Split == m {
			n++
		}
	}
	return n
}

func (r *Runner) splitDone(m int) bool {
	if r.adaptive != nil {
		return len(r.splitRecords(m)) >= r.adaptive.N
	}
	for _, l := range append(slices.Clone(r.grid), r.evalOnly...) {
		if _, ok := r.isDone(m, l); !ok {
			return false
		}
	}
	return true
}

// acquire takes a worker slot; false when ctx is done first.
// mode is the engine mode of the sweep's records: "lockstep" or "".
func (r *Runner) mode() string {
	if r.cfg.Lockstep {
		return "lockstep"
	}
	return ""
}

func acquire(ctx context.Context, workers chan struct{}) bool {
	select {
	case workers <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func writeAtomic(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return model.WriteFileAtomic(path, b)
}

// columnWarnings phrases the data's warnings about feature columns, each
// with the flag that leaves its column out, quoted for a shell, and what
// that costs — or, for the only feature column, that it cannot be left
// out.
func columnWarnings(ws []datasets.ColumnWarning) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		switch {
		case w.Only:
			out[i] = w.Problem + "; it is the only feature, so it cannot be left out: add the columns known when the decision is made"
		default:
			out[i] = w.Problem + "; leave it out with --exclude " + shellword.Quote(runfolder.FormatList([]string{w.Column}))
			if w.Cost != "" {
				out[i] += " " + w.Cost
			}
		}
	}
	return out
}
