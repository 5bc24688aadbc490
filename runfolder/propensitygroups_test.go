package runfolder

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/propensity"
	"github.com/fpareto/fp/propensity/propensityfit"
)

// A binary model's file is byte for byte what it was before models of
// several groups were stored beside it: no format key, no levels.
func TestPropensityBinaryFileBytesUnchanged(t *testing.T) {
	dir := t.TempDir()
	arch, _ := model.ParseArch("3x4")
	pm := &propensity.Model{Net: model.Init(arch, 2, rand.New(rand.NewPCG(1, 2))), T: 1.25}
	std := &datasets.Standardizer{Mean: []float64{1, 0.5}, SD: []float64{2, 0.5}}
	enc := &PropensityEncoding{Features: []string{"x", "z"}, Std: std, Config: "abc"}
	// The layout of the file before the format and levels keys.
	type before struct {
		T       float64     `json:"temperature"`
		Split   *int        `json:"split,omitempty"`
		Config  string      `json:"config,omitempty"`
		Network *model.File `json:"network"`
	}
	for _, e := range []*PropensityEncoding{nil, enc} {
		if err := WritePropensity(dir, 3, pm, e); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(PropensityPath(dir, 3))
		if err != nil {
			t.Fatal(err)
		}
		old := before{T: pm.T, Network: model.NewFile(pm.Net, nil, nil, nil)}
		if e != nil {
			m := 3
			old.Split, old.Config = &m, e.Config
			old.Network.Features, old.Network.Mean, old.Network.SD = e.Features, e.Std.Mean, e.Std.SD
		}
		want, err := json.Marshal(old)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("encoding %v: file\n%s\nwant\n%s", e != nil, got, want)
		}
	}
}

func groupsModel(t *testing.T, dim, groups int) *propensity.Multinomial {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, uint64(groups)))
	n := 40
	x, a := make([]float64, n*dim), make([]int, n)
	for i := range a {
		a[i] = i % groups
		for j := 0; j < dim; j++ {
			x[i*dim+j] = rng.NormFloat64() + float64(a[i]*j)
		}
	}
	cfg := propensityfit.DefaultConfig()
	cfg.Arch, cfg.Epochs = model.Arch{Layers: 2, Hidden: 3}, 2
	pm, _, err := propensityfit.FitMultinomial(t.Context(), x, n, dim, a, groups, cfg, rng)
	if err != nil {
		t.Fatal(err)
	}
	return pm
}

// A model of several groups is stored in the same file and read back as
// it was; each kind of file is refused by the other's reader, naming it.
func TestPropensityGroupsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	if pm, levels, err := ReadPropensityGroups(dir, 0); pm != nil || levels != nil || err != nil {
		t.Fatalf("none stored: %v, %v, %v", pm, levels, err)
	}
	pm := groupsModel(t, 3, 4)
	levels := []string{"African-American", "Caucasian", "Hispanic", "other"}
	if err := WritePropensityGroups(dir, 0, pm, levels, nil); err != nil {
		t.Fatal(err)
	}
	got, gotLevels, err := ReadPropensityGroups(dir, 0)
	if err != nil || !reflect.DeepEqual(got, pm) || !reflect.DeepEqual(gotLevels, levels) {
		t.Fatalf("read back %+v, %v, %v; want %+v, %v", got, gotLevels, err, pm, levels)
	}
	if T, ok := PropensityTemperature(dir, 0); !ok || T != pm.T {
		t.Errorf("temperature %v, %v; want %v", T, ok, pm.T)
	}
	if _, err := ReadPropensity(dir, 0); err == nil || !strings.Contains(err.Error(), "holds the propensity model of 4 groups (African-American, Caucasian, Hispanic, other), not of two") {
		t.Errorf("read as binary: %v", err)
	}
	arch, _ := model.ParseArch("2x3")
	if err := WritePropensity(dir, 1, &propensity.Model{Net: model.Init(arch, 3, rand.New(rand.NewPCG(1, 1))), T: 1}, nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadPropensityGroups(dir, 1); err == nil || !strings.Contains(err.Error(), "split-001") || !strings.Contains(err.Error(), "of two groups, not of several") {
		t.Errorf("binary read as groups: %v", err)
	}

	for _, tc := range []struct {
		name   string
		levels []string
		want   string
	}{
		{"too few levels", levels[:3], "3 group levels for a model of 4 groups"},
		{"repeated level", []string{"a", "b", "a", "c"}, "want 4 distinct, non-empty names"},
		{"empty level", []string{"a", "b", "", "c"}, "want 4 distinct, non-empty names"},
	} {
		if err := WritePropensityGroups(dir, 2, pm, tc.levels, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("write, %s: %v, want %q", tc.name, err, tc.want)
		}
	}

	good, err := os.ReadFile(PropensityPath(dir, 0))
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(m map[string]any)) string {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, _ := json.Marshal(m)
		return string(b)
	}
	if err := os.MkdirAll(SplitDir(dir, 2), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, content, want string }{
		{"unknown format", edit(func(m map[string]any) { m["format"] = "fp-propensity-groups/9" }), `propensity file format "fp-propensity-groups/9"`},
		{"levels", edit(func(m map[string]any) { m["levels"] = []string{"a", "b"} }), "2 group levels for a model of 4 groups"},
		{"zero temperature", edit(func(m map[string]any) { m["temperature"] = 0 }), "temperature 0"},
		{"plain network", edit(func(m map[string]any) { m["network"].(map[string]any)["format"] = model.FileFormat }), `want "fp-softmax-network/1"`},
		{"short output", edit(func(m map[string]any) {
			w := m["network"].(map[string]any)["weights"].([]any)
			w[1] = w[1].([]any)[:8]
		}), `"weights[1]": 8 values, want 3×4`},
	} {
		if err := os.WriteFile(PropensityPath(dir, 2), []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := ReadPropensityGroups(dir, 2); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "split-002") || !strings.Contains(err.Error(), "delete it to refit") {
			t.Errorf("%s: err = %v, want one naming the file and %q", tc.name, err, tc.want)
		}
	}
}

// The file of a model of several groups scores raw rows: with its own
// encoding, or borrowing a network file's; PredictGroups standardizes the
// rows as the training split was and gives R propensities per row.
func TestReadPropensityFileGroups(t *testing.T) {
	dir := t.TempDir()
	pm := groupsModel(t, 2, 3)
	levels := []string{"A", "B", "C"}
	schema := &datasets.Schema{Columns: []datasets.SourceColumn{{Name: "x", Kind: datasets.KindNumeric},
		{Name: "c", Kind: datasets.KindCategorical, Levels: []string{"p", "q"}, Dropped: "p"}},
		Target: "y", TargetPositive: "1", Sensitive: "a", SensitivePositive: "1"}
	std := &datasets.Standardizer{Mean: []float64{1, 0.5}, SD: []float64{2, 0}}
	arch, _ := model.ParseArch("2x3")
	net := model.NewFile(model.Init(arch, 2, rand.New(rand.NewPCG(3, 4))), []string{"x", "c=q"}, std.Mean, std.SD)
	net.Schema, net.Card = schema, &model.Card{Split: 2, Config: "abc"}
	raw := []float64{3, 1, -1, 0}
	standardized := []float64{1, 0, -1, 0} // c=q has sd 0: always 0
	want := pm.Predict(standardized, 2)

	for _, tc := range []struct {
		name     string
		enc      *PropensityEncoding
		borrowed bool
	}{
		{"own encoding", &PropensityEncoding{Schema: schema, Features: []string{"x", "c=q"}, Std: std, Config: "abc"}, false},
		{"borrowed", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := WritePropensityGroups(dir, 2, pm, levels, tc.enc); err != nil {
				t.Fatal(err)
			}
			pf, err := ReadPropensityFile(PropensityPath(dir, 2), net)
			if err != nil || pf.Borrowed != tc.borrowed || !reflect.DeepEqual(pf.Levels, levels) || !reflect.DeepEqual(pf.Network.Schema, schema) {
				t.Fatalf("%+v, %v", pf, err)
			}
			got, err := pf.PredictGroups(raw, 2)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if math.Abs(got[i]-want[i]) > 1e-15 {
					t.Fatalf("propensities %v, want %v", got, want)
				}
			}
			if _, err := pf.PredictGroups(raw[:3], 2); err == nil || !strings.Contains(err.Error(), "3 values for 2 rows of 2 inputs") {
				t.Errorf("short rows: %v", err)
			}
		})
	}
	if err := WritePropensityGroups(dir, 2, pm, levels, &PropensityEncoding{Schema: schema, Features: []string{"x", "c=q"}, Std: std, Config: "abc"}); err != nil {
		t.Fatal(err)
	}
	other := *net
	other.Card = &model.Card{Split: 1, Config: "abc"}
	if _, err := ReadPropensityFile(PropensityPath(dir, 2), &other); err == nil || !strings.Contains(err.Error(), "the network is of split 1") {
		t.Errorf("another split: %v", err)
	}

	binary := &propensity.Model{Net: model.Init(arch, 2, rand.New(rand.NewPCG(1, 1))), T: 1}
	if err := WritePropensity(dir, 2, binary, nil); err != nil {
		t.Fatal(err)
	}
	pf, err := ReadPropensityFile(PropensityPath(dir, 2), net)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pf.PredictGroups(raw, 2); err == nil || !strings.Contains(err.Error(), "of two groups") {
		t.Errorf("a binary model's file: %v", err)
	}
}
