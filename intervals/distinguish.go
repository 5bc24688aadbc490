package intervals

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/fpareto/fp/candidate"
	"github.com/fpareto/fp/fairness/bootstrap"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// Distinguishability says, for one front, how many of its points can be
// told apart from their neighbours (docs/method.md §8.8): the points sorted
// by the x axis, each consecutive two tested in both axes at Level.
// Neighbours of one run folder and split were measured on the same rows,
// and their difference is bootstrapped in pairs; other neighbours are
// distinguishable when their two intervals do not overlap.
type Distinguishability struct {
	// Rows names the rows tested: "selection" when the front was decided
	// on the selection rows, "test" otherwise.
	Rows string `json:"rows"`
	// Dataset names the front's dataset (records.ByData's label).
	Dataset string `json:"dataset"`
	// Axis ("risk" or "error") and Metric are the front's two axes.
	Axis   string  `json:"axis"`
	Metric string  `json:"metric"`
	Level  float64 `json:"level"`
	// Resamples is the number of bootstrap resamples of each test.
	Resamples int `json:"resamples"`
	// Points is the number of points; Distinguishable how many differ
	// significantly from at least one neighbour.
	Points          int `json:"points"`
	Distinguishable int `json:"distinguishable"`
	// Untested counts the pairs of neighbours tested in neither axis (no
	// interval could be given; their Note says why).
	Untested int `json:"untested"`
	// Front lists the points by increasing x; Pairs each point with the
	// next.
	Front []Ref  `json:"front"`
	Pairs []Pair `json:"pairs"`
}

// Ref names a point of a front.
type Ref struct {
	Run     string  `json:"run"`
	Method  string  `json:"method"`
	Penalty string  `json:"penalty"`
	Split   int     `json:"split"`
	Lambda  float64 `json:"lambda"`
}

// Pair is the test of two neighbours, A and B (positions in Front, B the
// one of larger x).
type Pair struct {
	A int `json:"a"`
	B int `json:"b"`
	// Paired is true when both were measured on the same rows (one run
	// folder, one split) and their differences were bootstrapped in pairs.
	Paired bool `json:"paired"`
	// Axes holds the test in the x axis, then in the metric.
	Axes            []AxisTest `json:"axes"`
	Distinguishable bool       `json:"distinguishable"`
	// Note says why an axis could not be tested ("" when both were).
	Note string `json:"note,omitempty"`
}

// AxisTest is the test of a pair in one axis.
type AxisTest struct {
	Name string `json:"name"` // "risk", "error" or the metric
	// Diff is the interval of B's value minus A's (a paired test).
	Diff *Interval `json:"diff,omitempty"`
	// IntervalA and IntervalB are the two points' own intervals (a test
	// by intervals).
	IntervalA *Interval `json:"interval_a,omitempty"`
	IntervalB *Interval `json:"interval_b,omitempty"`
	// Tested is false when an interval is missing; Distinct says that the
	// two values differ at Level.
	Tested   bool `json:"tested"`
	Distinct bool `json:"distinct"`
}

// Summary is the claim in a few words, e.g. "11 points; none
// distinguishable from its neighbours".
func (d *Distinguishability) Summary() string {
	switch {
	case d.Points == 0:
		return "no points"
	case d.Points == 1:
		return "1 point; no neighbour to tell it from"
	case d.Untested == len(d.Pairs):
		return fmt.Sprintf("%d points; whether they can be told apart from their neighbours is not known: no interval could be given", d.Points)
	case d.Distinguishable == 0 && d.Untested > 0:
		// Not a finding about the pairs that could not be tested.
		return fmt.Sprintf("%d points; none distinguishable from its neighbours in the %d of %d pairs tested", d.Points, len(d.Pairs)-d.Untested, len(d.Pairs))
	case d.Distinguishable == 0:
		return fmt.Sprintf("%d points; none distinguishable from its neighbours", d.Points)
	case d.Distinguishable == d.Points:
		return fmt.Sprintf("%d points; each distinguishable from a neighbour", d.Points)
	}
	return fmt.Sprintf("%d points; %d distinguishable from a neighbour", d.Points, d.Distinguishable)
}

// How says what the claim rests on: the axes, the level, the rows and the
// tests, e.g. "in risk or ato at 95% on the test rows: 3 pairs of
// neighbours of one split by a paired bootstrap of their difference, 7 by
// their two intervals".
func (d *Distinguishability) How() string {
	if len(d.Pairs) == 0 || d.Untested == len(d.Pairs) {
		return ""
	}
	paired := 0
	for _, p := range d.Pairs {
		if p.Paired {
			paired++
		}
	}
	var tests []string
	if paired > 0 {
		tests = append(tests, fmt.Sprintf("%s of one split by a paired bootstrap of their difference", count(paired, "pair", "pairs")))
	}
	if n := len(d.Pairs) - paired; n > 0 {
		if paired > 0 {
			tests = append(tests, fmt.Sprintf("%d by their two intervals", n))
		} else {
			tests = append(tests, fmt.Sprintf("%s by their two intervals", count(n, "pair", "pairs")))
		}
	}
	s := fmt.Sprintf("in %s or %s at %g%% on the %s rows: %s", d.Axis, records.MetricHeading(d.Metric), 100*d.Level, d.Rows,
		strings.Join(tests, ", "))
	if d.Untested > 0 {
		s += fmt.Sprintf("; %d of the %d pairs could not be tested", d.Untested, len(d.Pairs))
	}
	return s
}

// String is Summary with How in brackets.
func (d *Distinguishability) String() string {
	if h := d.How(); h != "" {
		return d.Summary() + " (" + h + ")"
	}
	return d.Summary()
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Distinguisher tests the fronts of the candidates of run folders, keeping
// what it computed (re-scored rows, intervals, paired differences), so
// that the fronts of several metrics over the same candidates share the
// work. It is not safe for concurrent use.
type Distinguisher struct {
	decide    records.Decide
	resamples int
	sources   map[string]*runfolder.PredictionSource
	folders   map[string]*Folder
	samples   map[string]*rowSample
	cis       map[string]*CI
	diffs     map[[2]string]*difference
	notes     []string
}

// rowSample is a candidate's rows on the deciding rows, or why there are
// none.
type rowSample struct {
	s       *bootstrap.Sample
	note    string // why the ATO is missing
	refusal string
}

// difference is a pair's paired bootstrap, or why there is none.
type difference struct {
	iv      bootstrap.Intervals
	note    string // why the fairness differences are missing
	refusal string
}

// NewDistinguisher tests fronts decided on the rows d names, with
// resamples bootstrap resamples per test (≥ 2).
func NewDistinguisher(d records.Decide, resamples int) (*Distinguisher, error) {
	if resamples < 2 {
		return nil, fmt.Errorf("intervals: %d resamples, want at least 2", resamples)
	}
	return &Distinguisher{decide: d, resamples: resamples, sources: map[string]*runfolder.PredictionSource{},
		folders: map[string]*Folder{}, samples: map[string]*rowSample{}, cis: map[string]*CI{},
		diffs: map[[2]string]*difference{}}, nil
}

// Use gives the prediction source of run folder dir, loaded already, so
// that its data is not loaded again.
func (t *Distinguisher) Use(dir string, src *runfolder.PredictionSource) {
	if src != nil {
		t.sources[dir] = src
	}
}

// Notes are the distinct reasons why a test could not be made, one line
// each.
func (t *Distinguisher) Notes() []string { return t.notes }

func (t *Distinguisher) note(n string) {
	if n != "" && !slices.Contains(t.notes, n) {
		t.notes = append(t.notes, n)
	}
}

// Distinguish tests one front: the non-dominated candidates of one
// dataset in (axis, metric), axis records.AxisRisk or records.AxisError,
// decided on the rows d names; see Distinguisher.
func Distinguish(front []candidate.Candidate, axis, metric string, d records.Decide, resamples int) (*Distinguishability, []string, error) {
	t, err := NewDistinguisher(d, resamples)
	if err != nil {
		return nil, nil, err
	}
	out, err := t.Distinguish(front, axis, metric)
	return out, t.Notes(), err
}

// id identifies a candidate among those of every folder.
func id(k *candidate.Candidate) string {
	return k.Dir + "\x00" + k.Record.Key() + "\x00" + k.Record.Weights
}

// Distinguish tests one front: the non-dominated candidates of one dataset in
// (axis, metric), in any order.
func (t *Distinguisher) Distinguish(front []candidate.Candidate, axis, metric string) (*Distinguishability, error) {
	if !slices.Contains(records.Metrics, metric) {
		return nil, fmt.Errorf("metric %q: want one of %s", metric, strings.Join(records.Metrics, ", "))
	}
	if !slices.Contains(records.Axes, axis) {
		return nil, fmt.Errorf("axis %q: want one of %s", axis, strings.Join(records.Axes, ", "))
	}
	sel := t.decide.Selects()
	out := &Distinguishability{Rows: rowsName(sel), Axis: axis, Metric: metric,
		Level: Level, Resamples: t.resamples, Points: len(front), Front: []Ref{}, Pairs: []Pair{}}
	// By the x axis on the deciding rows, as the front is drawn; ties
	// (exact duplicates) by the metric.
	type point struct {
		k    *candidate.Candidate
		x, y float64
	}
	pts := make([]point, len(front))
	for i := range front {
		x, _, err := t.decide.Value(&front[i].Record, axis)
		if err != nil {
			return nil, err
		}
		y, _, err := t.decide.Value(&front[i].Record, metric)
		if err != nil {
			return nil, err
		}
		pts[i] = point{&front[i], x, y}
	}
	slices.SortStableFunc(pts, func(a, b point) int { return cmp.Or(cmp.Compare(a.x, b.x), cmp.Compare(a.y, b.y)) })
	recs := make([]records.Record, len(front))
	for i := range front {
		recs[i] = front[i].Record
	}
	if g := records.ByData(recs); len(g) > 0 {
		out.Dataset = g[0].Label
	}
	for _, p := range pts {
		r := &p.k.Record
		out.Front = append(out.Front, Ref{Run: p.k.Dir, Method: r.Method, Penalty: r.Penalty, Split: r.Split, Lambda: r.Lambda})
	}
	var paired [][2]*candidate.Candidate
	var single []*candidate.Candidate
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1].k, pts[i].k
		if samerows(a, b) {
			paired = append(paired, [2]*candidate.Candidate{a, b})
		} else {
			single = append(single, a, b)
		}
	}
	t.compute(paired, single)
	near := make([]bool, len(pts)) // distinguishable from a neighbour
	for i := 1; i < len(pts); i++ {
		p := t.pair(pts[i-1].k, pts[i].k, axis, metric)
		p.A, p.B = i-1, i
		if p.Distinguishable {
			near[i-1], near[i] = true, true
		}
		if !slices.ContainsFunc(p.Axes, func(a AxisTest) bool { return a.Tested }) {
			out.Untested++
		}
		out.Pairs = append(out.Pairs, p)
	}
	for _, n := range near {
		if n {
			out.Distinguishable++
		}
	}
	return out, nil
}

// samerows reports whether two candidates were measured on the same rows:
// those of one split of one run folder.
func samerows(a, b *candidate.Candidate) bool {
	return a.Dir == b.Dir && a.Record.Split == b.Record.Split
}

// pair tests neighbours a and b in the x axis and the metric from what
// compute left.
func (t *Distinguisher) pair(a, b *candidate.Candidate, axis, metric string) Pair {
	p := Pair{Paired: samerows(a, b)}
	var why []string
	for _, name := range []string{axis, metric} {
		at := AxisTest{Name: name}
		if p.Paired {
			d := t.diffs[[2]string{id(a), id(b)}]
			if d.refusal == "" {
				at.Diff = diffOf(&d.iv, name)
			}
			if at.Diff != nil {
				at.Tested, at.Distinct = true, at.Diff[0] > 0 || at.Diff[1] < 0
			} else {
				why = append(why, cmp.Or(d.refusal, d.note))
			}
		} else {
			ca, cb := t.cis[id(a)], t.cis[id(b)]
			at.IntervalA, at.IntervalB = valueOf(ca, name), valueOf(cb, name)
			if at.IntervalA != nil && at.IntervalB != nil {
				at.Tested = true
				at.Distinct = at.IntervalA[1] < at.IntervalB[0] || at.IntervalB[1] < at.IntervalA[0]
			} else {
				why = append(why, ca.Note, cb.Note)
			}
		}
		p.Distinguishable = p.Distinguishable || at.Distinct
		p.Axes = append(p.Axes, at)
	}
	var notes []string
	for _, w := range why {
		if w != "" && !slices.Contains(notes, w) {
			notes = append(notes, w)
		}
	}
	p.Note = strings.Join(notes, "; ")
	return p
}

// valueOf is c's interval of name ("risk", "error" or a metric); nil
// when there is none.
func valueOf(c *CI, name string) *Interval {
	if name == records.AxisError {
		if c == nil || c.Accuracy == nil {
			return nil
		}
		return &Interval{1 - c.Accuracy[1], 1 - c.Accuracy[0]}
	}
	return c.Metric(name)
}

// diffOf is the interval of the difference of name in iv, a paired
// bootstrap's differences, oriented as the front minimises it: the error
// as 1 − accuracy, dp-ratio as 1 − dp_ratio. nil when there is none.
func diffOf(iv *bootstrap.Intervals, name string) *Interval {
	neg := func(v bootstrap.Interval) *Interval {
		if r := of(v); r != nil {
			return &Interval{-r[1], -r[0]}
		}
		return nil
	}
	switch name {
	case records.AxisRisk:
		return of(iv.Risk)
	case records.AxisError:
		return neg(iv.Accuracy)
	case records.MetricATO:
		if !iv.HasATO {
			return nil
		}
		return of(iv.ATO)
	case records.MetricDP:
		return of(iv.DP)
	case records.MetricEO:
		return of(iv.EO)
	case records.MetricEOpp:
		return of(iv.EOpp)
	case records.MetricDPDiff:
		return of(iv.DPDiff)
	case records.MetricDPRatio:
		return neg(iv.DPRatio)
	case records.MetricEODiff:
		return of(iv.EODiff)
	case records.MetricEOppDiff:
		return of(iv.EOppDiff)
	}
	return nil
}

// folder returns the intervals of run folder dir, opened once.
func (t *Distinguisher) folder(dir string) *Folder {
	f, ok := t.folders[dir]
	if !ok {
		// Open fails only on the number of resamples, checked already.
		f, _ = Open(dir, t.sources[dir], t.resamples)
		t.folders[dir] = f
	}
	return f
}

// who names a candidate in messages, as the intervals do.
func who(k *candidate.Candidate) string {
	return fmt.Sprintf("%s split %d λ = %g in %s", k.Record.Method, k.Record.Split, k.Record.Lambda, k.Dir)
}

// rows returns k's sample on the deciding rows, re-scored once.
func (t *Distinguisher) rows(k *candidate.Candidate) *rowSample {
	key := id(k)
	if s, ok := t.samples[key]; ok {
		return s
	}
	s := &rowSample{}
	sample, c, ok := t.folder(k.Dir).sample(&k.Record, t.decide.Selects())
	if ok {
		s.s, s.note = sample, c.Note
	} else {
		s.refusal = c.Note
	}
	t.note(s.refusal)
	t.samples[key] = s
	return s
}

// compute gives every pair of paired its paired differences and every
// candidate of single its intervals on the deciding rows, bootstrapping
// on as many cores as Go may use.
func (t *Distinguisher) compute(paired [][2]*candidate.Candidate, single []*candidate.Candidate) {
	sel := t.decide.Selects()
	// Each job writes only what it was made for.
	var jobs []func()
	// The test rows' intervals are those shown beside the points, cached
	// in the folder; the selection rows' are computed here.
	if !sel {
		byDir := map[string][]*candidate.Candidate{}
		var dirs []string
		for _, k := range single {
			if _, ok := t.cis[id(k)]; ok || slices.Contains(byDir[k.Dir], k) {
				continue
			}
			if _, ok := byDir[k.Dir]; !ok {
				dirs = append(dirs, k.Dir)
			}
			byDir[k.Dir] = append(byDir[k.Dir], k)
		}
		for _, dir := range dirs {
			f := t.folder(dir)
			recs := make([]*records.Record, len(byDir[dir]))
			for i, k := range byDir[dir] {
				recs[i] = &k.Record
			}
			for i, c := range f.ForAll(recs) {
				t.cis[id(byDir[dir][i])] = &c
			}
			f.Save()
		}
	} else {
		for _, k := range single {
			key := id(k)
			if _, ok := t.cis[key]; ok {
				continue
			}
			s := t.rows(k)
			if s.s == nil {
				t.cis[key] = &CI{Note: s.refusal}
				continue
			}
			ci := &CI{} // the job fills it
			t.cis[key] = ci
			f, rec := t.folder(k.Dir), &k.Record
			rng := runfolder.NewRand(rec.Seed, "bootstrap selection", rec.Split, rec.Method, rec.Lambda)
			jobs = append(jobs, func() { *ci = f.bootstrap(rec, s.s, rng, s.note) })
		}
	}
	for _, p := range paired {
		key := [2]string{id(p[0]), id(p[1])}
		if _, ok := t.diffs[key]; ok {
			continue
		}
		sa, sb := t.rows(p[0]), t.rows(p[1])
		// A sample without a propensity has no ATO: its note says why.
		d := &difference{refusal: cmp.Or(sa.refusal, sb.refusal), note: cmp.Or(sa.note, sb.note)}
		t.diffs[key] = d
		if d.refusal != "" {
			continue
		}
		a, b := &p[0].Record, &p[1].Record
		// Seeded by both candidates, so that a pair's test does not depend
		// on which other pairs are tested.
		rng := runfolder.NewRand(a.Seed, "paired "+rowsName(sel)+" rows", a.Split, a.Key()+"|"+b.Key(), 0)
		jobs = append(jobs, func() { t.differ(d, sa, sb, rng, p) })
	}
	run(jobs)
	for _, k := range single {
		t.note(t.cis[id(k)].Note)
	}
	for _, p := range paired {
		d := t.diffs[[2]string{id(p[0]), id(p[1])}]
		t.note(d.refusal)
		t.note(d.note)
	}
}

// differ bootstraps the paired differences of p into d.
func (t *Distinguisher) differ(d *difference, sa, sb *rowSample, rng *rand.Rand, p [2]*candidate.Candidate) {
	iv, err := bootstrap.Differences(sa.s, sb.s, t.resamples, Level, rng)
	if err == nil && iv.HasATO {
		d.note = ""
	}
	if err != nil {
		// A group too small for the fairness differences (the risk and
		// accuracy ones are given), or rows that are not the same.
		d.note = fmt.Sprintf("no paired test of the fairness of %s against %s: %v", who(p[0]), who(p[1]), err)
		if iv.Resamples == 0 {
			d.refusal, d.note = d.note, ""
		}
	}
	d.iv = iv
}

// run runs jobs on as many cores as Go may use; each has its own
// generator, so the order in which they run changes nothing.
func run(jobs []func()) {
	var wg sync.WaitGroup
	next := make(chan func())
	for range min(runtime.GOMAXPROCS(0), len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				j()
			}
		}()
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
}

// Fronts splits front, the non-dominated candidates of several datasets as
// FrontCandidatesOn lists them, into the fronts of each dataset, in order.
func Fronts(front []candidate.Candidate) [][]candidate.Candidate {
	var out [][]candidate.Candidate
	for _, g := range byData(front) {
		f := make([]candidate.Candidate, len(g))
		for k, i := range g {
			f[k] = front[i]
		}
		out = append(out, f)
	}
	return out
}

// byData groups the indices of cands by dataset (records.SameData), in
// order of appearance.
func byData(cands []candidate.Candidate) [][]int {
	var groups [][]int
	for i := range cands {
		g := slices.IndexFunc(groups, func(g []int) bool { return records.SameData(&cands[g[0]].Record, &cands[i].Record) })
		if g < 0 {
			groups = append(groups, []int{i})
		} else {
			groups[g] = append(groups[g], i)
		}
	}
	return groups
}

// rowsName names the rows a front was decided on: "selection" or "test".
func rowsName(selection bool) string {
	if selection {
		return string(records.DecideSelection)
	}
	return string(records.DecideTest)
}
