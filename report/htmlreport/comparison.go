package htmlreport

import (
	"github.com/fpareto/fp/internal/shellword"

	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/fpareto/fp/compare"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// Significance is the level below which a paired comparison's p-value is
// called significant.
const Significance = 0.05

// Comparison is fp compare's comparison of the runs of one dataset, with
// its default grouping: one group per run, named as fp compare names it.
type Comparison struct {
	Dataset   string
	Tolerance float64
	Reference [2]float64
	Metrics   []MetricComparison
}

// MetricComparison is the comparison on one unfairness metric.
type MetricComparison struct {
	Metric string // as printed, e.g. "ATO"
	Pooled []compare.Pooled
	// Groups head the columns of Splits.
	Groups []string
	Splits []SplitHypervolumes
	Paired []Paired
}

// SplitHypervolumes are the groups' hypervolumes on one split, in the
// order of MetricComparison.Groups; NaN where a group has no candidate on
// the split.
type SplitHypervolumes struct {
	Split       int
	Hypervolume []float64
}

// Paired is one paired comparison of two groups over their common splits.
type Paired struct {
	compare.PairedRow
	// Significant is p < Significance.
	Significant bool
	// MinSplits is how many splits the test needs before any difference
	// can be significant; more than Splits means the verdict says nothing.
	MinSplits int
}

// minSplitsSignificant is the fewest paired splits with which the exact
// two-sided Wilcoxon signed-rank test can give p < Significance: its
// smallest p-value is 2/2^n.
func minSplitsSignificant() int {
	n := 1
	for 2/math.Pow(2, float64(n)) >= Significance {
		n++
	}
	return n
}

// labeller names each record's group as fp compare names it by default.
type labeller map[string]string

func recordID(r *records.Record) string { return r.Source + "\x00" + r.Config + "\x00" + r.Key() }

// runLabels names the group of every successful record of every dataset,
// as fp compare does when given the same paths (one dataset at a time).
func runLabels(data []records.DataGroup) labeller {
	l := labeller{}
	for _, d := range data {
		recs, _ := records.Succeeded(d.Records)
		for name, g := range records.Groups(recs, records.Grouping{records.DefaultGrouping}) {
			for i := range g {
				l[recordID(&g[i])] = name
			}
		}
	}
	return l
}

// of is r's group; a failed record is named by its method and penalty.
func (l labeller) of(r *records.Record) string {
	if name, ok := l[recordID(r)]; ok {
		return name
	}
	return records.Grouping{records.DefaultGrouping}.Key(r)
}

// comparisons runs fp compare's comparison on each dataset's records.
func comparisons(data []records.DataGroup, resamples int, decide records.Decide) ([]Comparison, error) {
	var out []Comparison
	var errs []string
	for _, d := range data {
		recs, _ := records.Succeeded(d.Records)
		if len(recs) == 0 {
			continue
		}
		res, err := compare.Run(recs, compare.Options{Resamples: resamples, Decide: decide})
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		c := Comparison{Dataset: d.Label, Tolerance: res.Tolerance, Reference: res.Reference}
		for _, metric := range records.MetricsOf(recs) {
			mc := MetricComparison{Metric: metricNames[metric]}
			for _, r := range res.Pooled {
				if r.Metric == metric {
					mc.Pooled = append(mc.Pooled, r)
					mc.Groups = append(mc.Groups, r.Group)
				}
			}
			var splits []int
			for _, h := range res.PerSplit {
				if h.Metric == metric && !slices.Contains(splits, h.Split) {
					splits = append(splits, h.Split)
				}
			}
			slices.Sort(splits)
			for _, m := range splits {
				row := SplitHypervolumes{Split: m, Hypervolume: make([]float64, len(mc.Groups))}
				for g := range row.Hypervolume {
					row.Hypervolume[g] = math.NaN()
				}
				for _, h := range res.PerSplit {
					if g := slices.Index(mc.Groups, h.Group); h.Metric == metric && h.Split == m && g >= 0 {
						row.Hypervolume[g] = h.Hypervolume
					}
				}
				mc.Splits = append(mc.Splits, row)
			}
			for _, pr := range res.Paired {
				if pr.Metric == metric {
					mc.Paired = append(mc.Paired, Paired{PairedRow: pr, Significant: pr.PValue < Significance,
						MinSplits: minSplitsSignificant()})
				}
			}
			c.Metrics = append(c.Metrics, mc)
		}
		out = append(out, c)
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("method comparison: %s", strings.Join(errs, "; "))
	}
	return out, nil
}

// TypedCommand is a command that ran a sweep into its folder, as typed.
type TypedCommand struct {
	Command string
	Dir     string // the working directory it was typed in
	Runs    int    // how many times it ran (a resumed sweep runs it again)
}

// typedCommands lists the distinct commands among invs, first run first.
func typedCommands(invs []runfolder.Invocation) []TypedCommand {
	var out []TypedCommand
	for _, inv := range invs {
		if len(inv.Args) == 0 {
			continue
		}
		q := make([]string, len(inv.Args))
		for i, a := range inv.Args {
			q[i] = shellword.Quote(a)
		}
		tc := TypedCommand{Command: strings.Join(q, " "), Dir: inv.Dir}
		k := slices.IndexFunc(out, func(o TypedCommand) bool { return o.Command == tc.Command && o.Dir == tc.Dir })
		if k < 0 {
			out = append(out, tc)
			k = len(out) - 1
		}
		out[k].Runs++
	}
	return out
}
