package runfolder

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

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
