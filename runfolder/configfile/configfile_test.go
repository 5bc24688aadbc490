package configfile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/runfolder"
)

// trainKeys are the keys of a command whose flags are the settings' and
// two more, one with an alias.
func trainKeys() map[string]string {
	names := [][]string{{"config"}, {"quiet", "q"}, {"out"}}
	for _, s := range runfolder.Settings {
		names = append(names, []string{s.Flag})
	}
	return Keys(names)
}

// Every setting's flag and config.json key set that flag, the spellings
// config.json uses for renamed flags among them, and a derived key sets
// none.
func TestKeys(t *testing.T) {
	keys := trainKeys()
	for _, s := range runfolder.Settings {
		if keys[s.Key] != s.Flag || keys[s.Flag] != s.Flag {
			t.Errorf("setting --%s: keys %q and %q set --%s and --%s", s.Flag, s.Key, s.Flag, keys[s.Key], keys[s.Flag])
		}
	}
	for key := range derivedKeys {
		if _, ok := keys[key]; ok {
			t.Errorf("derived key %q sets --%s", key, keys[key])
		}
	}
	for key, flag := range map[string]string{"propensity_epochs": "propensity-epochs", "adv_epochs": "adv-rounds",
		"adv_beta_scale": "beta-scale", "csv": "data", "val_fraction": "val-fraction", "epochs": "epochs",
		"propensity-epochs": "propensity-epochs", "q": "quiet", "config": ""} {
		if keys[key] != flag {
			t.Errorf("key %q sets --%s, want --%s", key, keys[key], flag)
		}
	}
}

// readText writes text to a file named name in a new folder and reads it.
func readText(t *testing.T, name, text string) (*File, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return Read(path, trainKeys())
}

// aliasBomb is a YAML file of n levels, each a table of n aliases of the
// level below: n^n values once expanded, from a few hundred bytes.
func aliasBomb(n int) string {
	var b strings.Builder
	b.WriteString("l0: &l0 {x: 1}\n")
	for lv := 1; lv < n; lv++ {
		b.WriteString("l" + string(rune('0'+lv)) + ": &l" + string(rune('0'+lv)) + " {")
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("k" + string(rune('0'+i)) + ": *l" + string(rune('0'+lv-1)))
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// A file fp train cannot use is refused in one line that names the file,
// the line where the format gives one, and what is wrong, within bounded
// memory; one case per way a file goes wrong, in each format.
func TestReadRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, file, text string
		want             []string
	}{
		// Size and alias expansion.
		{"too large", "a.yaml", "# " + strings.Repeat("x", MaxBytes) + "\n", []string{"larger than 1048576 bytes"}},
		{"self-referring alias", "a.yaml", "a: &a {x: *a}\n", []string{"a.yaml: line 1: values nested more than 16 deep"}},
		{"alias bomb", "a.yaml", aliasBomb(9), []string{"aliases expand to more than"}},
		{"alias bomb of lists", "a.yaml", strings.ReplaceAll(strings.ReplaceAll(aliasBomb(9), "{", "["), "}", "]"), []string{"a.yaml"}},
		{"too many aliases", "a.yaml", "a: &a [x]\nb: [" + strings.Repeat("*a, ", 100) + "*a]\n", []string{"101 aliases, more than 100"}},
		// Keys that would otherwise be dropped.
		{"TOML dotted key", "a.toml", "propensity.epochs = 7\n", []string{`unknown key "propensity.epochs"`, "did you mean propensity-epochs?"}},
		{"TOML table", "a.toml", "[propensity]\nepochs = 7\n", []string{`unknown key "propensity.epochs"`}},
		{"YAML nested key", "a.yaml", "propensity:\n  epochs: 7\n", []string{"a.yaml:1", `unknown key "propensity.epochs"`}},
		{"second YAML document", "a.yaml", "epochs: 1\n---\nepochs: 2\n", []string{"a.yaml: line 3: a second YAML document"}},
		{"second empty YAML document", "a.yaml", "epochs: 1\n---\n", []string{"a second YAML document"}},
		// JSON read as JSON.
		{"JSON unknown key", "a.json", "{\n  \"epochs\": 3,\n  \"epoch\": 4\n}\n", []string{"a.json:3", `unknown key "epoch"`, "did you mean epochs?"}},
		{"JSON key twice", "a.json", `{"epochs": 3, "epochs": 4}`, []string{`key "epochs" given twice`}},
		{"JSON both spellings", "a.json", `{"propensity_epochs": 3, "propensity-epochs": 4}`, []string{`"propensity_epochs" and "propensity-epochs" both set --propensity-epochs`}},
		{"JSON in YAML syntax", "a.json", "epochs: 3\n", []string{"a.json: line 1", "invalid character"}},
		{"JSON two objects", "a.json", "{\"epochs\": 3}\n{\"splits\": 2}\n", []string{"a.json: line 2: more after the object"}},
		{"JSON not an object", "a.json", "[1, 2]", []string{"want a JSON object"}},
		{"JSON cut short", "a.json", "{\"epochs\": 3,\n", []string{"a.json: line 2"}},
		{"JSON nested too deep", "a.json", `{"coding": ` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "}", []string{"nested more than 16 deep"}},
		{"JSON coding key twice", "a.json", `{"coding": {"target": "y", "target": "z"}}`, []string{`coding: key "target" given twice`}},
		{"JSON null", "a.json", `{"epochs": null}`, []string{`key "epochs" has no value`}},
		// Keys given twice, in either spelling.
		{"YAML key twice", "a.yaml", "epochs: 3\nepochs: 4\n", []string{"a.yaml:2", `key "epochs" given twice`}},
		{"YAML both spellings", "a.yaml", "propensity_epochs: 3\npropensity-epochs: 4\n", []string{`"propensity_epochs" and "propensity-epochs" both set --propensity-epochs`}},
		{"TOML both spellings", "a.toml", "propensity_epochs = 3\n\"propensity-epochs\" = 4\n", []string{`both set --propensity-epochs`}},
		// Other shapes.
		{"no format", "a.txt", "epochs: 3\n", []string{"want a .yaml, .yml, .toml or .json file"}},
		{"TOML list", "a.toml", "lambdas = [0, 1]\n", []string{`key "lambdas" holds a list`}},
		{"TOML array of tables", "a.toml", "[[epochs]]\nx = 1\n[[epochs]]\nx = 2\n", []string{`key "epochs" holds a list`}},
		{"custom risk", "a.yaml", "risk: focal\n", []string{"risk", "built-in risk"}},
		{"data_id a list", "a.yaml", "data_id: [a]\n", []string{"data_id: want"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := readText(t, tc.file, tc.text)
			runtime.ReadMemStats(&after)
			if err == nil {
				t.Fatal("accepted")
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Errorf("error of more than one line: %q", err)
			}
			for _, w := range append(tc.want, tc.file) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if mb := float64(after.TotalAlloc-before.TotalAlloc) / (1 << 20); mb > 64 {
				t.Errorf("reading it allocated %.0f MB", mb)
			}
		})
	}
}

// /dev/zero, endless, is refused after MaxBytes.
func TestReadEndlessFile(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero on this system")
	}
	_, err := Read("/dev/zero", trainKeys())
	if err == nil || !strings.Contains(err.Error(), "/dev/zero: larger than 1048576 bytes") {
		t.Fatalf("err = %v", err)
	}
}

// The same settings in the three formats set the same flags to the same
// text, in the order of the file, with the line each is on.
func TestReadFormatsAgree(t *testing.T) {
	want := []Setting{
		{Key: "epochs", Flag: "epochs", Value: "3"},
		{Key: "lr", Flag: "lr", Value: "1e-05"},
		{Key: "lambdas", Flag: "lambdas", Value: "0,0.5,1"},
		{Key: "propensity_epochs", Flag: "propensity-epochs", Value: "7"},
		{Key: "lockstep", Flag: "lockstep", Value: "false"},
		{Key: "exclude", Flag: "exclude", Value: "a,b c"},
		{Key: "q", Flag: "quiet", Value: "true"},
	}
	texts := map[string]string{
		"a.yaml": "epochs: 3\nlr: 1e-05\nlambdas: \"0,0.5,1\"\npropensity_epochs: 7\nlockstep: false\nexclude: [a, b c]\nq: true\n",
		"a.json": "{\"epochs\": 3,\n\"lr\": 1e-05,\n\"lambdas\": \"0,0.5,1\",\n\"propensity_epochs\": 7,\n\"lockstep\": false,\n\"exclude\": [\"a\", \"b c\"],\n\"q\": true}\n",
		"a.toml": "epochs = 3\nlr = 1e-05\nlambdas = \"0,0.5,1\"\npropensity_epochs = 7\nlockstep = false\nexclude = [\"a\", \"b c\"]\nq = true\n",
	}
	for name, text := range texts {
		f, err := readText(t, name, text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i := range f.Sets {
			if !strings.HasPrefix(f.Sets[i].Where, "--config ") || name != "a.toml" && !strings.HasSuffix(f.Sets[i].Where, ":"+string(rune('1'+i))) {
				t.Errorf("%s: %s is at %s, want line %d", name, f.Sets[i].Key, f.Sets[i].Where, i+1)
			}
			f.Sets[i].Where = ""
		}
		if !reflect.DeepEqual(f.Sets, want) {
			t.Errorf("%s: %+v\nwant %+v", name, f.Sets, want)
		}
	}
}

// A run's config.json sets every setting: those it leaves out to their
// zero, with coding and data_id kept for Check.
func TestReadRunConfig(t *testing.T) {
	c := runfolder.Config{Dataset: "compas", Method: "chebyshev", Splits: 1, Seed: 5, Epochs: 2,
		Coding: &runfolder.Coding{Target: "y", TargetPositive: "1", Sensitive: "a", SensitivePositive: "b"}, DataID: "0123"}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	f, err := readText(t, runfolder.ConfigFile, string(b))
	if err != nil {
		t.Fatal(err)
	}
	set := map[string]string{}
	for _, s := range f.Sets {
		set[s.Flag] = s.Value
	}
	for _, s := range runfolder.Settings {
		if _, ok := set[s.Flag]; !ok && s.Key != "dataset" {
			t.Errorf("--%s not set", s.Flag)
		}
	}
	if set["epochs"] != "2" || set["lockstep"] != "false" || set["val-fraction"] != "0" {
		t.Errorf("epochs %q, lockstep %q, val-fraction %q", set["epochs"], set["lockstep"], set["val-fraction"])
	}
	if *f.Coding != *c.Coding || f.DataID != "0123" || !f.NeedsCheck() {
		t.Errorf("coding %+v, data_id %q", f.Coding, f.DataID)
	}
}

// Check refuses a coding or data_id that is not what the data gives.
func TestCheck(t *testing.T) {
	d := &datasets.Dataset{ID: "abc", Target: "y", LabelPositive: "1", Sensitive: "a", GroupPositive: "b"}
	good := runfolder.Coding{Target: "y", TargetPositive: "1", Sensitive: "a", SensitivePositive: "b"}
	bad := good
	bad.SensitivePositive = "c"
	for _, tc := range []struct {
		f    File
		want string
	}{
		{File{}, ""},
		{File{DataID: "abc", Coding: &good}, ""},
		{File{DataID: "abd"}, "data_id abd is not the identity of these rows (abc)"},
		{File{Coding: &bad}, `a = 1 means a = "c", but the data codes y = "1" and a = "b"`},
	} {
		err := tc.f.Check(d)
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want %q", tc.f, err, tc.want)
		}
	}
}

// A list of column names in a config file reaches the flag as the flag
// reads it: a name holding a comma stays one name.
func TestReadListWithComma(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(path, []byte("exclude: [\"inc,high\", b]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Read(path, trainKeys())
	if err != nil || len(f.Sets) != 1 {
		t.Fatalf("%+v, %v", f, err)
	}
	got, err := runfolder.ParseList(f.Sets[0].Value)
	if err != nil || len(got) != 2 || got[0] != "inc,high" || got[1] != "b" {
		t.Errorf("exclude %q read back as %q (%v), want [inc,high b]", f.Sets[0].Value, got, err)
	}
}
