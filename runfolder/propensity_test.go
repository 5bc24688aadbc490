package runfolder

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/propensity"
)

func TestPropensityRoundTrip(t *testing.T) {
	dir := t.TempDir()
	if pm, err := ReadPropensity(dir, 0); pm != nil || err != nil {
		t.Fatalf("none stored: %v, %v; want nil and no error", pm, err)
	}
	if _, ok := PropensityTemperature(dir, 0); ok {
		t.Error("none stored: a temperature was read")
	}
	arch, err := model.ParseArch("2x3")
	if err != nil {
		t.Fatal(err)
	}
	want := &propensity.Model{Net: model.Init(arch, 4, rand.New(rand.NewPCG(1, 2))), T: 1.7}
	if err := WritePropensity(dir, 0, want, nil); err != nil {
		t.Fatal(err)
	}
	got, err := ReadPropensity(dir, 0)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("read back %+v, %v; want %+v", got, err, want)
	}
	if T, ok := PropensityTemperature(dir, 0); !ok || T != 1.7 {
		t.Errorf("temperature %v, %v; want 1.7", T, ok)
	}

	if err := os.MkdirAll(SplitDir(dir, 1), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, content, want string }{
		{"not JSON", "{", "not a propensity model (delete it to refit)"},
		{"no network", `{"temperature": 1}`, "not a propensity model (delete it to refit)"},
		{"a temperature of 0", `{"temperature": 0, "network": ` + networkJSON(t, want.Net) + `}`, "temperature 0"},
	} {
		if err := os.WriteFile(PropensityPath(dir, 1), []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadPropensity(dir, 1); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "split-001") {
			t.Errorf("%s: err = %v, want one naming the file and %q", tc.name, err, tc.want)
		}
	}
}

func networkJSON(t *testing.T, p *model.Params) string {
	t.Helper()
	b, err := json.Marshal(model.NewFile(p, nil, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A propensity file written with its encoding scores raw rows on its own;
// an older one borrows the network file's; one of another split, run or
// width is refused, naming the file.
func TestReadPropensityFile(t *testing.T) {
	dir := t.TempDir()
	arch, _ := model.ParseArch("2x3")
	pm := &propensity.Model{Net: model.Init(arch, 2, rand.New(rand.NewPCG(1, 2))), T: 0.8}
	schema := &datasets.Schema{Columns: []datasets.SourceColumn{{Name: "x", Kind: datasets.KindNumeric},
		{Name: "c", Kind: datasets.KindCategorical, Levels: []string{"p", "q"}, Dropped: "p"}},
		Target: "y", TargetPositive: "1", Sensitive: "a", SensitivePositive: "1"}
	std := &datasets.Standardizer{Mean: []float64{1, 0.5}, SD: []float64{2, 0.5}}
	net := model.NewFile(model.Init(arch, 2, rand.New(rand.NewPCG(3, 4))), []string{"x", "c=q"}, std.Mean, std.SD)
	net.Schema, net.Card = schema, &model.Card{Split: 2, Config: "abc"}

	enc := &PropensityEncoding{Schema: schema, Features: []string{"x", "c=q"}, Std: std, Config: "abc"}
	if err := WritePropensity(dir, 2, pm, enc); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadPropensity(dir, 2); err != nil || !reflect.DeepEqual(got, pm) {
		t.Fatalf("a file with its encoding reads back as %+v, %v", got, err)
	}
	pf, err := ReadPropensityFile(PropensityPath(dir, 2), net)
	if err != nil || pf.Borrowed || *pf.Split != 2 || pf.T != 0.8 || !reflect.DeepEqual(pf.Network.Schema, schema) ||
		!reflect.DeepEqual(pf.Network.Mean, std.Mean) {
		t.Fatalf("with its encoding: %+v, %v", pf, err)
	}
	if err := WritePropensity(dir, 2, pm, nil); err != nil {
		t.Fatal(err)
	}
	pf, err = ReadPropensityFile(PropensityPath(dir, 2), net)
	if err != nil || !pf.Borrowed || pf.Split != nil || !reflect.DeepEqual(pf.Network.Schema, schema) || !reflect.DeepEqual(pf.Network.SD, std.SD) {
		t.Fatalf("older file: %+v, %v", pf, err)
	}

	other := *net
	other.Card = &model.Card{Split: 1, Config: "abc"}
	otherRun := *net
	otherRun.Card = &model.Card{Split: 2, Config: "def"}
	wide := *net
	wide.Dim, wide.Card = 3, nil
	bare := *net
	bare.Schema = nil
	for _, tc := range []struct {
		name string
		enc  *PropensityEncoding
		net  *model.File
		want string
	}{
		{"another split", enc, &other, "is the propensity model of split 2, the network is of split 1"},
		{"another run", enc, &otherRun, "of another run (configuration abc, the network's is def)"},
		{"another width", nil, &wide, "takes 2 inputs, the network 3"},
		{"nothing to borrow", nil, &bare, "holds no raw input schema and the network file has none to lend it"},
	} {
		if err := WritePropensity(dir, 2, pm, tc.enc); err != nil {
			t.Fatal(err)
		}
		_, err := ReadPropensityFile(PropensityPath(dir, 2), tc.net)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "split-002") {
			t.Errorf("%s: err = %v, want one naming the file and %q", tc.name, err, tc.want)
		}
	}
	if _, err := ReadPropensityFile(PropensityPath(dir, 7), net); err == nil || !strings.Contains(err.Error(), "split-007") {
		t.Errorf("a missing file: err = %v", err)
	}
	if err := WritePropensity(dir, 2, pm, &PropensityEncoding{Schema: schema, Features: []string{"x"}, Std: std}); err == nil {
		t.Error("an encoding of the wrong width was written")
	}
}

func TestNetworkPropensityPath(t *testing.T) {
	run := filepath.Join("runs", "demo")
	got, err := NetworkPropensityPath(filepath.Join(run, NetworkPath("cheb", "ato-penultimate", 12, 0.5)))
	if want := PropensityPath(run, 12); err != nil || got != want {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
	// A split's λ-conditioned network lies in networks/ itself.
	got, err = NetworkPropensityPath(filepath.Join(run, "networks", "split-007-conditioned.json"))
	if want := PropensityPath(run, 7); err != nil || got != want {
		t.Errorf("conditioned network: got %q, %v; want %q", got, err, want)
	}
	for _, p := range []string{"net.json", filepath.Join("x", "split-001", "net.json"), filepath.Join("networks", "split-x", "net.json"),
		filepath.Join("networks", "split-x-conditioned.json"), filepath.Join("networks", "split-007.json"), filepath.Join("x", "split-007-conditioned.json")} {
		if _, err := NetworkPropensityPath(p); err == nil || !strings.Contains(err.Error(), "--propensity-file") {
			t.Errorf("%s: err = %v", p, err)
		}
	}
}
