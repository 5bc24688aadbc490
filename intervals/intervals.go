package intervals

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/fairness/bootstrap"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// Level is the coverage of every interval.
const Level = 0.95

// DefaultResamples is the number of bootstrap resamples of an interval
// unless the user asks for another (--ci-resamples).
const DefaultResamples = 1000

// Tolerance is how far a re-scored test metric may lie from the recorded
// one before the rows are taken to be other rows than the run's: the two
// are computed by the same code from the same numbers, so only rounding
// separates them.
const Tolerance = 1e-9

// Interval is a percentile interval [lo, hi].
type Interval [2]float64

// CI is one candidate's intervals. An interval that cannot be given is nil
// (JSON null) and Note says why; every key is present in the JSON form, so
// that a reader can tell "no interval" from "not asked".
type CI struct {
	Risk     *Interval `json:"risk_ci"`
	Accuracy *Interval `json:"accuracy_ci"`
	ATO      *Interval `json:"ato_ci"`
	DP       *Interval `json:"dp_ci"`
	EO       *Interval `json:"eo_ci"`
	EOpp     *Interval `json:"eopp_ci"`
	// The decision metrics' intervals, at the record's threshold; DPRatio
	// is the interval of dp_ratio itself.
	DPDiff   *Interval `json:"dp_diff_ci"`
	DPRatio  *Interval `json:"dp_ratio_ci"`
	EODiff   *Interval `json:"eo_diff_ci"`
	EOppDiff *Interval `json:"eopp_diff_ci"`
	// Unbiased holds the unbiased estimates of dp, eo and eopp that their
	// intervals are built around (docs/method.md §7.1); Apply shows them in
	// place of the records' plug-in values, which it keeps in DPRaw, EORaw
	// and EOppRaw (JSON dp_raw, …).
	Unbiased *bootstrap.Corrected `json:"-"`
	DPRaw    *float64             `json:"dp_raw,omitempty"`
	EORaw    *float64             `json:"eo_raw,omitempty"`
	EOppRaw  *float64             `json:"eopp_raw,omitempty"`
	// Resamples is the number of bootstrap resamples; Rows the number of
	// test rows resampled (0 when no interval was computed).
	Resamples int `json:"ci_resamples"`
	Rows      int `json:"ci_rows"`
	// Note says why an interval is missing ("" when none is).
	Note string `json:"ci_note,omitempty"`
	// Caution says which given intervals cover less reliably, and why
	// ("" when none does).
	Caution string `json:"ci_caution,omitempty"`
}

// Given reports whether the intervals were computed (the fairness ones may
// still be missing; see Note).
func (c *CI) Given() bool { return c != nil && c.Risk != nil }

// Metric returns the interval of metric name: "risk", "accuracy" or one of
// records.Metrics; nil when there is none.
func (c *CI) Metric(name string) *Interval {
	if c == nil {
		return nil
	}
	switch name {
	case "risk":
		return c.Risk
	case "accuracy":
		return c.Accuracy
	case "ato":
		return c.ATO
	case "dp":
		return c.DP
	case "eo":
		return c.EO
	case "eopp":
		return c.EOpp
	case records.MetricDPDiff:
		return c.DPDiff
	case records.MetricDPRatio:
		// As records.Record.Metric gives it: 1 − dp_ratio.
		if c.DPRatio == nil {
			return nil
		}
		return &Interval{1 - c.DPRatio[1], 1 - c.DPRatio[0]}
	case records.MetricEODiff:
		return c.EODiff
	case records.MetricEOppDiff:
		return c.EOppDiff
	}
	return nil
}

// Folder computes the intervals of the candidates of one run folder. It
// reloads the folder's data once; Save stores what it computed in the
// folder's cache. A Folder is not safe for concurrent use.
type Folder struct {
	dir       string
	resamples int
	src       *runfolder.PredictionSource
	problem   string // why no candidate of the folder gets an interval
	cache     map[string]CI
	added     bool
}

// Open prepares the intervals of run folder dir with resamples bootstrap
// resamples each (≥ 2). src, when not nil, is the folder's prediction
// source, loaded already; otherwise Open loads the data. A folder whose
// data cannot be loaded gives every candidate a note instead of intervals.
func Open(dir string, src *runfolder.PredictionSource, resamples int) (*Folder, error) {
	if resamples < 2 {
		return nil, fmt.Errorf("intervals: %d resamples, want at least 2", resamples)
	}
	f := &Folder{dir: dir, resamples: resamples, src: src, cache: map[string]CI{}}
	if f.src == nil {
		var err error
		if f.src, err = runfolder.NewPredictionSource(dir); err != nil {
			f.problem = fmt.Sprintf("no intervals for %s: its data cannot be reloaded to re-score its networks: %v", dir, err)
		}
	}
	// A folder copied without its networks (records kept, networks not)
	// is said once, not once per candidate.
	if nets := filepath.Join(dir, "networks"); f.problem == "" {
		if _, err := os.Stat(nets); errors.Is(err, fs.ErrNotExist) {
			f.problem = fmt.Sprintf("no intervals for %s: its networks are not there (no folder %s)", dir, nets)
		}
	}
	if b, ok := runfolder.ReadCache(dir, CacheFile); ok {
		var c cacheFile
		// A cache that does not parse, or of another format, is absent.
		if json.Unmarshal(b, &c) == nil && c.Format == cacheFormat {
			for k, v := range c.Entries {
				v.CI.Unbiased = v.Corrected
				f.cache[k] = v.CI
			}
		}
	}
	return f, nil
}

// Problem is the one-line reason why no candidate of the folder gets an
// interval; "" when they can.
func (f *Folder) Problem() string { return f.problem }

// For returns rec's intervals. rec must be a successful record of the
// folder. When they cannot be given, the CI holds no interval and its Note
// says why.
func (f *Folder) For(rec *records.Record) CI {
	return f.ForAll([]*records.Record{rec})[0]
}

// ForAll returns the intervals of each of recs (see For), bootstrapping
// several candidates at once on as many cores as Go may use.
func (f *Folder) ForAll(recs []*records.Record) []CI {
	out := make([]CI, len(recs))
	type job struct {
		i    int
		s    *bootstrap.Sample
		rng  *rand.Rand
		note string // on the ATO, when the propensity is missing
		key  string
	}
	var jobs []job
	for i, rec := range recs {
		s, rng, c, ok := f.prepare(rec)
		if !ok {
			out[i] = c
			continue
		}
		jobs = append(jobs, job{i: i, s: s, rng: rng, note: c.Note, key: f.key(rec)})
	}
	// Each bootstrap has its own generator, so the order in which workers
	// take them changes nothing.
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				j := &jobs[k]
				out[j.i] = f.bootstrap(recs[j.i], j.s, j.rng, j.note)
			}
		}()
	}
	for k := range jobs {
		next <- k
	}
	close(next)
	wg.Wait()
	for _, j := range jobs {
		if c := out[j.i]; j.note == "" && c.Given() {
			f.cache[j.key] = c
			f.added = true
		}
	}
	return out
}

// prepare checks that rec's intervals can be given and returns its sample
// of re-scored test rows with the generator of its bootstrap; ok is false
// when there is nothing to bootstrap, and c is then the answer (from the
// cache, or a refusal). Otherwise c.Note notes a missing ATO.
func (f *Folder) prepare(rec *records.Record) (s *bootstrap.Sample, rng *rand.Rand, c CI, ok bool) {
	if c, ok := f.cached(rec); ok {
		return nil, nil, c, false
	}
	s, c, ok = f.sample(rec, false)
	if !ok {
		return nil, nil, c, false
	}
	return s, runfolder.NewRand(rec.Seed, "bootstrap", rec.Split, rec.Method, rec.Lambda), c, true
}

// cached returns rec's cached intervals, after the checks that the cache
// cannot answer (the rows' identity, the network's presence).
func (f *Folder) cached(rec *records.Record) (CI, bool) {
	if f.problem != "" || rec.Weights == "" || (rec.DataID != "" && f.src.DataID() != rec.DataID) {
		return CI{}, false
	}
	if _, err := os.Stat(filepath.Join(f.dir, rec.Weights)); err != nil {
		return CI{}, false
	}
	c, ok := f.cache[f.key(rec)]
	return c, ok
}

// sample checks that rec's rows can be re-scored and returns their
// bootstrap sample: the test rows, or the selection rows when sel. ok is
// false when they cannot, and c.Note then says why; otherwise c.Note notes
// a missing ATO.
func (f *Folder) sample(rec *records.Record, sel bool) (s *bootstrap.Sample, c CI, ok bool) {
	if f.problem != "" {
		return nil, CI{Note: f.problem}, false
	}
	who := fmt.Sprintf("%s split %d λ = %g in %s", rec.Method, rec.Split, rec.Lambda, f.dir)
	refuse := func(format string, a ...any) (*bootstrap.Sample, CI, bool) {
		return nil, CI{Note: fmt.Sprintf(format, a...)}, false
	}
	// The rows must be the ones the records were computed on: a data file
	// edited since training gives other rows.
	if id := f.src.DataID(); rec.DataID != "" && id != rec.DataID {
		return refuse("no intervals for %s: its data now holds other rows than it was trained on "+
			"(data_id %s, the records say %s): the data, or its target or sensitive column, changed since training", f.dir, id, rec.DataID)
	}
	if rec.Weights == "" {
		return refuse("no interval for %s: the record names no network file", who)
	}
	net := filepath.Join(f.dir, rec.Weights)
	if _, err := os.Stat(net); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return refuse("no interval for %s: its network file %s is missing", who, net)
		}
		return refuse("no interval for %s: %v", who, err)
	}
	pr, err := f.src.Predictions(rec)
	if err != nil {
		return refuse("no interval for %s: its test rows cannot be re-scored: %v", who, err)
	}
	if sel {
		if pr.Selection == nil || !rec.HasSelection() {
			return refuse("no interval for %s on its selection rows: the run keeps none", who)
		}
		pr = pr.Selection
	}
	met, dec, build, note, refusal := f.rescore(rec, pr, sel, who)
	if refusal != "" {
		return refuse("%s", refusal)
	}
	if why := mismatch(rec, met, dec, sel); why != "" {
		return refuse("no interval for %s: %s: the data or the network changed since training", who, why)
	}
	if s, err = build(); err != nil {
		return refuse("no interval for %s: %v", who, err)
	}
	// The decisions the record's accuracy and decision metrics are of:
	// one threshold, or a group-thresholds candidate's rules, held fixed
	// (they were fitted on the training rows) while the rows are
	// resampled.
	if dec.rules != nil {
		s, err = s.WithDecisions(dec.rules)
	} else {
		s, err = s.WithThreshold(fairness.ThresholdOr(rec.Threshold))
	}
	if err != nil {
		return refuse("no interval for %s: %v", who, err)
	}
	return s, CI{Note: note}, true
}

// AtLevel returns rec's intervals at level on its selection rows (sel) or
// its test rows, from resamples bootstrap resamples of the generator
// seeded by the run's seed, purpose and the candidate (docs/method.md
// §10); Rows is the number of rows resampled. Not cached. When they
// cannot be given the CI holds no interval and its Note says why.
func (f *Folder) AtLevel(rec *records.Record, sel bool, resamples int, level float64, purpose string) CI {
	s, c, ok := f.sample(rec, sel)
	if !ok {
		return c
	}
	rng := runfolder.NewRand(rec.Seed, purpose, rec.Split, rec.Method, rec.Lambda)
	return f.bootstrapAt(rec, s, rng, c.Note, resamples, level)
}

// rescore computes the metrics of rec's re-scored rows pr (its test rows,
// or its selection rows when sel) as the run computed them — binary, or
// the R-group ones with the generalised overlap weights of the split's
// multinomial propensity (docs/method.md §1.9) — and returns how to build
// their bootstrap sample. note says why the ATO is missing (no
// propensity); refusal, when not "", why no interval is given. dec holds
// the rows' decision metrics (decided).
func (f *Folder) rescore(rec *records.Record, pr *runfolder.Predictions, sel bool, who string) (met fairness.Metrics, dec decided, build func() (*bootstrap.Sample, error), note, refusal string) {
	// z holds the groups (0 … r−1; two groups: the attribute) and w their
	// overlap weights, nil without a propensity.
	var w []float64
	var err error
	z, r := pr.Groups, len(pr.Levels)
	if len(rec.GroupCounts) > 0 {
		if r != len(rec.GroupCounts) {
			return met, dec, nil, "", fmt.Sprintf("no interval for %s: the record counts %d groups, the data now has %d", who, len(rec.GroupCounts), r)
		}
		w, err = f.src.OverlapWeightsGroupsOn(rec.Split, sel)
	} else {
		r = 2
		if z, err = fairness.BinaryGroups(pr.A); err != nil {
			return met, dec, nil, "", fmt.Sprintf("no interval for %s: its test rows cannot be scored: %v", who, err)
		}
		var e []float64
		if e, err = f.src.PropensityOn(rec.Split, sel); err == nil {
			if len(e) != len(z) {
				return met, dec, nil, "", fmt.Sprintf("no interval for %s: %d propensities for %d test rows", who, len(e), len(z))
			}
			_, w, err = fairness.Binary(pr.A, e)
		}
	}
	if err != nil {
		// Without the propensity the ATO cannot be recomputed; the other
		// metrics can.
		w, note = nil, fmt.Sprintf("no ATO interval for %s: %v", who, err)
	}
	if w != nil && len(w) != len(pr.Z) {
		return met, dec, nil, "", fmt.Sprintf("no interval for %s: %d overlap weights for %d test rows", who, len(w), len(pr.Z))
	}
	met, err = fairness.EvaluateLogits(pr.Z, pr.Y, z, w)
	build = func() (*bootstrap.Sample, error) { return bootstrap.NewLogits(pr.Z, pr.Y, z, r, w) }
	if err != nil {
		return met, dec, nil, "", fmt.Sprintf("no interval for %s: its test rows cannot be scored: %v", who, err)
	}
	// Accuracy is the record's: at its threshold, or with its rules.
	if dec, err = decide(rec, pr, z, r); err != nil {
		return met, dec, nil, "", fmt.Sprintf("no interval for %s: its test rows cannot be decided: %v", who, err)
	}
	met.Accuracy = dec.Accuracy
	return met, dec, build, note, ""
}

// bootstrap computes the intervals of sample s; note is prepare's.
func (f *Folder) bootstrap(rec *records.Record, s *bootstrap.Sample, rng *rand.Rand, note string) CI {
	return f.bootstrapAt(rec, s, rng, note, f.resamples, Level)
}

// bootstrapAt is bootstrap with resamples resamples at level.
func (f *Folder) bootstrapAt(rec *records.Record, s *bootstrap.Sample, rng *rand.Rand, note string, resamples int, level float64) CI {
	iv, err := s.Intervals(resamples, level, rng)
	c := CI{Resamples: resamples, Rows: s.Len(), Risk: of(iv.Risk), Accuracy: of(iv.Accuracy), Note: note}
	if err != nil {
		// A group too small for fairness intervals: risk and accuracy
		// only.
		c.Note = fmt.Sprintf("no fairness intervals for %s split %d λ = %g in %s: %v", rec.Method, rec.Split, rec.Lambda, f.dir, err)
		return c
	}
	c.DP, c.EO, c.EOpp = of(iv.DP), of(iv.EO), of(iv.EOpp)
	// Said per split, not per candidate: a split's candidates share the
	// rows, and its users show each distinct caution once.
	var few []string
	if iv.SmallestCell < bootstrap.FewCellRows {
		few = append(few, fmt.Sprintf("a group has fewer than %d rows within a class: the eo and eopp intervals "+
			"rest on those rows", bootstrap.FewCellRows))
	}
	if iv.HasATO && iv.SmallestESS < bootstrap.FewCellRows {
		few = append(few, fmt.Sprintf("a group's overlap weights amount to %.0f effective rows: the ato interval "+
			"rests on those rows", iv.SmallestESS))
	}
	if len(few) > 0 {
		c.Caution = fmt.Sprintf("in %s split %d, %s, and cover less reliably (docs/method.md §7.1)", f.dir, rec.Split, strings.Join(few, "; "))
	}
	corr := iv.Corrected
	c.Unbiased = &corr
	c.DPDiff, c.DPRatio, c.EODiff, c.EOppDiff = of(iv.DPDiff), of(iv.DPRatio), of(iv.EODiff), of(iv.EOppDiff)
	if iv.HasATO {
		c.ATO = of(iv.ATO)
	}
	return c
}

// mismatch names the first recorded test metric (selection metric, when
// sel) that the re-scored rows do not reproduce; "" when they all agree.
// dec holds the re-scored decision metrics, checked against a
// group-thresholds candidate's record: its rules are what its file adds to
// the base network, and the accuracy alone would not notice rules that
// trade selection between groups. A candidate deciding at one threshold
// has its decisions checked through its accuracy.
func mismatch(rec *records.Record, met fairness.Metrics, dec decided, sel bool) string {
	n, what := rec.NTest, "test"
	want := [10]float64{rec.Risk, rec.Accuracy, rec.ATO, rec.DP, rec.EO, rec.EOpp}
	rules := dec.rules != nil
	has := rules && rec.Decision != nil
	if has {
		d := rec.Decision
		want[6], want[7], want[8], want[9] = d.DPDiff, d.DPRatio, d.EODiff, d.EOppDiff
	}
	if sel {
		s := rec.Selection
		n, what = s.NSel, "selection"
		want = [10]float64{s.SelRisk, s.SelAccuracy, s.SelATO, s.SelDP, s.SelEO, s.SelEOpp}
		if has = rules && s.SelDecision != nil; has {
			d := s.SelDecision
			want[6], want[7], want[8], want[9] = d.SelDPDiff, d.SelDPRatio, d.SelEODiff, d.SelEOppDiff
		}
	}
	if n > 0 && n != met.N {
		return fmt.Sprintf("%d %s rows re-scored, the record has %d", met.N, what, n)
	}
	for k, m := range []struct {
		name string
		got  float64
		skip bool
	}{
		{"risk", met.Risk, false}, {"accuracy", met.Accuracy, false},
		{"ato", met.ATO, !met.HasATO}, {"dp", met.DP, false},
		{"eo", met.EO, false}, {"eopp", met.EOpp, false},
		{"dp_diff", dec.DPDiff, !has}, {"dp_ratio", dec.DPRatio, !has},
		{"eo_diff", dec.EODiff, !has}, {"eopp_diff", dec.EOppDiff, !has},
	} {
		if !m.skip && !(math.Abs(m.got-want[k]) <= Tolerance*max(1, math.Abs(want[k]))) {
			return fmt.Sprintf("the re-scored %s %s is %.10g, the record has %.10g", what, m.name, m.got, want[k])
		}
	}
	return ""
}

func of(iv bootstrap.Interval) *Interval {
	if math.IsNaN(iv.Lo) || math.IsNaN(iv.Hi) {
		return nil
	}
	return &Interval{iv.Lo, iv.Hi}
}

// CacheFile is the name of the intervals' cache in a run folder's cache
// folder.
const CacheFile = "intervals.json"

// cacheFormat changes whenever what a cached CI means does (6: the
// intervals that cover near 0, with the unbiased estimates and the note on
// small cells as a caution; the rate gaps by Newcombe's intervals; 7: the
// ratio by MOVER-R intervals, the ATO's expanded for few effective rows,
// the gaps' upper ends without the Bonferroni correction; 8: the
// mean-variance indices' intervals moved down by the bootstrap's bias, eo's
// without the Bonferroni correction; 9: eo's bootstrapped as the maximum
// itself; 10: the same intervals, with a caution that names its split).
const cacheFormat = 10

type cacheFile struct {
	Format  int              `json:"format"`
	Entries map[string]entry `json:"entries"`
}

// entry is a cached CI with the estimates its JSON form leaves out.
type entry struct {
	CI        CI                   `json:"ci"`
	Corrected *bootstrap.Corrected `json:"corrected"`
}

// key identifies rec's intervals: the candidate, its configuration, the
// rows, the recorded risk (a retrained candidate has another) and the
// bootstrap's size.
func (f *Folder) key(rec *records.Record) string {
	// "decisions" marks intervals that include the decision metrics, so
	// that those cached before they existed are computed again.
	// A group-thresholds candidate decides with its rules (in its network
	// file, which the key names), not at one threshold.
	t := fmt.Sprintf("t=%g", fairness.ThresholdOr(rec.Threshold))
	if rec.ProbabilityIsBase() {
		t = "t=group-rules"
	}
	return fmt.Sprintf("%s|%s|%s|%s|seed=%d|risk=%s|resamples=%d|level=%g|decisions|%s", rec.Config, rec.DataID, rec.Key(), rec.Weights,
		rec.Seed, strconv.FormatUint(math.Float64bits(rec.Risk), 16), f.resamples, Level, t)
}

// Save stores the intervals computed since Open in the folder's cache,
// with those another process stored meanwhile. The cache is optional: a
// folder that cannot be written keeps none, and Save reports false.
func (f *Folder) Save() bool {
	if !f.added {
		return true
	}
	c := cacheFile{Format: cacheFormat, Entries: map[string]entry{}}
	if b, ok := runfolder.ReadCache(f.dir, CacheFile); ok {
		var old cacheFile
		if json.Unmarshal(b, &old) == nil && old.Format == cacheFormat {
			c.Entries = old.Entries
		}
	}
	for k, v := range f.cache {
		c.Entries[k] = entry{CI: v, Corrected: v.Unbiased}
	}
	b, err := json.Marshal(c)
	if err != nil {
		return false
	}
	ok := runfolder.WriteCache(f.dir, CacheFile, b)
	f.added = !ok
	return ok
}

// decided are the decision metrics of a candidate's re-scored rows; rules
// holds, for a group-thresholds candidate, each row's probability of being
// selected by its rules (nil for a candidate deciding at one threshold).
type decided struct {
	fairness.Decision
	rules []float64
}

// decide computes the decision metrics of rec's re-scored rows pr, of
// groups z (0 … r−1): at the record's threshold, or, for a network with
// group thresholds, with its rules as the run applied them (expected
// rates over their randomisation).
func decide(rec *records.Record, pr *runfolder.Predictions, z []int, r int) (decided, error) {
	gt := pr.Rules
	if gt == nil {
		if rec.ProbabilityIsBase() {
			return decided{}, fmt.Errorf("the record is of a group-thresholds candidate, its network file %s has no group thresholds", rec.Weights)
		}
		dec, err := fairness.DecideLogits(pr.Z, pr.Y, z, fairness.ThresholdOr(rec.Threshold))
		return decided{Decision: dec}, err
	}
	if len(gt.Rules) != r || (pr.Levels != nil && !slices.Equal(gt.Levels, pr.Levels)) {
		return decided{}, fmt.Errorf("the network's group thresholds are for the groups %s, the data has %d groups %s",
			strings.Join(gt.Levels, ", "), r, strings.Join(pr.Levels, ", "))
	}
	d, err := gt.DecideAll(pr.P, z)
	if err != nil {
		return decided{}, err
	}
	dec, err := fairness.DecideRandomized(d, pr.Y, z)
	return decided{Decision: dec, rules: d}, err
}
