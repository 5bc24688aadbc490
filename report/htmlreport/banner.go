package htmlreport

import (
	"github.com/fpareto/fp/internal/shellword"

	"fmt"
	"sort"
	"strings"

	"github.com/fpareto/fp/propensity"
)

// banners are the warnings a user must read before picking a candidate,
// shown at the top of the page rather than in the section that gives the
// details: the first screen is where the choice is made.
func banners(p *Page) []Banner {
	var out []Banner
	// The test rows' judgement (records' ato_reliable) joins the training
	// rows' overlap banner when there is one: both say the same thing to
	// a user about to pick, and the first screen stays for the fronts.
	if b, ok := overlapBanner(p); ok {
		if len(p.ATOWarnings) > 0 {
			b.Note = strings.TrimSpace(b.Note + " The ATO is judged unreliable where it is measured, on the test rows too (Details).")
		}
		out = append(out, b)
		return out
	}
	for _, w := range p.ATOWarnings {
		out = append(out, Banner{Kind: "overlap", Title: "Unreliable ATO", Text: w, Link: "#propensity"})
	}
	return out
}

// runSplit names one split of one run (an index into Page.Runs).
type runSplit struct{ run, split int }

// poorOverlapSplits are the splits whose overlap is poor, by the run
// folder's overlap summaries or by the records' own, with the source
// columns that go most with the sensitive attribute when they are known.
func poorOverlapSplits(p *Page) map[runSplit][]propensity.Predictor {
	poor := map[runSplit][]propensity.Predictor{}
	for _, row := range p.Propensity {
		if row.Warning != "" {
			poor[runSplit{row.Run, row.Split}] = row.Predictors
		}
	}
	for _, c := range p.Data.Candidates {
		k := runSplit{c.Run, c.Split}
		if _, ok := poor[k]; !ok && c.PoorOverlap != nil && *c.PoorOverlap {
			poor[k] = nil
		}
	}
	return poor
}

// overlapBanner warns that the ATO values of some splits rest on few rows,
// names the columns that stand in for the sensitive attribute and says
// what to do; false when every split's overlap is fine or unknown.
func overlapBanner(p *Page) (Banner, bool) {
	poor := poorOverlapSplits(p)
	if len(poor) == 0 {
		return Banner{}, false
	}
	// Each column once, at its largest correlation over the splits.
	corr := map[string]float64{}
	for _, ps := range poor {
		for _, pr := range ps {
			corr[pr.Column] = max(corr[pr.Column], pr.Corr)
		}
	}
	cols := make([]string, 0, len(corr))
	for c := range corr {
		cols = append(cols, c)
	}
	sort.Slice(cols, func(i, j int) bool {
		if corr[cols[i]] != corr[cols[j]] {
			return corr[cols[i]] > corr[cols[j]]
		}
		return cols[i] < cols[j]
	})
	if len(cols) > 3 {
		cols = cols[:3]
	}
	b := Banner{Kind: "overlap", Title: "Poor overlap: the ATO values rest on few rows.", Link: "#propensity",
		Text: "In " + poorSplitsPhrase(p, poor) + " the other columns tell the groups apart."}
	exclude := "COLUMN"
	if len(cols) > 0 {
		named := make([]string, len(cols))
		for i, c := range cols {
			named[i] = fmt.Sprintf("%s (%.2f)", c, corr[c])
			if i == 0 {
				named[i] = fmt.Sprintf("%s (absolute correlation %.2f)", c, corr[c])
			}
		}
		b.Text += " The columns that predict the sensitive attribute best: " + strings.Join(named, ", ") +
			". If one stands in for it, train again without it:"
		exclude = shellword.Quote(cols[0])
	} else {
		b.Text += " If a column stands in for the sensitive attribute, train again without it:"
	}
	b.Command = "fp train --exclude " + exclude
	b.Note = "with the run's other options and a new --out folder. Otherwise read the ATO with caution; DP, EO and EOpp do not depend on the overlap."
	return b, true
}

// poorSplitsPhrase says which splits of which runs are poor ("split 1 of
// 3", "both splits"), run by run when there are several.
func poorSplitsPhrase(p *Page, poor map[runSplit][]propensity.Predictor) string {
	total := map[int]int{} // splits per run
	for _, c := range p.Constants {
		total[c.Run]++
	}
	byRun := map[int][]int{}
	for k := range poor {
		byRun[k.run] = append(byRun[k.run], k.split)
	}
	runs := make([]int, 0, len(byRun))
	for r := range byRun {
		runs = append(runs, r)
	}
	sort.Ints(runs)
	var parts []string
	for _, r := range runs {
		ms := byRun[r]
		sort.Ints(ms)
		n := max(total[r], len(ms))
		var s string
		switch {
		case n == 2 && len(ms) == 2:
			s = "both splits"
		case n > 2 && len(ms) == n:
			s = fmt.Sprintf("all %d splits", n)
		default:
			words := make([]string, len(ms))
			for i, m := range ms {
				words[i] = fmt.Sprint(m)
			}
			s = "split " + andList(words)
			if len(ms) > 1 {
				s = "splits " + andList(words)
			}
			if n > 1 {
				s += fmt.Sprintf(" of %d", n)
			}
		}
		if len(p.Runs) > 1 && r < len(p.Runs) {
			s += " (run " + p.Runs[r].Path + ")"
		}
		parts = append(parts, s)
	}
	return andList(parts)
}

// andList joins words as in prose: "a", "a and b", "a, b and c".
func andList(words []string) string {
	if len(words) <= 1 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
