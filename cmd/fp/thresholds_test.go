package main

import (
	"encoding/csv"
	"encoding/json"
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
			out, recs := smallSweep(t, func(cfg *experiments.Config) {
				cfg.Dataset, cfg.Method, cfg.Constraint = tc.dataset, experiments.MethodThresholds, tc.constraint
				cfg.Lambdas, cfg.PropensityEpochs = "0,0.5,0.9", 5
			})

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
				got := auditJSON(t, "--data", scored, "--decision", "decision", "--label", "y_coded", "--group", groupCol)
				if got.N != rec.NTest {
					t.Fatalf("%s: audit of %d rows, want %d", rec.Key(), got.N, rec.NTest)
				}
				got.checkDecisions(t, rec, 1e-9)
			}
			frontIntervals(t, out, recs)
			pickAgainstError(t, out)
		})
	}
}

// frontIntervals checks that fp front --ci --json, in the error against
// dp-diff, gives each group-thresholds candidate on the front the
// intervals of its rules' decisions, holding its recorded values.
func frontIntervals(t *testing.T, run string, recs []records.Record) {
	t.Helper()
	stdout, stderr, err := runFP(t, "front", run, "--axis", "error", "--metric", "dp-diff", "--ci", "--ci-resamples", "200", "--json")
	if err != nil {
		t.Fatalf("front --ci: %v: %s", err, stderr)
	}
	var res struct {
		Front []struct {
			Lambda        float64     `json:"lambda"`
			Accuracy      float64     `json:"accuracy"`
			DPDiff        float64     `json:"dp_diff"`
			UsesSensitive bool        `json:"uses_sensitive"`
			AccuracyCI    *[2]float64 `json:"accuracy_ci"`
			DPDiffCI      *[2]float64 `json:"dp_diff_ci"`
			EODiffCI      *[2]float64 `json:"eo_diff_ci"`
			Note          string      `json:"ci_note"`
		} `json:"front"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("front --ci --json: %v", err)
	}
	if len(res.Front) == 0 || len(res.Front) > len(recs) {
		t.Fatalf("front --ci --json: %d candidates on the front of %d", len(res.Front), len(recs))
	}
	for _, r := range res.Front {
		if !r.UsesSensitive || r.DPDiffCI == nil || r.EODiffCI == nil || r.AccuracyCI == nil {
			t.Fatalf("λ = %g: uses the sensitive attribute %v, intervals dp_diff %v eo_diff %v accuracy %v (note %q)",
				r.Lambda, r.UsesSensitive, r.DPDiffCI, r.EODiffCI, r.AccuracyCI, r.Note)
		}
		if !(r.DPDiffCI[0] <= r.DPDiff && r.DPDiff <= r.DPDiffCI[1]) || !(r.AccuracyCI[0] <= r.Accuracy && r.Accuracy <= r.AccuracyCI[1]) {
			t.Errorf("λ = %g: dp_diff %g in %v, accuracy %g in %v", r.Lambda, r.DPDiff, *r.DPDiffCI, r.Accuracy, *r.AccuracyCI)
		}
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

// pickAgainstError checks that fp pick picks a thresholds run's candidates
// against the error (--axis error) with a decision metric, certified or
// refused in the certificate's one line, and that without --axis error it
// says to give it; --max-risk does not apply against the error.
func pickAgainstError(t *testing.T, run string) {
	t.Helper()
	stdout, stderr, err := runFP(t, "pick", run, "--axis", "error", "--metric", "dp-diff", "--max-unfairness", "0.1", "--confidence", "0.9", "--ci-resamples", "200")
	switch {
	case err == nil:
		if !strings.Contains(stdout, "certified: dp-diff ≤ 0.1 holds with probability ≥ 0.9") || !strings.Contains(stdout, "(error vs dp-diff") ||
			!strings.Contains(stdout, "--decision decision") {
			t.Errorf("pick --axis error --confidence: no certificate, plane or audit of its decisions:\n%s", stdout)
		}
	case !strings.Contains(err.Error(), "no candidate is certified to have dp-diff ≤ 0.1 at confidence 0.9"):
		t.Errorf("pick --axis error --confidence: %v: %s", err, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--metric", "dp-diff", "--max-unfairness", "0.1"}, "give --axis error"},
		{[]string{"--axis", "error", "--metric", "dp-diff", "--max-risk", "0.7"}, "give a minimum accuracy instead"},
	} {
		_, stderr, err := runFP(t, append([]string{"pick", run}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("pick %s: %v (%s), want one line with %q", strings.Join(c.args, " "), err, stderr, c.want)
		}
	}
}
