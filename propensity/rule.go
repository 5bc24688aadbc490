package propensity

import (
	"fmt"
	"strconv"
	"strings"
)

// This file is the overlap rule of docs/method.md §4.3 and §4.4, for two
// groups and for R: which rows are extreme, when the overlap is poor, when
// a split's ATO cannot be trusted, and which cause is behind it.

// ExtremeRatio is how far below its group's share a propensity must fall
// for its row to count as extreme for that group: e_r(x) < ExtremeRatio·π_r,
// π_r the share of the rows in group r. By Bayes, e_r(x)/π_r is
// p(x | r)/p(x), so such a row is at least 1/ExtremeRatio = 50 times rarer
// in group r than among all rows: the overlap weights give it almost no
// counterpart there. A rare group is not extreme for being rare (its
// propensity is small everywhere, its ratio is not), and with two groups of
// equal size the bounds are ê < 0.01 and ê > 0.99.
const ExtremeRatio = 0.02

// ExtremeBelow is the propensity under which a row is extreme for a group
// that holds the given share of the rows.
func ExtremeBelow(share float64) float64 { return ExtremeRatio * share }

// Poor-overlap thresholds: more than PoorExtremeShare of the rows extreme,
// or a group whose overlap weights have an effective sample size below
// PoorESSShare of its rows.
const (
	PoorExtremeShare = 0.1
	PoorESSShare     = 0.1
)

// UnreliableMaxShare is the largest share of a group's overlap weight one
// evaluation row may carry before the ATO counts as unreliable: above it a
// single row moves the group's weighted mean by more than a tenth of its
// score.
const UnreliableMaxShare = 0.1

// MinGroupRows is the fewest rows of a group, on the rows where a
// condition of the rule holds for it, below which the condition is put
// down to the group's size rather than to the columns: its propensity is
// fitted and calibrated on a handful of rows, and one of a few dozen rows
// carries a tenth of its weight as soon as the weights vary by a factor of
// a few. A sweep warns before training about a split with such a group.
const MinGroupRows = 50

// view is an overlap as the rule reads it: the temperature, the extreme
// share and each group's figures. For two groups (binary) the groups are
// a = 1 then a = 0, named unquoted, and the extreme rows are described by
// ê's two bounds.
type view struct {
	temperature, extreme float64
	groups               []GroupStats
	binary               bool
}

func (o Overlap) view() view {
	return view{o.Temperature, o.Extreme, []GroupStats{
		{Level: "a = 1", N: o.N1, ESS: o.ESS1, MaxShare: o.MaxShare1, Extreme: o.Extreme1},
		{Level: "a = 0", N: o.N0, ESS: o.ESS0, MaxShare: o.MaxShare0, Extreme: o.Extreme0},
	}, true}
}

func (o GroupOverlap) view() view { return view{o.Temperature, o.Extreme, o.Groups, false} }

// name is how a reason names group g.
func (v view) name(g GroupStats) string {
	if v.binary {
		return g.Level
	}
	return strconv.Quote(g.Level)
}

// share is group g's share of the rows.
func (v view) share(g GroupStats) float64 {
	n := 0
	for _, s := range v.groups {
		n += s.N
	}
	if n == 0 {
		return 0
	}
	return float64(g.N) / float64(n)
}

// mostExtreme is the group with the largest share of rows extreme for it
// (nil when no group has any, as in summaries written before the shares
// were stored): the group that most rows have no counterpart in.
func (v view) mostExtreme() *GroupStats {
	var best *GroupStats
	for i := range v.groups {
		if g := &v.groups[i]; g.Extreme > 0 && (best == nil || g.Extreme > best.Extreme) {
			best = g
		}
	}
	return best
}

// finding is one condition of the rule that holds: its phrase, and the
// group it holds for with that group's figures on the rows where it holds
// (nil for the temperature's, which names no group).
type finding struct {
	text  string
	group *GroupStats
}

// extremeRows is the finding of more than PoorExtremeShare of the rows called
// rows ("training", "test", or "" for none) extreme, if it holds.
func (v view) extremeRows(rows string) []finding {
	if !(v.extreme > PoorExtremeShare) {
		return nil
	}
	if rows != "" {
		rows += " "
	}
	g := v.mostExtreme()
	var text string
	if v.binary {
		text = fmt.Sprintf("%.0f%% of the %srows have ê < %.2g or > %.4g (under 1/%g of a group's share)",
			100*v.extreme, rows, ExtremeBelow(v.share(v.groups[0])), 1-ExtremeBelow(v.share(v.groups[1])), 1/ExtremeRatio)
		if g != nil {
			text += fmt.Sprintf(", for group %s on %.0f%% of them", g.Level, 100*g.Extreme)
		}
	} else {
		text = fmt.Sprintf("%.0f%% of the %srows have a propensity under 1/%g of some group's share", 100*v.extreme, rows, 1/ExtremeRatio)
		if g != nil {
			text += fmt.Sprintf(", for group %q (below %.2g) on %.0f%% of them", g.Level, ExtremeBelow(v.share(*g)), 100*g.Extreme)
		}
	}
	return []finding{{text, g}}
}

// poor are the findings of poor overlap on the rows the propensity was
// fitted on: the extreme share, and each group's effective sample size.
func (v view) poor() []finding {
	out := v.extremeRows("")
	for i := range v.groups {
		if g := &v.groups[i]; g.N > 0 && g.ESS < PoorESSShare*float64(g.N) {
			out = append(out, finding{fmt.Sprintf("the overlap weights of group %s count as %.0f of its %d rows", v.name(*g), g.ESS, g.N), g})
		}
	}
	return out
}

// measured are the findings on the rows the ATO is measured on, called
// rows: the extreme share, then per group no rows, a small effective sample
// size, or one row carrying much of its weight.
func (v view) measured(rows string) []finding {
	out := v.extremeRows(rows)
	for i := range v.groups {
		g := &v.groups[i]
		switch {
		case g.N == 0:
			out = append(out, finding{fmt.Sprintf("group %s has no %s rows", v.name(*g), rows), g})
		case g.ESS < PoorESSShare*float64(g.N):
			out = append(out, finding{fmt.Sprintf("on the %s rows the overlap weights of group %s count as %.1f of its %d rows", rows, v.name(*g), g.ESS, g.N), g})
		case g.MaxShare > UnreliableMaxShare:
			out = append(out, finding{fmt.Sprintf("on the %s rows one row carries %.0f%% of group %s's weight", rows, 100*g.MaxShare, v.name(*g)), g})
		}
	}
	return out
}

// fitted are the findings of the unreliable-ATO rule on the training rows:
// the temperature at its lower bound, and the extreme share.
func (v view) fitted() []finding {
	var out []finding
	if atMinT(v.temperature) {
		out = append(out, finding{fmt.Sprintf("the calibration temperature is at its lower bound %g (the groups are separable on the training rows)", MinT), nil})
	}
	return append(out, v.extremeRows("training")...)
}

// unreliable are the findings of the unreliable-ATO rule on the training
// rows (train) and the evaluation rows (eval).
func unreliable(train, eval view) []finding {
	return append(train.fitted(), eval.measured("evaluation")...)
}

// reason joins the findings' phrases on one line.
func reason(fs []finding) (bool, string) {
	texts := make([]string, len(fs))
	for i, f := range fs {
		texts[i] = f.text
	}
	return len(fs) > 0, strings.Join(texts, "; ")
}

// Poor reports whether the overlap is too weak for the ATO estimate to be
// trusted, and why, in a phrase ("" when it is not): more than
// PoorExtremeShare of the rows extreme, or a group whose overlap weights
// have an effective sample size below PoorESSShare of its rows.
func (o Overlap) Poor() (bool, string) { return reason(o.view().poor()) }

// Poor is Overlap.Poor for R groups; why names the groups, in one line.
func (o GroupOverlap) Poor() (bool, string) { return reason(o.view().poor()) }

// Unreliable is the rule that says when a split's ATO, measured on some
// rows with the overlap weights of its calibrated propensity, cannot be
// trusted. train is the overlap on the training rows (where the propensity
// was fitted), eval on the rows the ATO is measured on (test or selection
// rows). The ATO is unreliable when any of these holds:
//   - the temperature is at its lower bound (AtMinT): the groups were
//     separable on the calibration rows;
//   - more than PoorExtremeShare of the rows are extreme (a propensity
//     under ExtremeBelow of a group's share), on either set of rows;
//   - on the evaluation rows a group has no rows, its effective sample size
//     is below PoorESSShare of its rows, or one row carries more than
//     UnreliableMaxShare of its weight.
//
// why lists every reason that holds, in a phrase ("" when reliable).
func Unreliable(train, eval Overlap) (bool, string) {
	return reason(unreliable(train.view(), eval.view()))
}

// UnreliableGroups is Unreliable for R groups; why names each group a
// reason holds for, on one line.
func UnreliableGroups(train, eval GroupOverlap) (bool, string) {
	return reason(unreliable(train.view(), eval.view()))
}

// UnreliableRows is the rule's judgement of an ATO measured on rows whose
// propensity model is not known (a file of predictions): the conditions of
// UnreliableGroups on the evaluation rows alone, which are called rows in
// the reason ("the file's").
func UnreliableRows(o GroupOverlap, rows string) (bool, string) {
	return reason(o.view().measured(rows))
}

// Causes sorts what the rule finds on the training rows (train: Poor and
// Unreliable's training conditions) and on each set of evaluation rows
// (evals) by its cause (docs/method.md §4.3). small names, once each in
// the order of train's groups, the groups a condition holds for while they have fewer than
// MinGroupRows rows where it holds: too few to estimate their propensity
// and weights, whatever the columns, so that merging them is the remedy.
// proxy says whether some condition holds that is not put down to such a
// group (the temperature at its bound, or a group with rows enough), whose
// usual cause is a column that stands in for the sensitive attribute.
func (o GroupOverlap) Causes(evals ...GroupOverlap) (small []string, proxy bool) {
	vs := make([]view, len(evals))
	for i, e := range evals {
		vs[i] = e.view()
	}
	return causes(o.view(), vs)
}

// Causes is GroupOverlap.Causes for two groups, named "a = 1" and "a = 0".
func (o Overlap) Causes(evals ...Overlap) (small []string, proxy bool) {
	vs := make([]view, len(evals))
	for i, e := range evals {
		vs[i] = e.view()
	}
	return causes(o.view(), vs)
}

func causes(train view, evals []view) (small []string, proxy bool) {
	fs := append(train.poor(), train.fitted()...)
	for _, e := range evals {
		fs = append(fs, e.measured("evaluation")...)
	}
	found := map[string]bool{}
	for _, f := range fs {
		if f.group == nil || f.group.N >= MinGroupRows {
			proxy = true
		} else {
			found[f.group.Level] = true
		}
	}
	for _, g := range train.groups {
		if found[g.Level] {
			small = append(small, g.Level)
		}
	}
	return small, proxy
}
