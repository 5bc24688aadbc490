package htmlreport_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fpareto/fp/compare"
	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/report/htmlreport"
	"github.com/fpareto/fp/runfolder"
)

// The page's comparison is fp compare's under the front rule it is given
// (default constant), says which, and compares records written before
// const_risk under min–max with a warning unless a rule was named.
func TestComparisonFrontRule(t *testing.T) {
	root := t.TempDir()
	runs := []string{syntheticRun(t, root, "cheb", "ato-penultimate", 3, 6, 1), syntheticRun(t, root, "linear", "ato-penultimate", 3, 6, 2)}
	all, _, err := runfolder.ReadAll(runs)
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := records.Succeeded(all)
	old := filepath.Join(t.TempDir(), "old")
	if err := os.MkdirAll(old, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(runs[0], "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	b = regexp.MustCompile(`,"const_risk":[^,}]*`).ReplaceAll(b, nil)
	if err := os.WriteFile(filepath.Join(old, "records.jsonl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		runs     []string
		rule     string
		wantRule string // "" : no comparison
		text     string // on the page
		warning  string // among the warnings
	}{
		{"default", runs, "", "constant", "Front rule <b>constant</b>", ""},
		{"minmax", runs, "minmax", "minmax", "Front rule <b>minmax</b>", ""},
		{"old records, default", []string{old, runs[1]}, "", "minmax", "Front rule <b>minmax</b>", "written before fp recorded const_risk"},
		{"old records, constant named", []string{old, runs[1]}, "constant", "", "", "--front-rule minmax"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := htmlreport.Build(tc.runs, htmlreport.Options{FrontRule: tc.rule, Resamples: 200})
			if err != nil {
				t.Fatal(err)
			}
			if tc.warning != "" && !strings.Contains(strings.Join(p.Warnings, "\n"), tc.warning) {
				t.Errorf("warnings %q lack %q", p.Warnings, tc.warning)
			}
			if tc.wantRule == "" {
				if len(p.Comparisons) != 0 {
					t.Errorf("compared under %q: want the comparison refused", p.Comparisons[0].Rule)
				}
				return
			}
			if len(p.Comparisons) != 1 || p.Comparisons[0].Rule != tc.wantRule {
				t.Fatalf("comparisons %+v: want one under %s", p.Comparisons, tc.wantRule)
			}
			var buf bytes.Buffer
			if err := htmlreport.Render(&buf, p); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), tc.text) {
				t.Errorf("the page does not say %q", tc.text)
			}
			if tc.name != "default" && tc.name != "minmax" {
				return
			}
			// The same numbers as fp compare's.
			want, err := compare.Run(recs, compare.Options{Rule: pareto.Rule(tc.wantRule), Resamples: 200})
			if err != nil {
				t.Fatal(err)
			}
			k := 0
			for _, m := range p.Comparisons[0].Metrics {
				for _, r := range m.Pooled {
					if w := want.Pooled[k]; r.Hypervolume != w.Hypervolume || r.Group != w.Group || r.Metric != w.Metric {
						t.Errorf("pooled row %d: %+v, fp compare's %+v", k, r, w)
					}
					k++
				}
			}
			if k != len(want.Pooled) {
				t.Errorf("%d pooled rows, fp compare has %d", k, len(want.Pooled))
			}
		})
	}
}
