package htmlreport

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fpareto/fp/choose"
	"github.com/fpareto/fp/internal/shellword"
	"github.com/fpareto/fp/intervals"
	"github.com/fpareto/fp/records"
)

// FrontSummary is what the page says of one front drawn (one dataset, one
// metric): whether its points can be told apart, and which network fp
// pick would return from it.
type FrontSummary struct {
	// Dataset names the front's dataset on a page of several, "" on a
	// page of one; Metric is the metric's label.
	Dataset string
	Metric  string
	// Points is the number of points drawn on the front.
	Points int
	// Distinct says how many of them can be told apart from their
	// neighbours (intervals.Distinguishability.Summary) and How what the
	// claim rests on; NotTested, when the test was not made, why.
	Distinct        string
	How             string
	NotTested       string
	Distinguishable int // points distinguishable from a neighbour
	Untested        int // pairs of neighbours that could not be tested
	// Pick names the network fp pick would return from the front (""
	// when it returns none), PickNote how it was chosen or why there is
	// none, and Command the fp pick command.
	Pick     string
	PickNote string
	Command  string
}

// noPick begins the note of a front from which fp pick returns none.
const noPick = "it returns none: "

// label is the front's metric label, after its dataset's when the page
// shows several.
func (f FrontSummary) label() string {
	if f.Dataset != "" {
		return f.Dataset + ", " + f.Metric
	}
	return f.Metric
}

// Line is the front's entry in the key: its name and how many of its
// points are distinguishable from a neighbour, e.g. "ATO: none of 11",
// "DP: 3 of 5"; the key says once what that means.
func (f FrontSummary) Line() string {
	name := f.label()
	switch {
	case f.Points == 1:
		return name + ": 1 point"
	case f.Distinct == "" || f.Untested == f.Points-1:
		return fmt.Sprintf("%s: %d points, untested", name, f.Points)
	case f.Distinguishable == 0:
		return fmt.Sprintf("%s: none of %d", name, f.Points)
	}
	return fmt.Sprintf("%s: %d of %d", name, f.Distinguishable, f.Points)
}

// frontSummaries tests every front drawn and marks, on each, the candidate
// fp pick would return by opt.Rule (the knee when none is given), both
// decided on the rows decide names. Notes of what could not be tested are
// added to the page's warnings.
func frontSummaries(p *Page, sources []*source, decide records.Decide, opt Options) []FrontSummary {
	rule, flags := opt.Rule, opt.RuleFlags
	if rule.Kind == 0 {
		rule, flags = choose.Rule{Kind: choose.Knee}, "--knee"
	}
	p.Data.PickFlags = flags
	// Every successful candidate as fp pick reads it, with its page id.
	var cands []choose.Candidate
	var ids []int
	for _, src := range sources {
		for k := range src.recs {
			r := src.recs[k]
			w := ""
			if r.Weights != "" {
				w = filepath.Join(src.dir, r.Weights)
			}
			cands = append(cands, choose.Candidate{Record: r, Dir: src.dir, Weights: w})
			ids = append(ids, src.ids[k])
		}
	}
	var t *intervals.Distinguisher
	if opt.CIResamples > 0 {
		t, _ = intervals.NewDistinguisher(decide, opt.CIResamples)
		for _, src := range sources {
			t.Use(src.dir, src.pred)
		}
	}
	var out []FrontSummary
	for d, label := range p.Data.Datasets {
		// fp pick reads the runs of one dataset, and only candidates with
		// a network.
		var runs []string
		for _, r := range p.Runs {
			if r.Dataset == label {
				runs = append(runs, shellword.Quote(r.Path))
			}
		}
		var pool []choose.Candidate
		var poolIDs []int
		var poolRecs []records.Record // for the note when a plane holds none of them
		for i := range cands {
			if p.Data.Candidates[ids[i]].Dataset == d && cands[i].Weights != "" {
				pool, poolIDs = append(pool, cands[i]), append(poolIDs, ids[i])
				poolRecs = append(poolRecs, cands[i].Record)
			}
		}
		for mi, metric := range p.Data.Metrics {
			f := FrontSummary{Metric: metricNames[metric]}
			if len(p.Data.Datasets) > 1 {
				f.Dataset = label
			}
			var front []choose.Candidate
			for i := range cands {
				if c := &p.Data.Candidates[ids[i]]; c.Dataset == d && slices.Contains(c.Front, mi) {
					front = append(front, cands[i])
				}
			}
			f.Points = len(front)
			switch {
			case t == nil:
				f.NotTested = "untested: no intervals (--ci-resamples 0)"
			default:
				dist, err := t.Distinguish(front, records.AxisRisk, metric)
				if err != nil {
					f.NotTested = "not tested: " + err.Error()
					break
				}
				f.Distinct, f.How, f.Distinguishable, f.Untested = dist.Summary(), dist.How(), dist.Distinguishable, dist.Untested
			}
			if rule.Kind == choose.MinRatio && metric != records.MetricDPRatio {
				out = append(out, f) // a requirement on dp_ratio marks its own front only
				continue
			}
			args := append([]string{"fp", "pick"}, runs...)
			args = append(args, flags)
			if rule.Kind != choose.MinRatio {
				args = append(args, "--metric", metric)
			}
			if opt.Decide != "" {
				args = append(args, "--decide-on", opt.Decide)
			}
			f.Command = strings.Join(args, " ")
			// fp pick draws its candidates from the plane (risk, metric):
			// not the group-thresholds ones (candidate.OnPlane).
			var plane []choose.Candidate
			var planeIDs []int
			for i := range pool {
				if pool[i].Record.InPlane(records.AxisRisk, metric) {
					plane, planeIDs = append(plane, pool[i]), append(planeIDs, poolIDs[i])
				}
			}
			if len(plane) == 0 {
				f.PickNote = noPick + choose.NoCandidates(poolRecs, strings.Join(runs, ", "), records.AxisRisk, metric).Error()
				out = append(out, f)
				continue
			}
			picked, err := choose.Pick(plane, metric, rule, choose.Options{Decide: decide})
			var pe *choose.PickError
			var left *choose.LeftOutError
			switch {
			case errors.As(err, &pe) || errors.As(err, &left):
				f.PickNote = noPick + err.Error()
			case err != nil:
				f.PickNote = err.Error()
			default:
				key := records.CandidateKey(picked.Method, picked.Penalty, picked.Split, picked.Lambda)
				for i := range plane {
					if plane[i].Dir == picked.Run && plane[i].Weights == picked.Weights && plane[i].Record.Key() == key {
						c := &p.Data.Candidates[planeIDs[i]]
						c.Pick = append(c.Pick, mi)
						f.Pick = fmt.Sprintf("%s, split %d, %s", p.Data.Groups[c.Group].Label, c.Split, lambdaText(c))
					}
				}
				f.PickNote = picked.Note
			}
			out = append(out, f)
		}
	}
	if t != nil {
		for _, n := range t.Notes() {
			if !slices.Contains(p.Warnings, n) {
				p.Warnings = append(p.Warnings, n)
			}
		}
	}
	return out
}

// lambdaText writes a candidate's weight as the page does: "λ = 0.1", or
// "β = 0.1" for the adversarial baseline.
func lambdaText(c *Candidate) string {
	sym := c.Symbol
	if sym == "" {
		sym = "λ"
	}
	return fmt.Sprintf("%s = %.4g", sym, float64(c.Lambda))
}

// PickFlags are the flags of the requirement whose picks the page marks,
// as fp pick takes them.
func (p *Page) PickFlags() string { return p.Data.PickFlags }

// KneeFallback lists the fronts (their metric labels) on which no point
// stands out as the knee and the marked one is the best balanced; nil when
// there is none.
func (p *Page) KneeFallback() []string {
	var out []string
	for _, f := range p.Fronts {
		if f.PickNote == choose.KneeNote {
			out = append(out, f.label())
		}
	}
	return out
}

// Picked reports whether fp pick returns a network from some front the
// page marks.
func (p *Page) Picked() bool {
	return slices.ContainsFunc(p.Fronts, func(f FrontSummary) bool { return f.Pick != "" })
}

// Unpicked lists the fronts (their labels) from which fp pick, given the
// page's requirement, returns none; the fronts a requirement on dp_ratio
// does not read are not among them.
func (p *Page) Unpicked() []string {
	var out []string
	for _, f := range p.Fronts {
		if f.Pick == "" && f.Command != "" {
			out = append(out, f.label())
		}
	}
	return out
}

// NoPickNote is why fp pick returns none from the first front it reads,
// after that front's name, when it returns none from every one ("" when
// it returns one from some front).
func (p *Page) NoPickNote() string {
	if p.Picked() {
		return ""
	}
	for _, f := range p.Fronts {
		if f.Command != "" {
			return fmt.Sprintf("on %s: %s", f.label(), strings.TrimPrefix(f.PickNote, noPick))
		}
	}
	return ""
}

// NoneDistinct reports whether no front of two points or more has a point
// that can be told apart from its neighbours, where they were tested.
func (p *Page) NoneDistinct() bool {
	tested := false
	for _, f := range p.Fronts {
		if f.Distinct == "" || f.Points < 2 {
			continue
		}
		if f.Distinguishable > 0 {
			return false
		}
		tested = true
	}
	return tested
}

// FrontsTested reports whether some front was tested; when none was,
// FrontsNotTested says why.
func (p *Page) FrontsTested() bool {
	return slices.ContainsFunc(p.Fronts, func(f FrontSummary) bool { return f.Distinct != "" })
}

// FrontsNotTested is why no front was tested ("" when one was).
func (p *Page) FrontsNotTested() string {
	if p.FrontsTested() || len(p.Fronts) == 0 {
		return ""
	}
	return p.Fronts[0].NotTested
}
