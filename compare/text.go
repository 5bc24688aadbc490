package compare

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/internal/printable"
	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
)

// WriteText prints res as plain-text tables: for each metric (and dataset)
// the pooled table, each group's hypervolume over the splits, and the
// paired comparisons. The per-split values themselves are in the JSON form.
func WriteText(w io.Writer, res *Result) error {
	type section struct{ metric, dataset string }
	var order []section
	seen := map[section]bool{}
	for _, r := range res.Pooled {
		s := section{r.Metric, r.Dataset}
		if !seen[s] {
			seen[s] = true
			order = append(order, s)
		}
	}
	axis := res.Axis
	if axis == records.AxisError {
		axis = "error (1 − accuracy)"
	}
	if res.FrontRule == string(pareto.RuleConstant) {
		fmt.Fprintf(w, "front rule constant, x axis %s: the hypervolume's x axis runs, on each plane, from the best candidate\n"+
			"of every group (0) to the constant predictor at the training base rate (1; pooled over the splits: its mean\n"+
			"over them), the unfairness axis from 0 to the largest value of every group; the constant predictor (1, 0)\n"+
			"joins every front, so candidates no better than it add nothing; reference (%g, %g). nondominated: distinct\n"+
			"points (closer than %g in both axes min–max normalised over every group's candidates count once). front\n"+
			"collapsed / single-class /\n",
			axis, res.Reference[0], res.Reference[1], res.Tolerance)
	} else {
		fmt.Fprintf(w, "front rule minmax (the paper's protocol), x axis %s; fp's default rule is constant (--front-rule).\n", axis)
		fmt.Fprintf(w, "nondominated: distinct points (closer than %g in both normalised axes count once). hypervolume: both axes\n"+
			"min–max normalised over the candidates of every group, reference (%g, %g). front collapsed / single-class /\n",
			res.Tolerance, res.Reference[0], res.Reference[1])
	}
	fmt.Fprint(w, "no better: non-dominated candidates that are constant predictors / predict one class for every test row /\n"+
		"have a test risk no better than the constant predictor's at the training base rate. front weak: non-dominated\n"+
		"candidates that another candidate of the group equals (within the tolerance) in one axis and beats by at least\n"+
		"the tolerance in the other.\n")
	fmt.Fprintln(w, fairness.ScaleNote)
	if res.DecidedOn == string(records.DecideSelection) {
		fmt.Fprint(w, "fronts chosen on the selection rows (sel_* metrics): nondominated and share count those; the hypervolumes\n"+
			"are of the test metrics of the candidates so chosen (chosen on selection rows, shown on test rows).\n")
	}
	for _, g := range res.Groups {
		fmt.Fprintf(w, "groups: %s; dp, eo, eopp and ato are the indices over these groups (docs/method.md §7).\n", printable.String(g))
	}
	if res.EvalOnlyLeftOut > 0 {
		fmt.Fprintf(w, "left out: %d eval_only records of a conditioned sweep (λ of --eval-lambdas only, which the other groups did not train).\n", res.EvalOnlyLeftOut)
	}
	if n := len(res.BaseProbabilityLeftOut); n > 0 {
		fmt.Fprintln(w, records.BaseProbabilityNote+".")
	}
	if len(res.Paired) > 0 {
		if res.FrontRule == string(pareto.RuleConstant) {
			fmt.Fprint(w, "split by split: each split on its own scale (its candidates and its constant predictor); A − B is the mean\n"+
				"paired difference of hypervolume with its 95% bootstrap interval, p the two-sided Wilcoxon signed-rank p-value\n")
		} else {
			fmt.Fprint(w, "split by split: each split normalised over its own candidates; A − B is the mean paired difference of\n"+
				"hypervolume with its 95% bootstrap interval, p the two-sided Wilcoxon signed-rank p-value\n")
		}
		tests := fmt.Sprintf("the %d paired tests", len(res.Paired))
		if len(res.Paired) == 1 {
			tests = "the one paired test" // its q is its p
		}
		fmt.Fprintf(w, "(* p < 0.05), q its Benjamini–Hochberg q-value over %s of this comparison (* q < 0.05).\n"+
			"A is the group given first (the earlier argument), B the later.\n", tests)
	}
	for _, s := range order {
		fmt.Fprintln(w)
		head := res.Axis + " vs " + records.MetricHeading(s.metric)
		if s.dataset != "" {
			head = s.dataset + ": " + head
		}
		fmt.Fprintf(w, "%s, pooled over all splits\n", head)
		t := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(t, "group\tcandidates\tnondominated\thypervolume\tshare\tfront collapsed\tfront single-class\tfront no better\tfront weak")
		for _, r := range res.Pooled {
			if r.Metric == s.metric && r.Dataset == s.dataset {
				fmt.Fprintf(t, "%s\t%d\t%d\t%.4f\t%.3f\t%d\t%d\t%d\t%d\n", r.Group, r.Candidates, r.NonDominated,
					r.Hypervolume, r.Share, r.FrontCollapsed, r.FrontSingleClass, r.FrontNoBetter, r.FrontWeak)
			}
		}
		if err := t.Flush(); err != nil {
			return err
		}
		var pairs []PairedRow
		for _, p := range res.Paired {
			if p.Metric == s.metric && p.Dataset == s.dataset {
				pairs = append(pairs, p)
			}
		}
		if len(pairs) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s, split by split: %s\n", head, pairHeading(pairs))
		t = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(t, "A\tB\tsplits\tA wins\tmean A − B\t95% interval\tp\tq")
		for _, p := range pairs {
			fmt.Fprintf(t, "%s\t%s\t%d\t%d\t%+.4f\t[%+.4f, %+.4f]\t%.2g%s\t%.2g%s\n", p.A, p.B, p.Splits, p.AWins, p.Mean,
				p.CILow, p.CIHigh, p.PValue, mark(p.PValue), p.QValue, mark(p.QValue))
		}
		if err := t.Flush(); err != nil {
			return err
		}
		writeMinPNotes(w, pairs)
	}
	return nil
}

// significance is the level the text marks p- and q-values against.
const significance = 0.05

// mark is " *" for a p- or q-value below the level, else "".
func mark(p float64) string {
	if p < significance {
		return " *"
	}
	return ""
}

// pairHeading names A and B of a table's rows: "A − B, A = x (its runs),
// B = y (its runs)" for one pair; for more, the groups in the order given,
// each row's A being the earlier of its two.
func pairHeading(pairs []PairedRow) string {
	named := func(group string, runs []string) string {
		if len(runs) == 0 {
			return group
		}
		return group + " (" + strings.Join(runs, ", ") + ")"
	}
	if len(pairs) == 1 {
		p := pairs[0]
		return "A − B, A = " + named(p.A, p.ARuns) + ", B = " + named(p.B, p.BRuns)
	}
	var groups []string
	seen := map[string]bool{}
	for _, p := range pairs {
		for _, g := range []struct {
			name string
			runs []string
		}{{p.A, p.ARuns}, {p.B, p.BRuns}} {
			if !seen[g.name] {
				seen[g.name] = true
				groups = append(groups, named(g.name, g.runs))
			}
		}
	}
	return "A − B, A the earlier of each row's groups in the order given: " + strings.Join(groups, ", ")
}

// writeMinPNotes says when too few splits make the p-values of a table
// unable to reach its level: with n splits on which the groups differ, the
// smallest attainable p is 2/2ⁿ (pareto.MinSignedRankP). One line per
// distinct number of splits.
func writeMinPNotes(w io.Writer, pairs []PairedRow) {
	type key struct {
		splits int
		minP   float64
	}
	seen := map[key]bool{}
	for _, p := range pairs {
		k := key{p.Splits, p.MinPValue}
		if p.MinPValue < significance || seen[k] {
			continue
		}
		seen[k] = true
		fmt.Fprintf(w, "note: %d paired splits cannot give p below %.2g (the signed-rank test's smallest p is 2/2ⁿ for n splits that differ), "+
			"so p < %g is out of reach whatever the data (%d splits can reach it); read the interval and the wins instead.\n",
			p.Splits, p.MinPValue, significance, pareto.SplitsForLevel(significance))
	}
}
