package model_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/model"
)

// goodFile is a small network of two raw columns (age numeric, sex
// categorical with one level dropped), as training writes it.
func goodFile() *model.File {
	p := &model.Params{Arch: model.Arch{Layers: 2, Hidden: 2}, Dim: 2,
		W: [][]float64{{1, -1, 2, 0.5}, {3, -2}}, B: [][]float64{{0, -1}, {0.5}}}
	f := model.NewFile(p, []string{"age", "sex=M"}, []float64{40, 0.5}, []float64{10, 0.5})
	f.Schema = &datasets.Schema{
		Columns: []datasets.SourceColumn{
			{Name: "age", Kind: datasets.KindNumeric},
			{Name: "sex", Kind: datasets.KindCategorical, Levels: []string{"F", "M"}, Dropped: "F"},
		},
		Target: "y", TargetPositive: "1", Sensitive: "race", SensitivePositive: "b",
	}
	f.Card = &model.Card{Dataset: "d.csv", Lambda: 0.5}
	return f
}

// A network file damaged in any member the scorer, the exporter or the
// schema's and card's readers use is refused by Load in one line that names
// the file, the member and what to do; never a panic, never scores from a
// file missing its standardization.
func TestLoadRefusesDamagedFiles(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(m map[string]any)
		field string
	}{
		{"sd deleted", func(m map[string]any) { delete(m, "sd") }, `"sd"`},
		{"mean deleted", func(m map[string]any) { delete(m, "mean") }, `"mean"`},
		{"mean short", func(m map[string]any) { m["mean"] = []float64{1} }, `"mean"`},
		{"sd negative", func(m map[string]any) { m["sd"] = []float64{1, -2} }, `"sd[1]"`},
		{"features short", func(m map[string]any) { m["features"] = []string{"age"} }, `"features"`},
		{"features renamed", func(m map[string]any) { m["features"] = []string{"age", "sex=F"} }, `"features"`},
		{"layer short", func(m map[string]any) { m["weights"] = [][]float64{{1, 2, 3}, {3, -2}} }, `"weights[0]"`},
		{"bias deleted", func(m map[string]any) { delete(m, "biases") }, `"weights"`},
		{"output bias deleted", func(m map[string]any) { m["biases"] = [][]float64{{0, -1}, {}} }, `"biases[1]"`},
		{"huge arch", func(m map[string]any) { m["arch"] = "2x1000000000" }, `"arch"`},
		{"many layers", func(m map[string]any) { m["arch"] = "1000000000x2" }, `"weights"`},
		{"huge dim", func(m map[string]any) { m["dim"] = 1 << 40 }, `"dim"`},
		{"zero dim", func(m map[string]any) { m["dim"] = 0 }, `"dim"`},
		{"bad arch", func(m map[string]any) { m["arch"] = "four" }, `"arch"`},
		{"schema target", func(m map[string]any) { delete(m["schema"].(map[string]any), "target") }, `"schema.target"`},
		{"schema level twice", func(m map[string]any) {
			m["schema"].(map[string]any)["columns"].([]any)[1].(map[string]any)["levels"] = []string{"M", "M"}
		}, `"schema"`},
		{"schema dropped unknown", func(m map[string]any) {
			m["schema"].(map[string]any)["columns"].([]any)[1].(map[string]any)["dropped"] = "X"
		}, `"schema"`},
		{"card groups without columns", func(m map[string]any) {
			m["card"].(map[string]any)["levels"] = []string{"a", "b", "c"}
		}, `"card.levels"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(goodFile())
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			tc.edit(m)
			if b, err = json.Marshal(m); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "net.json")
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = model.Load(path)
			if err == nil {
				t.Fatal("loaded")
			}
			msg := err.Error()
			if !errors.Is(err, model.ErrDamaged) || !strings.Contains(msg, path) || !strings.Contains(msg, tc.field) ||
				!strings.Contains(msg, "train the network again") || strings.Contains(msg, "\n") {
				t.Errorf("error %q: want one line naming %s, field %s and what to do", msg, path, tc.field)
			}
		})
	}
}

// The undamaged file loads and scores as the standardization says.
func TestLoadKeepsGoodFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "net.json")
	if err := model.Save(path, goodFile()); err != nil {
		t.Fatal(err)
	}
	f, err := model.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	// x = (50, 1) standardizes to (1, 1): h = relu(1+2, −1+0.5−1) = (3, 0), z = 9.5.
	z, err := f.Logits([]float64{50, 1}, 1)
	if err != nil || z[0] != 9.5 {
		t.Errorf("logit %v, %v; want 9.5", z, err)
	}
}
