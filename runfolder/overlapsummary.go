package runfolder

import (
	"fmt"
	"io"

	"github.com/fpareto/fp/records"
)

// OverlapLine summarises the overlap carried by records over their splits
// in one line ("" when none carries it): the temperature range, the largest
// share of extreme ê and the smallest effective sample size relative to its
// group, each with its split.
func OverlapLine(recs []records.Record) string {
	type split struct {
		t, extreme, ess float64
	}
	by := map[int]split{}
	for i := range recs {
		r := &recs[i]
		if !r.HasOverlap() || r.PropN1 == 0 || r.PropN0 == 0 {
			continue
		}
		by[r.Split] = split{r.PropTemperature, r.PropExtreme, min(r.ESS1/float64(r.PropN1), r.ESS0/float64(r.PropN0))}
	}
	if len(by) == 0 {
		return ""
	}
	var tMin, tMax, ext, ess float64 = 0, 0, -1, 2
	extSplit, essSplit := 0, 0
	first := true
	for m, s := range by {
		if first || s.t < tMin {
			tMin = s.t
		}
		if first || s.t > tMax {
			tMax = s.t
		}
		first = false
		if s.extreme > ext || (s.extreme == ext && m < extSplit) {
			ext, extSplit = s.extreme, m
		}
		if s.ess < ess || (s.ess == ess && m < essSplit) {
			ess, essSplit = s.ess, m
		}
	}
	splits := fmt.Sprintf("%d splits", len(by))
	if len(by) == 1 {
		splits = "1 split"
	}
	line := fmt.Sprintf("overlap over %s: temperature %.3g–%.3g; extreme ê (< 0.01 or > 0.99) at most %.1f%% (split %d); smallest ESS %.0f%% of its group (split %d)",
		splits, tMin, tMax, 100*ext, extSplit, 100*ess, essSplit)
	if ext > 0.1 || ess < 0.1 {
		line += " — POOR: the ATO values rest on few rows (fp status on the run folder names the columns that predict the sensitive attribute)"
	}
	return line
}

// WriteOverlaps prints a line per split's overlap, and the advice of those
// whose overlap is poor.
func WriteOverlaps(w io.Writer, ovs []SplitOverlap) {
	for _, o := range ovs {
		fmt.Fprintf(w, "split %d overlap: %s\n", o.Split, o.Overlap)
		if a := o.Advice(); a != "" {
			fmt.Fprintln(w, "warning: "+a)
		}
	}
}
