package experiments

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fpareto/fp/internal/printable"
	"github.com/fpareto/fp/propensity"
	"github.com/fpareto/fp/records"
)

// OverlapFile is the name of a split's overlap summary, stored beside its
// propensity model (splits/split-NNN/).
const OverlapFile = "overlap.json"

// SplitOverlap is the overlap of one split's calibrated propensity on its
// training rows, and, when it is poor, why and which source columns go most
// with the sensitive attribute (the first place to look: a column that
// nearly copies the attribute leaves the groups without common ground).
type SplitOverlap struct {
	Split int `json:"split"`
	propensity.Overlap
	Warning    string                 `json:"warning,omitempty"`
	Predictors []propensity.Predictor `json:"predictors,omitempty"`
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
			": consider leaving out a column that stands in for it"
	}
	return s
}

// OverlapObserver is an Observer that also wants each split's overlap, as
// soon as its propensity model is ready (before its networks train).
type OverlapObserver interface {
	Overlap(o SplitOverlap)
}

func (r *Runner) overlapPath(m int) string {
	return filepath.Join(r.out, "splits", fmt.Sprintf("split-%03d", m), OverlapFile)
}

func (r *Runner) observeOverlap(o SplitOverlap) {
	ob, ok := r.obs.(OverlapObserver)
	if !ok {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	ob.Overlap(o)
}

func writeOverlap(path string, o SplitOverlap) error {
	b, err := json.MarshalIndent(o, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(path, append(b, '\n'))
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

// setOverlap copies a split's overlap summary into a record.
func setOverlap(rec *records.Record, o SplitOverlap) {
	rec.PropTemperature = o.Temperature
	rec.PropQ = append([]float64(nil), o.Quantiles...)
	rec.PropExtreme = o.Extreme
	rec.ESS1, rec.ESS0 = o.ESS1, o.ESS0
	rec.PropN1, rec.PropN0 = o.N1, o.N0
}
