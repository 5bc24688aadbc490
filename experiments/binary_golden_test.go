package experiments_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
)

// Sweeps of a sensitive attribute of two groups keep every record key and
// value of the binary code (train_seconds aside): the records of a small
// COMPAS sweep and of a CSV sweep, each line without train_seconds, sorted,
// hash to the fingerprints of the same sweeps before sensitive attributes
// of more than two groups could train.
func TestBinaryRecordsUnchanged(t *testing.T) {
	if testing.Short() {
		t.Skip("trains two small sweeps")
	}
	csv := filepath.Join(t.TempDir(), "two.csv")
	var b strings.Builder
	b.WriteString("x1,x2,cat,g,y\n")
	for i := range 400 {
		// A deterministic mix in which g and the features go with y.
		g := "F"
		if (i*7)%11 < 5 {
			g = "M"
		}
		x1 := float64((i*37)%101) / 10
		x2 := float64((i*53)%97) / 7
		y := 0
		if x1+x2/2+float64(len(g))*float64(i%3) > 8 {
			y = 1
		}
		fmt.Fprintf(&b, "%g,%g,%c,%s,%d\n", x1, x2, "abc"[i%3], g, y)
	}
	if err := os.WriteFile(csv, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		edit func(*experiments.Config)
		want string
	}{
		{"compas", func(c *experiments.Config) {
			c.Splits, c.Epochs, c.PropensityEpochs, c.Lambdas = 2, 3, 3, "0,0.25,0.5,1"
		}, goldenCOMPAS},
		{"csv", func(c *experiments.Config) {
			c.Dataset, c.CSV, c.Target, c.Sensitive = "", csv, "y", "g"
			c.Splits, c.Epochs, c.PropensityEpochs, c.Lambdas = 2, 4, 3, "0,0.5,1"
			c.Engine, c.Lockstep, c.Method = "backprop", true, experiments.MethodLinear
		}, goldenCSV},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := experiments.DefaultConfig()
			c.Workers = 2
			tc.edit(&c)
			out := filepath.Join(t.TempDir(), "run")
			if err := runSweep(c, out); err != nil {
				t.Fatal(err)
			}
			// The configuration's digest holds the CSV's path, a temporary
			// folder: the CSV's records are compared without it.
			if got := recordsFingerprint(t, out, tc.name == "csv"); got != tc.want {
				t.Errorf("records fingerprint %s, want %s (the records of two groups changed)", got, tc.want)
			}
		})
	}
}

// The fingerprints of TestBinaryRecordsUnchanged's sweeps, made by the code
// that trained two groups only.
const (
	goldenCOMPAS = "0e1f2cf3f5143797"
	goldenCSV    = "eb313906d3e97249"
)

var (
	trainSeconds = regexp.MustCompile(`"train_seconds":[^,}]*,?`)
	configDigest = regexp.MustCompile(`"config":"[0-9a-f]*",?`)
	// The keys added since the fingerprints were taken (the decision
	// metrics, the constant predictor's error and the majority decision's
	// share, the family of methods): every value the fingerprints cover is
	// still compared.
	laterKeys = regexp.MustCompile(`"(sel_)?(dp_diff|dp_ratio|eo_diff|eopp_diff|const_error|majority_share|family)":[^,}]*,?`)
)

// recordsFingerprint is the SHA-256 of a run's record lines, train_seconds
// removed (and the configuration's digest when noConfig), sorted.
func recordsFingerprint(t *testing.T, dir string, noConfig bool) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	var lines []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			l = trainSeconds.ReplaceAllString(l, "")
			l = laterKeys.ReplaceAllString(l, "")
			if noConfig {
				l = configDigest.ReplaceAllString(l, "")
			}
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		t.Fatalf("%s: no records", dir)
	}
	sort.Strings(lines)
	h := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(h[:8])
}
