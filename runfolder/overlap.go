package runfolder

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/internal/printable"
	"github.com/fpareto/fp/internal/shellword"
	"github.com/fpareto/fp/propensity"
)

// OverlapFile is the name of a split's overlap summary, stored beside its
// propensity model (splits/split-NNN/).
const OverlapFile = "overlap.json"

// SplitOverlap is the overlap of one split's calibrated propensity on its
// training rows, and, when it is poor, why and which source columns go most
// with the sensitive attribute (the first place to look: a column that
// nearly copies the attribute leaves the groups without common ground).
//
// Test is the overlap on the split's test rows, where the ATO is measured,
// with the weights used there (after clipping); ATOReliable and
// ATOUnreliableReason are propensity.Unreliable's decision on the training
// and test overlap (see SetTest). Summaries written before these keys
// existed lack them (Test and ATOReliable nil).
type SplitOverlap struct {
	Split int `json:"split"`
	propensity.Overlap
	Warning    string                 `json:"warning,omitempty"`
	Predictors []propensity.Predictor `json:"predictors,omitempty"`

	Test *propensity.Overlap `json:"test,omitempty"`
	// Selection is the overlap on the selection rows, when the run keeps
	// some (fronts and picks are then decided on the ATO measured there).
	Selection           *propensity.Overlap `json:"selection,omitempty"`
	ATOReliable         *bool               `json:"ato_reliable,omitempty"`
	ATOUnreliableReason string              `json:"ato_unreliable_reason,omitempty"`

	// Groups, TestGroups and SelectionGroups are the overlap of a
	// sensitive attribute of R > 2 groups (propensity.DiagnoseGroups) on
	// the training, test and selection rows (SetGroups); the embedded
	// Overlap then holds only the temperature and the extreme and clipped
	// shares. Absent for two groups.
	Groups          *propensity.GroupOverlap `json:"groups,omitempty"`
	TestGroups      *propensity.GroupOverlap `json:"test_groups,omitempty"`
	SelectionGroups *propensity.GroupOverlap `json:"selection_groups,omitempty"`

	// GroupRows are each group's rows in the data, by code (a = 0, a = 1
	// for two groups), as --min-group-rows counts them: the advice about a
	// group too small to estimate names them. Absent from summaries
	// written before they were stored.
	GroupRows []int `json:"group_rows,omitempty"`
}

// SetGroups stores the overlap of R > 2 groups on the training, test and
// (when not nil) selection rows, and decides whether the ATO measured
// there is reliable (propensity.UnreliableGroups on each set of rows).
func (o *SplitOverlap) SetGroups(train, test propensity.GroupOverlap, sel *propensity.GroupOverlap) {
	o.Groups, o.TestGroups, o.SelectionGroups = &train, &test, sel
	o.Temperature, o.Extreme, o.Clipped = train.Temperature, train.Extreme, train.Clipped
	o.decide()
}

// SetTest stores the overlap on the test rows and the decision whether the
// split's ATO, measured there, is reliable (propensity.Unreliable).
func (o *SplitOverlap) SetTest(test propensity.Overlap) {
	o.Test = &test
	o.decide()
}

// SetSelection stores the overlap on the selection rows; the ATO is then
// reliable only where it is on both the test and the selection rows.
func (o *SplitOverlap) SetSelection(sel propensity.Overlap) {
	o.Selection = &sel
	o.decide()
}

// decide applies propensity.Unreliable to every set of rows the ATO is
// measured on, naming them (test, selection), each reason once.
func (o *SplitOverlap) decide() {
	var why []string
	add := func(rows *propensity.Overlap, name string) {
		if rows == nil {
			return
		}
		bad, w := propensity.Unreliable(o.Overlap, *rows)
		if !bad {
			return
		}
		for _, clause := range strings.Split(strings.ReplaceAll(w, "evaluation rows", name), "; ") {
			if !slices.Contains(why, clause) {
				why = append(why, clause)
			}
		}
	}
	if o.Groups != nil {
		for _, rows := range []struct {
			o    *propensity.GroupOverlap
			name string
		}{{o.TestGroups, "test rows"}, {o.SelectionGroups, "selection rows"}} {
			if rows.o == nil {
				continue
			}
			if bad, w := propensity.UnreliableGroups(*o.Groups, *rows.o); bad {
				for _, clause := range strings.Split(strings.ReplaceAll(w, "evaluation rows", rows.name), "; ") {
					if !slices.Contains(why, clause) {
						why = append(why, clause)
					}
				}
			}
		}
	}
	add(o.Test, "test rows")
	add(o.Selection, "selection rows")
	reliable := len(why) == 0
	o.ATOReliable, o.ATOUnreliableReason = &reliable, strings.Join(why, "; ")
}

// Unreliable reports whether the split's ATO was judged unreliable (false
// for a summary without the decision).
func (o SplitOverlap) Unreliable() bool { return o.ATOReliable != nil && !*o.ATOReliable }

// ATOAdvice is the unreliable-ATO warning in words a user can act on ("" when
// the ATO is reliable or the summary predates the decision).
func (o SplitOverlap) ATOAdvice() string {
	if !o.Unreliable() {
		return ""
	}
	return fmt.Sprintf("split %d: the ATO is unreliable (%s); %s", o.Split, o.ATOUnreliableReason, o.remedy(false, ""))
}

// Advice is the poor-overlap warning in words a user can act on ("" when
// the overlap is fine).
func (o SplitOverlap) Advice() string {
	if o.Warning == "" {
		return ""
	}
	s := fmt.Sprintf("split %d: poor overlap between the groups (%s): the ATO values rest on few rows", o.Split, o.Warning)
	if r := o.remedy(true, ""); r != "" {
		s += "; " + r
	}
	return s
}

// remedy says what to do about the split's poor overlap or unreliable ATO,
// by its cause (propensity's Causes, docs/method.md §4.3): a group too
// small to estimate is named with its rows, to be merged; for the rest, a
// column that stands in for the sensitive attribute is to be left out,
// with what that costs when it is the only feature or the strongest
// predictor of the target. With list the predictors are listed, and
// nothing is said of columns when none is known (the poor-overlap warning);
// without, the advice points to fp status on run for them.
func (o SplitOverlap) remedy(list bool, run string) string {
	small, proxy := o.causes()
	var out []string
	if len(small) > 0 {
		out = append(out, o.smallAdvice(small))
	}
	if (proxy || len(small) == 0) && !(list && len(o.Predictors) == 0) {
		out = append(out, proxyAdvice(o.Predictors, list, run))
	}
	return strings.Join(out, "; ")
}

// SmallAdvice is the advice about the groups too small to estimate behind
// the split's poor overlap or unreliable ATO (as the warnings give it), ""
// when none is; ProxyCause says whether anything else is behind them, for
// which a column that stands in for the sensitive attribute is the usual
// cause (docs/method.md §4.3).
func (o SplitOverlap) SmallAdvice() string {
	if small, _ := o.causes(); len(small) > 0 {
		return o.smallAdvice(small)
	}
	return ""
}

// ProxyCause: see SmallAdvice.
func (o SplitOverlap) ProxyCause() bool {
	_, proxy := o.causes()
	return proxy
}

// causes are propensity's Causes of the split's overlap on its training,
// test and selection rows.
func (o SplitOverlap) causes() (small []string, proxy bool) {
	if o.Groups != nil {
		var evals []propensity.GroupOverlap
		for _, e := range []*propensity.GroupOverlap{o.TestGroups, o.SelectionGroups} {
			if e != nil {
				evals = append(evals, *e)
			}
		}
		return o.Groups.Causes(evals...)
	}
	var evals []propensity.Overlap
	for _, e := range []*propensity.Overlap{o.Test, o.Selection} {
		if e != nil {
			evals = append(evals, *e)
		}
	}
	return o.Overlap.Causes(evals...)
}

// groupRows are the rows of the group called level (a group's name, or
// "a = 1" and "a = 0" for two groups) on the training, test and selection
// rows (-1 where not stored) and in the data (-1 when not stored).
func (o SplitOverlap) groupRows(level string) (train, test, sel, data int) {
	train, test, sel, data = -1, -1, -1, -1
	if o.Groups != nil {
		find := func(g *propensity.GroupOverlap) int {
			if g != nil {
				for _, s := range g.Groups {
					if s.Level == level {
						return s.N
					}
				}
			}
			return -1
		}
		train, test, sel = find(o.Groups), find(o.TestGroups), find(o.SelectionGroups)
		for r, s := range o.Groups.Groups {
			if s.Level == level && r < len(o.GroupRows) {
				data = o.GroupRows[r]
			}
		}
		return train, test, sel, data
	}
	code := 0
	n := func(v propensity.Overlap) int { return v.N0 }
	if level == "a = 1" {
		code, n = 1, func(v propensity.Overlap) int { return v.N1 }
	}
	train = n(o.Overlap)
	if o.Test != nil {
		test = n(*o.Test)
	}
	if o.Selection != nil {
		sel = n(*o.Selection)
	}
	if code < len(o.GroupRows) {
		data = o.GroupRows[code]
	}
	return train, test, sel, data
}

// smallAdvice names the groups too small to estimate, with their rows,
// and how to merge them: --group-map into larger groups (into "other" when
// there is one), or the --min-group-rows that gathers them in "other"
// where that grouping is accepted. Two groups (no level names) cannot be
// merged: it says so.
func (o SplitOverlap) smallAdvice(small []string) string {
	var named, entries []string
	into := "GROUP"
	if o.Groups != nil {
		for _, g := range o.Groups.Groups {
			if g.Level == datasets.OtherLevel {
				into = datasets.OtherLevel
			}
		}
	}
	for _, level := range small {
		train, test, sel, data := o.groupRows(level)
		// Its rows in the data (as --min-group-rows counts them) when
		// stored, and on each part of the split.
		var parts []string
		for _, p := range []struct {
			n    int
			name string
		}{{train, "training"}, {test, "test"}, {sel, "selection"}} {
			if p.n >= 0 {
				parts = append(parts, fmt.Sprintf("%d %s", p.n, p.name))
			}
		}
		rows := fmt.Sprintf("%d rows: %s", data, strings.Join(parts, ", "))
		if data < 0 {
			rows = parts[0] + " rows"
			if len(parts) > 1 {
				rows += ", " + strings.Join(parts[1:], ", ")
			}
		}
		name := level
		if o.Groups != nil {
			name = strconv.Quote(printable.String(level))
			if level != datasets.OtherLevel {
				entries = append(entries, level+"="+into)
			}
		}
		named = append(named, fmt.Sprintf("%s (%s)", name, rows))
	}
	s := fmt.Sprintf("group %s is too small to estimate its propensity and overlap weights whatever the columns", named[0])
	them, larger := "it", "a larger group"
	if len(named) > 1 {
		s = fmt.Sprintf("groups %s and %s are too small to estimate their propensities and overlap weights whatever the columns",
			strings.Join(named[:len(named)-1], ", "), named[len(named)-1])
		them, larger = "them", "larger groups"
	}
	switch {
	case o.Groups == nil:
		return s + ": the ATO needs more rows of " + them
	case len(entries) == 0: // "other" alone
		return s + ": give its values a larger group with --group-map VALUE=GROUP"
	}
	s += fmt.Sprintf(": merge %s into %s with --group-map %s", them, larger, shellword.Quote(FormatList(entries)))
	if n := o.minGroupRows(); n > 0 {
		s += fmt.Sprintf(" or with --min-group-rows %d", n)
	}
	return s
}

// minGroupRows is the --min-group-rows that merges every group too small
// to estimate into "other": one above the most rows any of them has in the
// data. It is 0 when the data's rows are not stored or when datasets would
// refuse that grouping (docs/method.md §1.9: "other" needs that many rows
// itself, and two groups must remain), so that the advice never leads to a
// refusal.
func (o SplitOverlap) minGroupRows() int {
	if o.Groups == nil || len(o.GroupRows) != len(o.Groups.Groups) {
		return 0
	}
	small, _ := o.causes()
	n := 0
	for _, l := range small {
		_, _, _, data := o.groupRows(l)
		n = max(n, data+1)
	}
	other, kept := 0, 0
	for r, g := range o.Groups.Groups {
		switch rows := o.GroupRows[r]; {
		case g.Level == datasets.OtherLevel || rows < n:
			other += rows
		default:
			kept++
		}
	}
	if other < n || kept+1 < 2 {
		return 0
	}
	return n
}

// proxyAdvice says which column to leave out for poor overlap, its first
// predictor: with list after naming every predictor, else with its
// correlation. A column that is the only feature cannot be left out, and
// one that is also the strongest predictor of the target costs accuracy:
// the advice says so rather than suggest it bare. With no predictor known
// it points to fp status on run (the run folder when run is "").
func proxyAdvice(preds []propensity.Predictor, list bool, run string) string {
	if len(preds) == 0 {
		where := "fp status on the run folder"
		if run != "" {
			where = "fp status " + shellword.Quote(run)
		}
		return where + " names the columns that predict the sensitive attribute; leave out one that stands in for it with --exclude COL"
	}
	p := preds[0]
	col, exclude := printable.String(p.Column), "--exclude "+shellword.Quote(p.Column)
	// named introduces the first predictor: after the list of them, or
	// with its correlation.
	named := fmt.Sprintf("%s, the column that predicts the sensitive attribute best (|r| = %.2f),", col, p.Corr)
	if list {
		named = "the columns that predict the sensitive attribute best are " + strings.Join(cols(preds), ", ") + ": " + col
	}
	switch {
	case p.Only:
		return named + " is the only feature, so it cannot be left out: read the ATO with caution"
	case p.Strongest:
		return fmt.Sprintf("%s is also the strongest predictor of the target (|r| = %.2f with it): leaving it out (%s) costs accuracy", named, p.Target, exclude)
	case list:
		return "the columns that predict the sensitive attribute best are " + strings.Join(cols(preds), ", ") +
			": leave out a column that stands in for it with --exclude (e.g. " + exclude + ")"
	}
	return fmt.Sprintf("leave out a column that stands in for the sensitive attribute with --exclude (e.g. %s: |r| = %.2f with it)", exclude, p.Corr)
}

// cols names the predictors with their correlations.
func cols(preds []propensity.Predictor) []string {
	out := make([]string, len(preds))
	for i, q := range preds {
		out[i] = fmt.Sprintf("%s (|r| = %.2f)", printable.String(q.Column), q.Corr)
	}
	return out
}

// OverlapPath is where split m's overlap summary is stored.
func OverlapPath(dir string, m int) string {
	return filepath.Join(SplitDir(dir, m), OverlapFile)
}

// WriteOverlap stores the overlap summary of split o.Split.
func WriteOverlap(dir string, o SplitOverlap) error {
	b, err := json.MarshalIndent(o, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(OverlapPath(dir, o.Split), append(b, '\n'))
}

// ReadOverlaps reads the overlap summaries stored in a run folder, by split;
// none (and no error) for a folder written before they were stored.
func ReadOverlaps(dir string) ([]SplitOverlap, error) {
	// The splits' folders are listed, not globbed: the folder's name may
	// hold pattern characters.
	entries, err := os.ReadDir(filepath.Join(dir, "splits"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []SplitOverlap
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "split-") {
			continue
		}
		f := filepath.Join(dir, "splits", e.Name(), OverlapFile)
		b, err := os.ReadFile(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var o SplitOverlap
		if err := json.Unmarshal(b, &o); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Split < out[j].Split })
	return out, nil
}
