package runfolder

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fpareto/fp/records"
)

// RunOverlap is one split's overlap summary with the run it belongs to: the
// path the run was named by (a run folder, or a records file inside one),
// as records.Record.Source holds it. Run and split together identify it,
// since every run numbers its splits from 0.
type RunOverlap struct {
	Run string `json:"run"`
	SplitOverlap
}

// ReadRunOverlaps reads the overlap summaries of the runs at paths (run
// folders, or records files inside one), by run in the order given, then
// by split. A path named twice is read once; a run written before the
// summaries were stored gives none.
func ReadRunOverlaps(paths []string) ([]RunOverlap, error) {
	var out []RunOverlap
	seen := map[string]bool{}
	for _, p := range paths {
		if seen[p] {
			continue
		}
		seen[p] = true
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("overlap summaries: %w", err)
		}
		dir := p
		if !st.IsDir() {
			dir = filepath.Dir(p)
		}
		ovs, err := ReadOverlaps(dir)
		if err != nil {
			return nil, fmt.Errorf("overlap summaries of %s: %w", p, err)
		}
		for _, o := range ovs {
			out = append(out, RunOverlap{Run: p, SplitOverlap: o})
		}
	}
	return out, nil
}

// runSplit identifies a split of a run.
type runSplit struct {
	run   string
	split int
}

// ATOWarning is one line saying which splits of recs have an unreliable
// ATO (records.Record.ATOReliable false), why (the first such split's
// reason) and what to do, naming the column that predicts the sensitive
// attribute best when ovs (the runs' overlap summaries) know it; "" when
// every split's ATO is reliable or no record carries the decision. Splits
// are told apart by run (Record.Source) and index, whatever the order of
// recs.
func ATOWarning(recs []records.Record, ovs []RunOverlap) string {
	var runs []string
	all := map[runSplit]bool{}
	reason := map[runSplit]string{}
	for i := range recs {
		r := &recs[i]
		k := runSplit{r.Source, r.Split}
		if !slices.Contains(runs, r.Source) {
			runs = append(runs, r.Source)
		}
		all[k] = true
		if r.ATOUnreliable() {
			reason[k] = r.ATOUnreliableReason
		}
	}
	if len(reason) == 0 {
		return ""
	}
	bad := make([]runSplit, 0, len(reason))
	for k := range reason {
		bad = append(bad, k)
	}
	slices.SortFunc(bad, func(a, b runSplit) int {
		if a.run != b.run {
			return slices.Index(runs, a.run) - slices.Index(runs, b.run)
		}
		return a.split - b.split
	})
	var where []string
	for i := 0; i < len(bad); {
		j := i
		var splits []string
		for ; j < len(bad) && bad[j].run == bad[i].run; j++ {
			splits = append(splits, fmt.Sprint(bad[j].split))
		}
		s := "split "
		if len(splits) > 1 {
			s = "splits "
		}
		s += strings.Join(splits, ", ")
		if len(runs) > 1 {
			s = bad[i].run + ": " + s
		}
		where = append(where, s)
		i = j
	}
	first := bad[0]
	at := fmt.Sprintf("split %d", first.split)
	if len(runs) > 1 {
		at = fmt.Sprintf("%s split %d", first.run, first.split)
	}
	// The advice is the first unreliable split's that has a summary.
	var advice string
	for _, k := range bad {
		for _, o := range ovs {
			if o.Run == k.run && o.Split == k.split && advice == "" {
				advice = o.remedy(false, k.run)
			}
		}
	}
	if advice == "" {
		advice = proxyAdvice(nil, false, first.run)
	}
	return fmt.Sprintf("the ATO is unreliable on %d of %d splits (%s): at %s, %s; %s",
		len(bad), len(all), strings.Join(where, "; "), at, reason[first], advice)
}

// OverlapReport is what fp front, compare and pick add about the overlap
// behind the ATO values: every run's overlap summary, by run and split, and
// the one-line warning when some split's ATO is unreliable. Its fields join
// the commands' JSON documents.
type OverlapReport struct {
	Overlap    []RunOverlap `json:"overlap"`
	ATOWarning string       `json:"ato_warning,omitempty"`
}

// ReadOverlapReport reads the overlap summaries of the runs at paths and
// judges the ATO of their records recs. An unreadable summary is returned
// as the error with the report of what was read: the records' own decision
// still stands.
func ReadOverlapReport(paths []string, recs []records.Record) (OverlapReport, error) {
	rep := OverlapReport{Overlap: []RunOverlap{}}
	ovs, err := ReadRunOverlaps(paths)
	if err == nil && ovs != nil {
		rep.Overlap = ovs
	}
	rep.ATOWarning = ATOWarning(recs, rep.Overlap)
	return rep, err
}

// Warn prints the unreliable-ATO warning, if any, in one line.
func (o OverlapReport) Warn(w io.Writer) {
	if o.ATOWarning != "" {
		fmt.Fprintln(w, "fp: warning: "+o.ATOWarning)
	}
}
