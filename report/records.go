package report

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
)

// RecordsFront says what a front figure of records shows.
type RecordsFront struct {
	Metric string           // the unfairness on the y axis: ato, dp, eo or eopp
	By     records.Grouping // one panel per group of records
	// Order ranks the panels (by group name); ties and absent names go by
	// name. Nil sorts by name.
	Order    map[string]int
	FreeAxes bool
	Cols     int  // see FrontOptions
	LogY     bool // log-scaled unfairness axis
	// Zoom leaves out the constant predictors (collapsed candidates) so that
	// the rest of the front fills the figure.
	Zoom bool
	// Note is a line under the title (FrontOptions.Note).
	Note string
	// Decide says which metrics decide the non-dominated candidates
	// (records.Decide; the zero value: the test metrics). The points are
	// drawn at their test metrics whatever decides.
	Decide records.Decide
}

// Panel says what one panel of a front figure shows.
type Panel struct {
	Name         string `json:"name"`
	N            int    `json:"n"`             // candidates
	NonDominated int    `json:"non_dominated"` // distinct non-dominated points
}

// FrontSeries turns records into the series of a front figure: one per
// group of f.By, of (test risk, f.Metric) points, ordered by f.Order. The
// records should be the successful candidates (records.Succeeded); a
// non-finite risk or metric is an error naming the candidate.
func FrontSeries(recs []records.Record, f RecordsFront) ([]Series, error) {
	if !slices.Contains(records.Metrics, f.Metric) {
		return nil, fmt.Errorf("metric %q: want one of %s", f.Metric, strings.Join(records.Metrics, ", "))
	}
	groups := records.Groups(recs, f.By)
	names := slices.SortedFunc(maps.Keys(groups), func(a, b string) int {
		return cmp.Or(cmp.Compare(f.Order[a], f.Order[b]), cmp.Compare(a, b))
	})
	series := make([]Series, 0, len(names))
	for _, name := range names {
		s := Series{Name: name}
		for i := range groups[name] {
			r := &groups[name][i]
			if !r.InPlane(records.AxisRisk, f.Metric) {
				continue // no point in a (risk, ·) plane
			}
			dr, du, sr, su, err := f.Decide.Point(r, f.Metric) // the metric is checked above
			if err != nil {
				return nil, err
			}
			if !finite(sr) || !finite(su) || !finite(dr) || !finite(du) {
				return nil, fmt.Errorf("candidate %s (config %s): risk %v, %s %v: want finite numbers", r.Key(), r.Config, sr, f.Metric, su)
			}
			s.Points = append(s.Points, pareto.Point{X: sr, Y: su})
			if f.Decide.Selects() {
				s.Decide = append(s.Decide, pareto.Point{X: dr, Y: du})
			}
			var fl Flag
			if r.Collapsed {
				fl |= Collapsed
			}
			if r.SingleClass {
				fl |= SingleClass
			}
			if r.NoBetterThanConstant() {
				fl |= NoBetter
			}
			s.Flags = append(s.Flags, fl)
		}
		series = append(series, s)
	}
	return series, nil
}

// SaveRecordsFront draws the front figure of recs (see FrontSeries) to out,
// titled with their dataset and the metric, and says what each panel shows.
func SaveRecordsFront(out string, recs []records.Record, f RecordsFront) ([]Panel, error) {
	if f.Zoom {
		kept := recs[:0:0]
		for i := range recs {
			if !recs[i].Collapsed {
				kept = append(kept, recs[i])
			}
		}
		if len(kept) == 0 {
			return nil, errors.New("zoom leaves nothing: every candidate is a constant predictor")
		}
		recs = kept
	}
	series, err := FrontSeries(recs, f)
	if err != nil {
		return nil, err
	}
	panels := make([]Panel, len(series))
	for i, n := range NonDominated(series, 0) {
		panels[i] = Panel{Name: series[i].Name, N: len(series[i].Points), NonDominated: n}
	}
	title := MetricLabel(f.Metric) + " against test risk"
	if d := DatasetLabel(recs); d != "" {
		title = d + ": " + title
	}
	if f.Zoom {
		title += " (constant predictors left out)"
	}
	if f.Decide.Selects() {
		title += "; front " + f.Decide.Note()
	}
	opt := FrontOptions{Title: title, Note: f.Note, YLabel: MetricLabel(f.Metric), FreeAxes: f.FreeAxes, Cols: f.Cols, LogY: f.LogY}
	if err := SaveFront(out, series, opt); err != nil {
		return nil, err
	}
	return panels, nil
}

// MetricLabel is a metric's name as figures print it (records.MetricLabel).
func MetricLabel(m string) string { return records.MetricLabel(m) }

// DatasetLabel names the dataset (and sensitive attribute) of recs, or ""
// when they come from several (records.ByData).
func DatasetLabel(recs []records.Record) string {
	g := records.ByData(recs)
	if len(g) != 1 {
		return ""
	}
	return g[0].Label
}

// LambdaLabel writes λ as figure headings do, with three significant digits.
func LambdaLabel(l float64) string { return strconv.FormatFloat(l, 'g', 3, 64) }

// SpreadLambdas picks the λ values of a distribution figure among the
// sorted values present: all of them when there are at most four, else the
// smallest, the largest, and the two closest to 1/3 and 2/3 of the way
// between the smallest positive value and the largest on a log scale (λ = 0
// has no logarithm, and the grids put their values evenly on a log scale).
func SpreadLambdas(present []float64) []float64 {
	n := len(present)
	if n <= 4 {
		return slices.Clone(present)
	}
	lo := present[0]
	if lo <= 0 {
		lo = present[1]
	}
	hi := present[n-1]
	chosen := []float64{present[0], hi}
	for _, f := range []float64{1.0 / 3, 2.0 / 3} {
		target := math.Log(lo) + f*(math.Log(hi)-math.Log(lo))
		best, bestD := math.NaN(), math.Inf(1)
		for _, l := range present[1 : n-1] {
			if l <= 0 || slices.Contains(chosen, l) {
				continue
			}
			if d := math.Abs(math.Log(l) - target); d < bestD {
				best, bestD = l, d
			}
		}
		if !math.IsNaN(best) {
			chosen = append(chosen, best)
		}
	}
	slices.Sort(chosen)
	return chosen
}

// PickLambdas parses a comma-separated list of λ values and matches each to
// a value present: equal to within rounding, or written the same by
// LambdaLabel. Repeated values are kept once, in the order given.
func PickLambdas(list string, present []float64) ([]float64, error) {
	var out []float64
	for f := range strings.SplitSeq(list, ",") {
		f = strings.TrimSpace(f)
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || !finite(v) {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		match := math.NaN()
		for _, l := range present {
			if math.Abs(l-v) <= 1e-9*math.Abs(l) || LambdaLabel(l) == LambdaLabel(v) {
				match = l
				break
			}
		}
		if math.IsNaN(match) {
			have := make([]string, len(present))
			for i, l := range present {
				have[i] = LambdaLabel(l)
			}
			return nil, fmt.Errorf("λ = %s has no candidate; have %s", f, strings.Join(have, ", "))
		}
		if !slices.Contains(out, match) {
			out = append(out, match)
		}
	}
	return out, nil
}
