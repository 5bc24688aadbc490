package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// A thresholds candidate decides with its group: fp predict refuses it
// without the sensitive column and refuses --threshold, each in one line,
// and with the column writes decision, which fp audit --decision turns
// back into the record's accuracy and decision metrics to 1e-9; fp export
// refuses it in one line. For two groups (DP and EO, the latter
// randomized) and four (compas-race4).
func TestThresholdsCandidatesPredictAndAudit(t *testing.T) {
	for _, tc := range []struct {
		name, dataset, constraint string
	}{
		{"compas dp", "compas", "dp"},
		{"compas eo", "compas", "eo"},
		{"four groups dp", "compas-race4", "dp"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := experiments.DefaultConfig()
			cfg.Dataset, cfg.Method, cfg.Constraint = tc.dataset, experiments.MethodThresholds, tc.constraint
			cfg.Splits, cfg.Lambdas, cfg.Epochs, cfg.PropensityEpochs = 1, "0,0.5,0.9", 30, 5
			cfg.Engine, cfg.Workers = "backprop", 1
			out := filepath.Join(t.TempDir(), "run")
			runner, err := experiments.NewRunner(cfg, out, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := runner.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			runner.Close()

			// The split's test rows as the original file has them, and
			// the same without the sensitive column.
			dir := t.TempDir()
			rows := filepath.Join(dir, "rows.csv")
			if _, stderr, err := runFP(t, "datasets", "export", tc.dataset, "--run", out, "--split", "0", "--part", "test", "--out", rows); err != nil {
				t.Fatalf("datasets export: %v: %s", err, stderr)
			}
			cfgRead, err := runfolder.ReadConfig(out)
			if err != nil {
				t.Fatal(err)
			}
			sens := cfgRead.Coding.Sensitive
			noGroup := filepath.Join(dir, "no-group.csv")
			dropColumn(t, rows, noGroup, sens)
			groupCol := "a_coded"
			if tc.dataset == "compas-race4" {
				groupCol = "group_coded"
			}

			recs := readRecords(t, out)
			if len(recs) != 4 { // the grid and λ = 0 and 1
				t.Fatalf("%d records, want 4", len(recs))
			}
			for _, rec := range recs {
				if !rec.OK() || rec.Family() != records.FamilyThresholds || !rec.UsesSensitive || rec.FamilyName == "" {
					t.Fatalf("%s: status %s, family %q, uses_sensitive %v", rec.Key(), rec.Status, rec.FamilyName, rec.UsesSensitive)
				}
				model := filepath.Join(out, rec.Weights)
				for _, r := range []struct {
					args []string
					want string
				}{
					{[]string{"predict", "--model", model, "--data", noGroup, "--out", filepath.Join(t.TempDir(), "x.csv")}, `no column "` + sens + `"`},
					{[]string{"predict", "--model", model, "--data", rows, "--threshold", "0.4", "--out", filepath.Join(t.TempDir(), "x.csv")}, "--threshold"},
					{[]string{"export", "--model", model, "--out", filepath.Join(t.TempDir(), "x.onnx")}, "carries no group"},
				} {
					_, stderr, err := runFP(t, r.args...)
					if err == nil {
						t.Fatalf("fp %s: no error", strings.Join(r.args, " "))
					}
					msg := strings.TrimSpace(stderr + err.Error())
					if !strings.Contains(msg, r.want) || strings.Contains(msg, "\n") {
						t.Errorf("fp %s: %q, want one line with %q", r.args[0], msg, r.want)
					}
				}
				scored := filepath.Join(t.TempDir(), "scored.csv")
				if _, stderr, err := runFP(t, "predict", "--model", model, "--data", rows, "--out", scored, "--keep-coded"); err != nil {
					t.Fatalf("predict: %v: %s", err, stderr)
				}
				stdout, stderr, err := runFP(t, "audit", "--data", scored, "--decision", "decision", "--label", "y_coded", "--group", groupCol, "--json")
				if err != nil {
					t.Fatalf("audit: %v: %s", err, stderr)
				}
				var got struct {
					N        int
					Accuracy float64
					DPDiff   float64 `json:"dp_diff"`
					DPRatio  float64 `json:"dp_ratio"`
					EODiff   float64 `json:"eo_diff"`
					EOppDiff float64 `json:"eopp_diff"`
				}
				if err := json.Unmarshal([]byte(stdout), &got); err != nil {
					t.Fatal(err)
				}
				if got.N != rec.NTest {
					t.Fatalf("%s: audit of %d rows, want %d", rec.Key(), got.N, rec.NTest)
				}
				for _, c := range []struct {
					name      string
					got, want float64
				}{
					{"accuracy", got.Accuracy, rec.Accuracy}, {"dp_diff", got.DPDiff, rec.DPDiff},
					{"dp_ratio", got.DPRatio, rec.DPRatio}, {"eo_diff", got.EODiff, rec.EODiff},
					{"eopp_diff", got.EOppDiff, rec.EOppDiff},
				} {
					if math.Abs(c.got-c.want) > 1e-9 {
						t.Errorf("%s: %s %v, record %v", rec.Key(), c.name, c.got, c.want)
					}
				}
			}
		})
	}
}

// dropColumn copies the CSV in to out without the column name.
func dropColumn(t *testing.T, in, out, name string) {
	t.Helper()
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	k := slices.Index(rows[0], name)
	if k < 0 {
		t.Fatalf("%s: no column %q", in, name)
	}
	var b strings.Builder
	w := csv.NewWriter(&b)
	for _, r := range rows {
		_ = w.Write(slices.Delete(r, k, k+1))
	}
	w.Flush()
	if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
