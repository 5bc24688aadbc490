package experiments_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// tinySelection is a one-split COMPAS sweep of λ ∈ {0, 1} and two epochs
// with the given selection share.
func tinySelection(f float64) experiments.Config {
	c := experiments.DefaultConfig()
	c.Splits, c.Lambdas, c.Epochs, c.PropensityEpochs, c.Engine, c.Workers = 1, "0,1", 2, 5, "backprop", 1
	c.SelectFraction = f
	return c
}

// The selection rows are drawn from the test part, stratified by (y, a),
// disjoint from the test rows that remain, and the same whatever the
// settings that do not draw the split.
func TestSelectionRowsAreStratifiedAndDisjoint(t *testing.T) {
	c := tinySelection(0.5).Config
	d, err := runfolder.LoadDataset(c)
	if err != nil {
		t.Fatal(err)
	}
	none := c
	none.SelectFraction = 0
	whole, err := runfolder.PartsOf(none, d, 0)
	if err != nil {
		t.Fatal(err)
	}
	p, err := runfolder.PartsOf(c, d, 0)
	if err != nil {
		t.Fatal(err)
	}
	if whole.Selection != nil {
		t.Errorf("no selection share: %d selection rows", len(whole.Selection))
	}
	if !slices.Equal(p.Train, whole.Train) {
		t.Error("the selection share changed the training rows")
	}
	if !slices.IsSorted(p.Selection) || !slices.IsSorted(p.Test) {
		t.Error("selection or test rows out of order")
	}
	union := slices.Sorted(slices.Values(append(slices.Clone(p.Selection), p.Test...)))
	if !slices.Equal(union, whole.Test) {
		t.Errorf("selection (%d) and test rows (%d) do not partition the test part (%d)", len(p.Selection), len(p.Test), len(whole.Test))
	}
	var cells, sel [4]int
	for _, i := range whole.Test {
		cells[2*int(d.Y[i])+int(d.A[i])]++
	}
	for _, i := range p.Selection {
		sel[2*int(d.Y[i])+int(d.A[i])]++
	}
	for k := range cells {
		if want := int(math.Round(0.5 * float64(cells[k]))); sel[k] != want {
			t.Errorf("cell y=%d a=%d: %d of %d rows selected, want %d", k/2, k%2, sel[k], cells[k], want)
		}
	}
	// Settings that do not draw the split leave the selection rows alone.
	other := c
	other.Method, other.Lambdas, other.Epochs, other.ValFraction, other.Lockstep, other.Dropout = "linear", "log:8", 50, 0.2, true, 0.1
	q, err := runfolder.PartsOf(other, d, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(q.Selection, p.Selection) || !slices.Equal(q.Test, p.Test) {
		t.Error("the selection rows depend on settings other than the seed, the split and the share")
	}
	if q, _ := runfolder.PartsOf(c, d, 1); slices.Equal(q.Selection, p.Selection) {
		t.Error("splits 0 and 1 select the same rows")
	}
	// A share that leaves a part empty is refused in one line.
	small := c
	small.TestSize, small.SelectFraction = 2, 0.5
	if _, err := runfolder.PartsOf(small, d, 0); err == nil || !strings.Contains(err.Error(), "select fraction") {
		t.Errorf("two test rows split in halves: err = %v", err)
	}
	// So is one that leaves a part without one of the groups.
	small.TestSize, small.SelectFraction = 8, 0.2
	if _, err := runfolder.PartsOf(small, d, 0); err == nil || !strings.Contains(err.Error(), "each part needs both groups") {
		t.Errorf("eight test rows, a fifth selected: err = %v", err)
	}
}

// runTo runs c into a fresh folder and returns it with its records by λ.
func runTo(t *testing.T, c experiments.Config) (string, map[float64]records.Record) {
	t.Helper()
	dir := t.TempDir()
	if err := runSweep(c, dir); err != nil {
		t.Fatal(err)
	}
	recs, err := records.Read(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	by := map[float64]records.Record{}
	for _, r := range recs {
		by[r.Lambda] = r
	}
	return dir, by
}

// The selection share changes no draw but its own: the networks, their
// training metrics and the propensity model are those of a run without
// selection rows; the test rows are fewer by the selection rows; and the
// selection metrics are those of the stored network on the selection rows.
func TestSelectFractionChangesNoOtherDraw(t *testing.T) {
	dir0, recs0 := runTo(t, tinySelection(0))
	dir5, recs5 := runTo(t, tinySelection(0.5))
	if len(recs0) != 2 || len(recs5) != 2 {
		t.Fatalf("%d and %d records, want 2 each", len(recs0), len(recs5))
	}
	for l, r0 := range recs0 {
		r5 := recs5[l]
		if r0.HasSelection() {
			t.Errorf("λ = %g: selection metrics without selection rows", l)
		}
		if !r5.HasSelection() || r5.NSel == 0 || r5.NSel+r5.NTest != r0.NTest {
			t.Fatalf("λ = %g: n_sel %v + n_test %d, want %d test rows in all", l, r5.Selection, r5.NTest, r0.NTest)
		}
		if r0.TrainR != r5.TrainR || r0.TrainU != r5.TrainU || r0.RMin != r5.RMin || r0.UMax != r5.UMax || r0.NTrain != r5.NTrain ||
			r0.PropTemperature != r5.PropTemperature || !slices.Equal(r0.PropQ, r5.PropQ) {
			t.Errorf("λ = %g: training or propensity numbers differ with selection rows", l)
		}
		f0, err := model.Load(filepath.Join(dir0, r0.Weights))
		if err != nil {
			t.Fatal(err)
		}
		f5, err := model.Load(filepath.Join(dir5, r5.Weights))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(f0.Weights, f5.Weights) || !reflect.DeepEqual(f0.Biases, f5.Biases) {
			t.Errorf("λ = %g: the network differs with selection rows", l)
		}

		// Recomputed from the stored network: the test metrics on the
		// remaining rows, the selection metrics on the selection rows.
		ts, err := runfolder.LoadTestSplit(dir5, 0)
		if err != nil {
			t.Fatal(err)
		}
		p, err := runfolder.LoadPredictions(dir5, &r5)
		if err != nil {
			t.Fatal(err)
		}
		if p.Selection == nil || len(p.Selection.P) != r5.NSel || len(ts.SelectionRows) != r5.NSel || len(p.P) != r5.NTest || len(ts.Rows) != r5.NTest {
			t.Fatalf("λ = %g: rebuilt parts do not match the record's n_test %d and n_sel %d", l, r5.NTest, r5.NSel)
		}
		for _, part := range []struct {
			name      string
			pr        *runfolder.Predictions
			e         []float64
			risk, acc float64
			ato, dp   float64
			eo, eopp  float64
		}{
			{"test", p, ts.Propensity, r5.Risk, r5.Accuracy, r5.ATO, r5.DP, r5.EO, r5.EOpp},
			{"selection", p.Selection, ts.SelectionPropensity, r5.SelRisk, r5.SelAccuracy, r5.SelATO, r5.SelDP, r5.SelEO, r5.SelEOpp},
		} {
			g, w, err := fairness.Binary(part.pr.A, part.e)
			if err != nil {
				t.Fatal(err)
			}
			m, err := fairness.Evaluate(part.pr.P, part.pr.Y, g, w)
			if err != nil {
				t.Fatal(err)
			}
			got := []float64{m.Risk, m.Accuracy, m.ATO, m.DP, m.EO, m.EOpp}
			want := []float64{part.risk, part.acc, part.ato, part.dp, part.eo, part.eopp}
			for k := range got {
				if math.Abs(got[k]-want[k]) > 1e-9 {
					t.Errorf("λ = %g, %s rows: recomputed %v, recorded %v", l, part.name, got, want)
					break
				}
			}
		}
	}
	b0, err := os.ReadFile(runfolder.PropensityPath(dir0, 0))
	if err != nil {
		t.Fatal(err)
	}
	b5, err := os.ReadFile(runfolder.PropensityPath(dir5, 0))
	if err != nil {
		t.Fatal(err)
	}
	// The file names the run's configuration, which the fraction is part
	// of; the model itself must be the same.
	var p0, p5 runfolder.PropensityFile
	if err := json.Unmarshal(b0, &p0); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b5, &p5); err != nil {
		t.Fatal(err)
	}
	if p0.Config == p5.Config {
		t.Error("the two runs' propensity files name one configuration")
	}
	p0.Config, p5.Config = "", ""
	j0, _ := json.Marshal(p0)
	j5, _ := json.Marshal(p5)
	if string(j0) != string(j5) {
		t.Error("the propensity model differs with selection rows")
	}
}

// The built-in datasets keep no selection rows by default: their records
// carry the keys of a committed record and no more, and the configuration
// digest of a committed folder is reproduced with the default share. A CSV
// keeps half of its test rows by default.
func TestDefaultSelectFraction(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "results", "compas", "cheb-ato-penultimate-lockstep.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	var committed map[string]any
	if err := json.Unmarshal([]byte(line), &committed); err != nil {
		t.Fatal(err)
	}
	c := tinySelection(experiments.SelectFractionAuto)
	c.Lockstep = true
	dir := t.TempDir()
	if err := runSweep(c, dir); err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	line, _, _ = strings.Cut(string(out), "\n")
	var got map[string]any
	if err := json.Unmarshal([]byte(line), &got); err != nil {
		t.Fatal(err)
	}
	keys := func(m map[string]any) []string {
		return slices.Sorted(func(yield func(string) bool) {
			for k := range m {
				if !yield(k) {
					return
				}
			}
		})
	}
	// Every key of the committed record, and besides those only the keys
	// added since for other features (the rows' identity, the constant
	// predictor's risk and error, the ATO's reliability, the decision
	// metrics, the majority decision's share): none of selection's.
	later := []string{"ato_reliable", "const_error", "const_risk", "data_id", "dp_diff", "dp_ratio", "eo_diff", "eopp_diff", "family", "majority_share"}
	want := slices.Sorted(slices.Values(append(keys(committed), later...)))
	if !slices.Equal(keys(got), want) {
		t.Errorf("record keys\n%v\nwant those of the committed record and %v\n%v", keys(got), later, want)
	}
	cfg, err := runfolder.ReadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.SelectFraction != 0 {
		t.Errorf("built-in dataset: select fraction %g, want 0", cfg.SelectFraction)
	}

	// The committed folder's digest, from its settings with the default
	// share.
	stored, err := experiments.ReadConfig(filepath.Join("..", "results", "compas", "dist-run"))
	if err != nil {
		t.Fatal(err)
	}
	again := stored
	again.SelectFraction = experiments.SelectFractionAuto
	resolved, err := again.Resolved(1000)
	if err != nil {
		t.Fatal(err)
	}
	if resolved.Digest() != stored.Digest() {
		t.Errorf("default share: digest %s, the committed folder's %s", resolved.Digest(), stored.Digest())
	}

	csv := tinySelection(experiments.SelectFractionAuto)
	csv.Dataset, csv.CSV, csv.Target, csv.Sensitive = "", "x.csv", "y", "a"
	if r, err := csv.Resolved(1000); err != nil || r.SelectFraction != experiments.DefaultSelectFraction {
		t.Errorf("CSV: select fraction %g (%v), want %g", r.SelectFraction, err, experiments.DefaultSelectFraction)
	}
	bad := tinySelection(1)
	if _, err := bad.Resolved(1000); err == nil || !strings.Contains(err.Error(), "select_fraction") {
		t.Errorf("select fraction 1: err = %v, want a refusal naming select_fraction", err)
	}
}

// The overlap summary of a split with selection rows describes them too,
// from as many rows as the records' n_sel, and its records carry the
// judgement made on both sets of rows.
func TestSelectionOverlapIsStored(t *testing.T) {
	dir := t.TempDir()
	if err := runSweep(tinySelection(0.5), dir); err != nil {
		t.Fatal(err)
	}
	ovs, err := runfolder.ReadOverlaps(dir)
	if err != nil || len(ovs) != 1 {
		t.Fatalf("overlaps %v, %v", ovs, err)
	}
	o := ovs[0]
	if o.Test == nil || o.Selection == nil || o.ATOReliable == nil {
		t.Fatalf("summary without test or selection rows: %+v", o)
	}
	recs, _, err := runfolder.ReadAll([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if !r.HasSelection() || r.NSel != o.Selection.N1+o.Selection.N0 {
			t.Fatalf("record n_sel %d, summary's selection rows %d", r.NSel, o.Selection.N1+o.Selection.N0)
		}
		if r.ATOReliable == nil || *r.ATOReliable != *o.ATOReliable {
			t.Fatalf("record's ato_reliable %v, summary's %v", r.ATOReliable, *o.ATOReliable)
		}
	}
}
