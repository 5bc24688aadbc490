package runfolder

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/fpareto/fp/internal/shellword"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/fpareto/fp/internal/printable"
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
	return fmt.Sprintf("split %d: the ATO is unreliable (%s); %s", o.Split, o.ATOUnreliableReason, excludeAdvice(o.Predictors, ""))
}

// excludeAdvice says what to do about poor overlap: leave out the column
// that predicts the sensitive attribute best, named when known; run names
// the folder fp status should be pointed at when it is not.
func excludeAdvice(preds []propensity.Predictor, run string) string {
	if len(preds) == 0 {
		where := "fp status on the run folder"
		if run != "" {
			where = "fp status " + shellword.Quote(run)
		}
		return where + " names the columns that predict the sensitive attribute; leave out one that stands in for it with --exclude COL"
	}
	p := preds[0]
	return fmt.Sprintf("leave out a column that stands in for the sensitive attribute with --exclude (e.g. --exclude %s: |r| = %.2f with it)",
		shellword.Quote(p.Column), p.Corr)
}

// Advice is the poor-overlap warning in words a user can act on ("" when
// the overlap is fine).
func (o SplitOverlap) Advice() string {
	if o.Warning == "" {
		return ""
	}
	s := fmt.Sprintf("split %d: poor overlap between the groups (%s): the ATO values rest on few rows", o.Split, o.Warning)
	if len(o.Predictors) > 0 {
		var cols []string
		for _, p := range o.Predictors {
			cols = append(cols, fmt.Sprintf("%s (|r| = %.2f)", printable.String(p.Column), p.Corr))
		}
		s += "; the columns that predict the sensitive attribute best are " + strings.Join(cols, ", ") +
			": leave out a column that stands in for it with --exclude (e.g. --exclude " + shellword.Quote(o.Predictors[0].Column) + ")"
	}
	return s
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
	files, err := filepath.Glob(filepath.Join(globQuote(dir), "splits", "split-*", OverlapFile))
	if err != nil {
		return nil, err
	}
	var out []SplitOverlap
	for _, f := range files {
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
