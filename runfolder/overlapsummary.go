package runfolder

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/fpareto/fp/propensity"
	"github.com/fpareto/fp/records"
)

// OverlapLine summarises the overlap carried by records over their splits
// in one line ("" when none carries it): the temperature range, the largest
// share of extreme ê and the smallest effective sample size relative to its
// group, each with its split, and why a split whose every ê is clipped has
// an effective sample size of all its rows. Splits are told apart by run
// (Record.Source) and index, so that runs read together do not overwrite
// each other's splits.
func OverlapLine(recs []records.Record) string {
	type split struct {
		t, extreme, ess, clipped float64
	}
	by := map[runSplit]split{}
	var runs []string
	for i := range recs {
		r := &recs[i]
		if !r.HasOverlap() || r.PropN1 == 0 || r.PropN0 == 0 {
			continue
		}
		if !slices.Contains(runs, r.Source) {
			runs = append(runs, r.Source)
		}
		by[runSplit{r.Source, r.Split}] = split{r.PropTemperature, r.PropExtreme,
			min(r.ESS1/float64(r.PropN1), r.ESS0/float64(r.PropN0)), r.PropClipped}
	}
	if len(by) == 0 {
		return ""
	}
	keys := slices.Collect(maps.Keys(by))
	slices.SortFunc(keys, func(a, b runSplit) int {
		if a.run != b.run {
			return slices.Index(runs, a.run) - slices.Index(runs, b.run)
		}
		return a.split - b.split
	})
	name := func(k runSplit) string {
		if len(runs) > 1 {
			return fmt.Sprintf("%s split %d", k.run, k.split)
		}
		return fmt.Sprintf("split %d", k.split)
	}
	var tMin, tMax, ext, ess float64 = 0, 0, -1, 2
	var extAt, essAt runSplit
	var clipped []string
	for i, k := range keys { // in order, so that ties name the first
		s := by[k]
		if i == 0 || s.t < tMin {
			tMin = s.t
		}
		if i == 0 || s.t > tMax {
			tMax = s.t
		}
		if s.extreme > ext {
			ext, extAt = s.extreme, k
		}
		if s.ess < ess {
			ess, essAt = s.ess, k
		}
		if s.clipped == 1 {
			clipped = append(clipped, name(k))
		}
	}
	n := len(by)
	splits := fmt.Sprintf("%d splits", n)
	if n == 1 {
		splits = "1 split"
	}
	if len(runs) > 1 {
		splits += fmt.Sprintf(" of %d runs", len(runs))
	}
	// "Extreme" without its bound: records written before the bound scaled
	// with the groups' shares hold the share of ê < 0.01 or > 0.99.
	line := fmt.Sprintf("overlap over %s: temperature %.3g–%.3g; extreme ê at most %.1f%% (%s); smallest ESS %.0f%% of its group (%s)",
		splits, tMin, tMax, 100*ext, name(extAt), 100*ess, name(essAt))
	if ext > 0.1 || ess < 0.1 || len(clipped) > 0 {
		line += " — POOR: the ATO values rest on few rows (fp status on the run folder says what is behind it and what to do)"
	}
	if len(clipped) > 0 {
		line += "; " + strings.Join(clipped, ", ") + ": " + propensity.Overlap{Clipped: 1}.ESSNote()
	}
	return line
}

// WriteOverlaps prints a line per split's overlap (and one for its test
// rows, when stored), and the advice of those whose overlap is poor or
// whose ATO is unreliable.
func WriteOverlaps(w io.Writer, ovs []SplitOverlap) {
	for _, o := range ovs {
		WriteSplitOverlap(w, o)
	}
}

// WriteSplitOverlap prints one split's overlap as WriteOverlaps does.
func WriteSplitOverlap(w io.Writer, o SplitOverlap) {
	if o.Groups != nil {
		fmt.Fprintf(w, "split %d overlap: %s\n", o.Split, o.Groups)
		if o.TestGroups != nil {
			fmt.Fprintf(w, "split %d overlap on the test rows: %s\n", o.Split, o.TestGroups)
		}
		if o.SelectionGroups != nil {
			fmt.Fprintf(w, "split %d overlap on the selection rows: %s\n", o.Split, o.SelectionGroups)
		}
	} else {
		fmt.Fprintf(w, "split %d overlap: %s\n", o.Split, o.Overlap)
	}
	if o.Test != nil && o.Groups == nil {
		fmt.Fprintf(w, "split %d overlap on the test rows: %s\n", o.Split, o.Test.WeightsString())
	}
	if o.Selection != nil && o.Groups == nil {
		fmt.Fprintf(w, "split %d overlap on the selection rows: %s\n", o.Split, o.Selection.WeightsString())
	}
	for _, a := range []string{o.Advice(), o.ATOAdvice()} {
		if a != "" {
			fmt.Fprintln(w, "warning: "+a)
		}
	}
}
