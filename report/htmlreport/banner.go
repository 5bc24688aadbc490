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
	// A column that leaks the target or identifies rows bears on every
	// network shown, the accuracy first: it comes before the rest.
	// One banner each, the warning as fp train printed it, so that its
	// --exclude can be copied as it stands.
	for _, w := range p.ColumnWarnings {
		out = append(out, Banner{Kind: "columns", Title: "Check this column:", Text: w})
	}
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

// poorSplit is what is known of why a split's overlap is poor: the source
// columns that go most with the sensitive attribute, when something besides
// a group too small to estimate is behind it (proxy), and the advice about
// such groups (small, "" for none).
type poorSplit struct {
	preds []propensity.Predictor
	proxy bool
	small string
}

// poorOverlapSplits are the splits whose overlap is poor, by the run
// folder's overlap summaries or by the records' own (whose cause is not
// known: a column, as far as the banner can tell).
func poorOverlapSplits(p *Page) map[runSplit]poorSplit {
	poor := map[runSplit]poorSplit{}
	for _, row := range p.Propensity {
		if row.Warning != "" {
			poor[runSplit{row.Run, row.Split}] = poorSplit{row.Predictors, row.Proxy || row.Small == "", row.Small}
		}
	}
	for _, c := range p.Data.Candidates {
		k := runSplit{c.Run, c.Split}
		if _, ok := poor[k]; !ok && c.PoorOverlap != nil && *c.PoorOverlap {
			poor[k] = poorSplit{proxy: true}
		}
	}
	return poor
}

// overlapBanner warns that the ATO values of some splits rest on few rows,
// names what is behind it and says what to do: merge a group too small to
// estimate, or leave out a column that stands in for the sensitive
// attribute, saying what that costs when it is the only feature or the
// strongest predictor of the target; false when every split's overlap is
// fine or unknown.
func overlapBanner(p *Page) (Banner, bool) {
	poor := poorOverlapSplits(p)
	if len(poor) == 0 {
		return Banner{}, false
	}
	b := Banner{Kind: "overlap", Title: "Poor overlap: the ATO values rest on few rows.", Link: "#propensity"}
	proxy, small := map[runSplit]poorSplit{}, map[runSplit]poorSplit{}
	for k, s := range poor {
		if s.proxy {
			proxy[k] = s
		}
		if s.small != "" {
			small[k] = s
		}
	}
	if len(proxy) > 0 {
		b.Text, b.Command = proxyText(p, proxy)
	}
	if len(small) > 0 {
		// The advice of the first such split, which names the groups and
		// their rows there.
		keys := make([]runSplit, 0, len(small))
		for k := range small {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			return keys[i].run < keys[j].run || keys[i].run == keys[j].run && keys[i].split < keys[j].split
		})
		b.Text = strings.TrimSpace(b.Text + " In " + poorSplitsPhrase(p, small) + ", " + small[keys[0]].small + ".")
	}
	const caution = "read the ATO with caution; DP, EO and EOpp do not depend on the overlap."
	switch {
	case b.Command != "":
		b.Note = "with the run's other options and a new --out folder. Otherwise " + caution
	case len(small) > 0:
		b.Note = "Otherwise " + caution
	default:
		b.Note = "R" + caution[1:]
	}
	return b, true
}

// proxyText is the banner's text about the splits where a column may stand
// in for the sensitive attribute, and the command that leaves it out (""
// when it is the only feature).
func proxyText(p *Page, poor map[runSplit]poorSplit) (text, command string) {
	// Each column once, at its largest correlation over the splits.
	corr := map[string]propensity.Predictor{}
	for _, ps := range poor {
		for _, pr := range ps.preds {
			if old, ok := corr[pr.Column]; !ok || pr.Corr > old.Corr {
				corr[pr.Column] = pr
			}
		}
	}
	cols := make([]string, 0, len(corr))
	for c := range corr {
		cols = append(cols, c)
	}
	sort.Slice(cols, func(i, j int) bool {
		if corr[cols[i]].Corr != corr[cols[j]].Corr {
			return corr[cols[i]].Corr > corr[cols[j]].Corr
		}
		return cols[i] < cols[j]
	})
	if len(cols) > 3 {
		cols = cols[:3]
	}
	text = "In " + poorSplitsPhrase(p, poor) + " the other columns tell the groups apart."
	if len(cols) == 0 {
		return text + " If a column stands in for the sensitive attribute, train again without it:", "fp train --exclude COLUMN"
	}
	named := make([]string, len(cols))
	for i, c := range cols {
		named[i] = fmt.Sprintf("%s (%.2f)", c, corr[c].Corr)
		if i == 0 {
			named[i] = fmt.Sprintf("%s (absolute correlation %.2f)", c, corr[c].Corr)
		}
	}
	text += " The columns that predict the sensitive attribute best: " + strings.Join(named, ", ") + "."
	first := corr[cols[0]]
	switch {
	case first.Only:
		return text + " " + cols[0] + " is the only feature, so it cannot be left out.", ""
	case first.Strongest:
		text += fmt.Sprintf(" %s is also the strongest predictor of the target (absolute correlation %.2f with it): leaving it out costs accuracy. If the fairness is worth that, train again without it:",
			cols[0], first.Target)
	default:
		text += " If one stands in for it, train again without it:"
	}
	return text, "fp train --exclude " + shellword.Quote(cols[0])
}

// poorSplitsPhrase says which splits of which runs are poor ("split 1 of
// 3", "both splits"), run by run when there are several.
func poorSplitsPhrase(p *Page, poor map[runSplit]poorSplit) string {
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
