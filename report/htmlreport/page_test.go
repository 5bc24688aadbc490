package htmlreport_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/propensity"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/report/htmlreport"
	"github.com/fpareto/fp/runfolder"
)

// syntheticRun writes a records file of n candidates per method (no
// networks, no config.json) into a new folder and returns the folder.
func syntheticRun(t testing.TB, root, method, penalty string, splits, lambdas int, seed float64) string {
	t.Helper()
	dir := filepath.Join(root, method+"-"+penalty)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := records.Open(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// The candidates with λ ≥ 0.75 have a risk above the constant predictor's.
	constRisk := 0.65
	for m := range splits {
		for k := range lambdas {
			l := float64(k) / float64(lambdas-1)
			// A noisy convex trade-off: unfairness falls as risk rises.
			noise := math.Abs(math.Sin(seed*float64(7*m+13*k+1))) * 0.01
			r := records.Record{Dataset: "compas", Sensitive: "race", Method: method, Penalty: penalty,
				Split: m, Lambda: l, Seed: 1, Engine: "backprop", Arch: "4x4", Epochs: 5,
				RMin: 0.6, RMax: 0.7, UMin: 0, UMax: 0.02,
				TrainSeconds: 0.5, Risk: 0.6 + 0.1*l*l + noise, Accuracy: 0.7 - 0.1*l,
				ATO: 0.02*(1-l) + noise, DP: 0.03*(1-l) + noise, EO: 0.025*(1-l) + noise, EOpp: 0.01*(1-l) + noise,
				Weights: fmt.Sprintf("networks/split-%03d/%s-lambda-%d.json", m, method, k),
				Status:  records.StatusOK, Config: method + penalty, Collapsed: k == lambdas-1,
				SingleClass: k >= lambdas-2, ConstRisk: &constRisk}
			if err := w.Append(&r); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// largePage builds the page of 1,600 candidates over four runs, with score
// histograms on every candidate of a front as if the networks were there.
func largePage(t testing.TB, root string) (*htmlreport.Page, []byte) {
	t.Helper()
	var runs []string
	for i, mp := range [][2]string{{"cheb", "ato-penultimate"}, {"cheb", "ato-all"}, {"linear", "ato-penultimate"}, {"adversarial", ""}} {
		runs = append(runs, syntheticRun(t, root, mp[0], mp[1], 10, 40, float64(i+1)))
	}
	p, err := htmlreport.Build(runs, htmlreport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range p.Data.Candidates {
		c := &p.Data.Candidates[i]
		if len(c.Front) == 0 {
			continue
		}
		c.DistNote = ""
		for cell := range 4 {
			h := htmlreport.Hist{Y: cell / 2, A: cell % 2, N: 1234}
			for b := range p.Data.Bins {
				h.Density = append(h.Density, htmlreport.Num(1.0/3+float64(b)/7))
			}
			c.Dist = append(c.Dist, h)
		}
	}
	var buf bytes.Buffer
	if err := htmlreport.Render(&buf, p); err != nil {
		t.Fatal(err)
	}
	return p, buf.Bytes()
}

func TestLargePageStaysUnderThreeMegabytes(t *testing.T) {
	p, b := largePage(t, t.TempDir())
	if n := len(p.Data.Candidates); n != 1600 {
		t.Fatalf("%d candidates, want 1600", n)
	}
	if len(b) >= 3<<20 {
		t.Errorf("page of %d candidates is %d bytes, want < 3 MiB", len(p.Data.Candidates), len(b))
	}
	t.Logf("%d candidates: %d bytes", len(p.Data.Candidates), len(b))
}

func TestBuildCountsAndNotes(t *testing.T) {
	root := t.TempDir()
	a := syntheticRun(t, root, "cheb", "ato-penultimate", 2, 5, 1)
	b := syntheticRun(t, root, "linear", "ato-penultimate", 2, 5, 2)
	p, err := htmlreport.Build([]string{a, b}, htmlreport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := p.Summary
	if s.Done != 20 || s.Failed != 0 || s.Collapsed != 4 || s.SingleClass != 8 || s.Configurations != 2 || math.Abs(s.TrainSeconds-10) > 1e-9 {
		t.Errorf("summary %+v: want 20 done, 0 failed, 4 collapsed, 8 single-class, 2 configurations, 10 s", s)
	}
	if s.WallSeconds != 0 || p.Runs[0].Commands != nil {
		t.Errorf("runs that record no invocation: wall time %v, commands %v; want none", s.WallSeconds, p.Runs[0].Commands)
	}
	single, noBetter := 0, 0
	for _, c := range p.Data.Candidates {
		if c.SingleClass {
			single++
		}
		if c.NoBetter {
			noBetter++
		}
	}
	if single != 8 || noBetter != 8 || s.NoBetter != 8 || p.Runs[0].NoBetter != 4 {
		t.Errorf("%d candidates marked single-class, %d no better than constant (summary %d, first run %d); want 8, 8, 8, 4",
			single, noBetter, s.NoBetter, p.Runs[0].NoBetter)
	}
	if len(p.Data.Groups) != 2 || p.Data.Groups[0].Color == p.Data.Groups[1].Color {
		t.Errorf("groups %+v: want two with distinct colours", p.Data.Groups)
	}
	if len(p.Constants) != 4 {
		t.Errorf("%d rows of constants, want 2 runs × 2 splits", len(p.Constants))
	}
	// One dataset; per metric 2 methods pooled, 2 splits, 1 pair.
	if len(p.Comparisons) != 1 || len(p.Comparisons[0].Metrics) != 4 {
		t.Fatalf("comparisons %+v: want one dataset of 4 metrics", p.Comparisons)
	}
	for _, m := range p.Comparisons[0].Metrics {
		if len(m.Pooled) != 2 || len(m.Splits) != 2 || len(m.Splits[0].Hypervolume) != 2 || len(m.Paired) != 1 {
			t.Errorf("%s: %d pooled rows, %d splits, %d pairs; want 2, 2 and 1", m.Metric, len(m.Pooled), len(m.Splits), len(m.Paired))
			continue
		}
		// fp compare's labels and order: Chebyshev before linear.
		if pr := m.Paired[0]; pr.A != "cheb/ato-penultimate" || pr.B != "linear/ato-penultimate" || pr.Splits != 2 || pr.Significant || pr.MinSplits != 6 {
			t.Errorf("%s: pair %+v: want cheb vs linear over 2 splits, not significant, 6 splits needed", m.Metric, pr)
		}
	}
	for _, c := range p.Data.Candidates {
		if c.Dist != nil || c.DistNote == "" {
			t.Fatalf("candidate %d: histograms without networks, or no note saying why not", c.ID)
		}
		if len(c.Front) > 0 && !strings.Contains(c.DistNote, "absent") {
			t.Errorf("candidate %d on a front: note %q, want it to say the network is absent", c.ID, c.DistNote)
		}
	}
	if len(p.Warnings) != 2 {
		t.Errorf("warnings %q: want one on the missing configuration and one on the missing networks", p.Warnings)
	}
	var buf bytes.Buffer
	if err := htmlreport.Render(&buf, p); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if n := strings.Count(page, `<p class="na">Not available for this run.</p>`); n != 1 {
		t.Errorf("the page says %d times that a section is not available, want 1 (propensity)", n)
	}
	if n := strings.Count(page, "not significant"); n != 4 {
		t.Errorf("the page calls %d paired comparisons not significant, want 4 (one per metric)", n)
	}
	// Each paired table has a q column, holding the comparison's q-values
	// (Benjamini–Hochberg over the four tests: none below its p).
	if n := strings.Count(page, `<th class="n">q</th>`); n != 4 {
		t.Errorf("the page has %d q columns, want one per paired table (4)", n)
	}
	for _, m := range p.Comparisons[0].Metrics {
		if pr := m.Paired[0]; !(pr.QValue >= pr.PValue) || pr.QValue > 1 {
			t.Errorf("%s: q %g beside p %g", m.Metric, pr.QValue, pr.PValue)
		}
	}
}

func TestBuildShowsTheRecordedInvocations(t *testing.T) {
	dir := syntheticRun(t, t.TempDir(), "cheb", "ato-all", 2, 5, 1)
	// Two runs of the same command, the second resuming the first, and one
	// run left by a crash (no end): 10 + 5 minutes.
	log := `{"args":["fp","train","--splits","2","--out","my run"],"dir":"/home/u","start":"2026-01-01T12:00:00Z","end":"2026-01-01T12:10:00Z","trained":6,"status":"interrupted"}
{"args":["fp","train","--splits","2","--out","my run"],"dir":"/home/u","start":"2026-01-01T13:00:00Z","end":"2026-01-01T13:05:00Z","trained":4,"status":"done"}
`
	if err := os.WriteFile(filepath.Join(dir, runfolder.InvocationsFile), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := htmlreport.Build([]string{dir}, htmlreport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := p.Runs[0]
	if r.WallSeconds != 900 || p.Summary.WallSeconds != 900 {
		t.Errorf("wall time %v s (summary %v s), want 900 s", r.WallSeconds, p.Summary.WallSeconds)
	}
	want := []htmlreport.TypedCommand{{Command: "fp train --splits 2 --out 'my run'", Dir: "/home/u", Runs: 2}}
	if !reflect.DeepEqual(r.Commands, want) {
		t.Errorf("commands %+v, want %+v", r.Commands, want)
	}
	var buf bytes.Buffer
	if err := htmlreport.Render(&buf, p); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"wall time <b>15.0 min</b>", "fp train --splits 2 --out &#39;my run&#39;", "(2 times)"} {
		if !strings.Contains(buf.String(), s) {
			t.Errorf("the page lacks %q", s)
		}
	}
}

func TestBuildRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	if _, err := htmlreport.Build(nil, htmlreport.Options{}); err == nil {
		t.Error("no paths: want an error")
	}
	if _, err := htmlreport.Build([]string{filepath.Join(dir, "nothing")}, htmlreport.Options{}); err == nil {
		t.Error("a missing folder: want an error")
	}
	bad := filepath.Join(dir, "records.jsonl")
	if err := os.WriteFile(bad, []byte("{\"split\": \"x\"}\n{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := htmlreport.Build([]string{bad}, htmlreport.Options{}); err == nil || !strings.Contains(err.Error(), "records.jsonl") {
		t.Errorf("a bad records file: err = %v, want one naming the file", err)
	}
}

// remote matches a src, href, CSS url() or import that points at an http:
// or https: address.
var remote = regexp.MustCompile(`(?i)(\b(src|href)\s*=\s*["']?\s*https?:|url\(\s*["']?\s*https?:|@import\s+["']?\s*(url\()?\s*["']?https?:|\bimport\s*\(?\s*["']https?:|\bfrom\s+["']https?:)`)

func TestPageLoadsNothingFromTheNetwork(t *testing.T) {
	for _, bad := range []string{`<script src="https://x/y.js">`, `<link href='http://x'>`, `background: url( "https://x/a.png")`, `@import "https://x/a.css";`, `import("https://x/m.js")`} {
		if !remote.MatchString(bad) {
			t.Fatalf("the check misses %s", bad)
		}
	}
	_, b := largePage(t, t.TempDir())
	if m := remote.FindAll(b, -1); len(m) > 0 {
		t.Errorf("the page loads from the network: %q", m)
	}
	// Only SVG namespace declarations may name an http address at all.
	for _, u := range regexp.MustCompile(`https?://[^\s"'<>)]+`).FindAll(b, -1) {
		if string(u) != "http://www.w3.org/2000/svg" {
			t.Errorf("the page names %s", u)
		}
	}
}

func TestPredictCommand(t *testing.T) {
	csv := experiments.DefaultConfig()
	csv.Dataset, csv.CSV = "", "my data.csv"
	compas := experiments.DefaultConfig()
	plain := &records.Record{Lambda: 0.1}
	conditioned := &records.Record{Lambda: 0.1, Conditioned: true}
	for _, tc := range []struct {
		cfg  *runfolder.Config
		rec  *records.Record
		want string
	}{
		{nil, nil, "fp predict --model runs/x/net.json --data NEW.csv --out scores.csv"},
		{&csv.Config, plain, "fp predict --model runs/x/net.json --data NEW.csv --out scores.csv"},
		{&compas.Config, plain, "fp predict --model runs/x/net.json --data NEW.csv --out scores.csv"},
		// A λ-conditioned network is used at the candidate's λ.
		{&compas.Config, conditioned, "fp predict --model runs/x/net.json --lambda 0.1 --data NEW.csv --out scores.csv"},
	} {
		if got := htmlreport.PredictCommand("runs/x/net.json", tc.rec, tc.cfg); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// writeOverlapFile writes the overlap summary of one split into a run
// folder, as fp train stores it: poor when warning is set, with the source
// columns that go most with the sensitive attribute.
func writeOverlapFile(t testing.TB, dir string, split int, warning string, predictors map[string]float64) {
	t.Helper()
	o := map[string]any{"split": split, "temperature": 0.8, "quantiles": []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9},
		"extreme": 0.0, "ess1": 90.0, "ess0": 95.0, "n1": 100, "n0": 100}
	if warning != "" {
		o["temperature"], o["extreme"], o["warning"] = 0.01, 1.0, warning
		var ps []map[string]any
		for c, r := range predictors {
			ps = append(ps, map[string]any{"column": c, "corr": r})
		}
		o["predictors"] = ps
	}
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "splits", fmt.Sprintf("split-%03d", split))
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "overlap.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeSplitOverlap stores o as fp train does.
func writeSplitOverlap(t testing.TB, dir string, o runfolder.SplitOverlap) {
	t.Helper()
	if err := runfolder.WriteOverlap(dir, o); err != nil {
		t.Fatal(err)
	}
}

// recordsOfPoorOverlap writes a records file whose records carry their
// split's overlap summary, poor in every split, and no overlap.json.
func recordsOfPoorOverlap(t testing.TB, root string, splits int) string {
	t.Helper()
	dir := filepath.Join(root, "records-only")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := records.Open(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for m := range splits {
		for k, l := range []float64{0, 1} {
			r := records.Record{Dataset: "compas", Sensitive: "race", Method: "cheb", Penalty: "ato-penultimate",
				Split: m, Lambda: l, Seed: 1, Engine: "backprop", Arch: "4x4", Epochs: 5, Status: records.StatusOK, Config: "c",
				Risk: 0.6 + 0.1*l, Accuracy: 0.7, ATO: 0.02 * (1 - l), DP: 0.03, EO: 0.02, EOpp: 0.01,
				Weights:         fmt.Sprintf("networks/split-%03d/cheb-lambda-%d.json", m, k),
				PropTemperature: 0.01, PropQ: []float64{0, 0, 0, 0, 0.5, 1, 1, 1, 1}, PropExtreme: 1, ESS1: 100, ESS0: 100, PropN1: 100, PropN0: 100}
			if err := w.Append(&r); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// The banners at the top of the page: none for runs of good or unknown
// overlap; for poor overlap, one that says which splits, names the columns
// that stand in for the sensitive attribute and what to do, and links to
// the details.
func TestBanners(t *testing.T) {
	const why = "100% of the rows have ê < 0.01 or > 0.99"
	proxy := map[string]float64{"sex copy": 1, "income": 0.31, "age": 0.04, "hours": 0.02}
	for _, tc := range []struct {
		name string
		runs func(root string) []string
		// want are the phrases of the one banner expected; nil: none.
		want []string
		// not are phrases the banner must not hold.
		not []string
	}{
		{"no overlap recorded", func(root string) []string {
			return []string{syntheticRun(t, root, "cheb", "ato-all", 2, 3, 1)}
		}, nil, nil},
		{"good overlap", func(root string) []string {
			dir := syntheticRun(t, root, "cheb", "ato-all", 2, 3, 1)
			writeOverlapFile(t, dir, 0, "", nil)
			writeOverlapFile(t, dir, 1, "", nil)
			return []string{dir}
		}, nil, nil},
		{"poor in one split of two", func(root string) []string {
			dir := syntheticRun(t, root, "cheb", "ato-all", 2, 3, 1)
			writeOverlapFile(t, dir, 0, "", nil)
			writeOverlapFile(t, dir, 1, why, proxy)
			return []string{dir}
		}, []string{"Poor overlap", "In split 1 of 2 the other columns tell the groups apart",
			"sex copy (absolute correlation 1.00), income (0.31), age (0.04).", "fp train --exclude 'sex copy'", "read the ATO with caution"},
			[]string{"hours", "run "}},
		{"poor in every split", func(root string) []string {
			dir := syntheticRun(t, root, "cheb", "ato-all", 3, 3, 1)
			for m := range 3 {
				writeOverlapFile(t, dir, m, why, map[string]float64{"proxy": 0.9 + 0.01*float64(m), "x": 0.1})
			}
			return []string{dir}
		}, []string{"In all 3 splits ", "proxy (absolute correlation 0.92), x (0.10)", "fp train --exclude proxy"}, nil},
		{"poor by the records alone", func(root string) []string {
			return []string{recordsOfPoorOverlap(t, root, 2)}
		}, []string{"In both splits ", "If a column stands in for the sensitive attribute", "fp train --exclude COLUMN"}, []string{"absolute correlation"}},
		{"the strongest predictor of the target", func(root string) []string {
			dir := syntheticRun(t, root, "cheb", "ato-all", 1, 3, 1)
			writeSplitOverlap(t, dir, runfolder.SplitOverlap{Split: 0, Overlap: propensity.Overlap{Temperature: 1, Extreme: 0.8, N1: 100, N0: 100, ESS1: 5, ESS0: 90},
				Warning: "80% extreme", Predictors: []propensity.Predictor{{Column: "score", Corr: 0.85, Target: 0.6, Strongest: true}}})
			return []string{dir}
		}, []string{"score (absolute correlation 0.85)", "score is also the strongest predictor of the target (absolute correlation 0.60 with it): leaving it out costs accuracy",
			"fp train --exclude score"}, []string{"If one stands in for it"}},
		{"the only feature", func(root string) []string {
			dir := syntheticRun(t, root, "cheb", "ato-all", 1, 3, 1)
			writeSplitOverlap(t, dir, runfolder.SplitOverlap{Split: 0, Overlap: propensity.Overlap{Temperature: 1, Extreme: 0.8, N1: 100, N0: 100, ESS1: 5, ESS0: 90},
				Warning: "80% extreme", Predictors: []propensity.Predictor{{Column: "sex", Corr: 0.7, Strongest: true, Only: true}}})
			return []string{dir}
		}, []string{"sex is the only feature, so it cannot be left out", "Read the ATO with caution"}, []string{"--exclude", "with the run's other options"}},
		{"a group too small to estimate", func(root string) []string {
			dir := syntheticRun(t, root, "cheb", "ato-all", 1, 3, 1)
			o := runfolder.SplitOverlap{Split: 0, Warning: "poor", GroupRows: []int{900, 600, 40},
				Predictors: []propensity.Predictor{{Column: "score", Corr: 0.2, Strongest: true}}}
			stats := func(n ...int) propensity.GroupOverlap {
				g := propensity.GroupOverlap{Temperature: 1}
				for r, l := range []string{"A", "B", "E"} {
					g.Groups = append(g.Groups, propensity.GroupStats{Level: l, N: n[r], ESS: 0.9 * float64(n[r]), MaxShare: 0.01})
				}
				g.Groups[2].ESS = 1
				return g
			}
			o.SetGroups(stats(450, 300, 20), stats(450, 300, 20), nil)
			writeSplitOverlap(t, dir, o)
			return []string{dir}
		}, []string{`In split 0, group "E" (40 rows: 20 training, 20 test) is too small to estimate`, "--group-map E=GROUP", "read the ATO with caution"},
			[]string{"--exclude", "score", "tell the groups apart"}},
		{"a small group makes the test rows' ATO unreliable, the training overlap fine", func(root string) []string {
			dir := syntheticRun(t, root, "cheb", "ato-all", 1, 3, 1)
			no := false
			o := runfolder.SplitOverlap{Split: 0, GroupRows: []int{900, 600, 40}, ATOReliable: &no,
				ATOUnreliableReason: `on the test rows one row carries 16% of group "E"'s weight`,
				Predictors:          []propensity.Predictor{{Column: "score", Corr: 0.2, Strongest: true}}}
			stats := func(n ...int) propensity.GroupOverlap {
				g := propensity.GroupOverlap{Temperature: 1}
				for r, l := range []string{"A", "B", "E"} {
					g.Groups = append(g.Groups, propensity.GroupStats{Level: l, N: n[r], ESS: 0.9 * float64(n[r]), MaxShare: 0.01})
				}
				g.Groups[2].ESS, g.Groups[2].MaxShare = 1, 0.16
				return g
			}
			o.SetGroups(stats(450, 300, 20), stats(450, 300, 20), nil)
			writeSplitOverlap(t, dir, o)
			return []string{dir}
		}, []string{`group "E" (40 rows: 20 training, 20 test) is too small to estimate`, "--group-map E=GROUP"},
			[]string{"--exclude", "tell the groups apart"}},
		{"two runs, one poor", func(root string) []string {
			good := syntheticRun(t, root, "linear", "ato-all", 2, 3, 2)
			writeOverlapFile(t, good, 0, "", nil)
			poor := syntheticRun(t, root, "cheb", "ato-all", 2, 3, 1)
			writeOverlapFile(t, poor, 0, why, proxy)
			return []string{good, poor}
		}, []string{"In split 0 of 2 (run ", "cheb-ato-all)", "fp train --exclude 'sex copy'"}, []string{"linear-ato-all"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := htmlreport.Build(tc.runs(t.TempDir()), htmlreport.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := htmlreport.Render(&buf, p); err != nil {
				t.Fatal(err)
			}
			shown := strings.Count(buf.String(), `<div class="banner`)
			if tc.want == nil {
				if len(p.Banners) != 0 || shown != 0 {
					t.Fatalf("banners %+v (%d on the page), want none", p.Banners, shown)
				}
				return
			}
			if len(p.Banners) != 1 || shown != 1 {
				t.Fatalf("banners %+v (%d on the page), want one", p.Banners, shown)
			}
			b := p.Banners[0]
			text := strings.Join([]string{b.Title, b.Text, b.Command, b.Note}, " ")
			for _, s := range tc.want {
				if !strings.Contains(text, s) {
					t.Errorf("banner %q lacks %q", text, s)
				}
			}
			for _, s := range tc.not {
				if strings.Contains(text, s) {
					t.Errorf("banner %q holds %q", text, s)
				}
			}
			if b.Kind != "overlap" || b.Link != "#propensity" || !strings.Contains(buf.String(), `id="propensity"`) {
				t.Errorf("banner of kind %q links to %q; want an overlap banner linking to the propensity diagnostics on the page", b.Kind, b.Link)
			}
		})
	}
}

// The page says what each axis and metric means, and what an interval is
// only when it draws intervals.
func TestPageExplainsTheFigures(t *testing.T) {
	p, err := htmlreport.Build([]string{syntheticRun(t, t.TempDir(), "cheb", "ato-all", 1, 3, 1)}, htmlreport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	key := func() string {
		var buf bytes.Buffer
		if err := htmlreport.Render(&buf, p); err != nil {
			t.Fatal(err)
		}
		s := buf.String()
		a, b := strings.Index(s, `<dl id="key"`), strings.Index(s, "</dl>")
		if a < 0 || b < a {
			t.Fatal("the page has no key to its figures")
		}
		return s[a:b]
	}
	k := key()
	for _, s := range []string{"log-loss on the test rows; lower is better", "Accuracy", "overlap-weighted causal effect of the sensitive attribute on the predicted probability",
		"DP, EO, EOpp", "mean-variance", "0 = the groups' score distributions are identical", "lower is fairer", "Point:", "Dashed front:"} {
		if !strings.Contains(k, s) {
			t.Errorf("the key lacks %q", s)
		}
	}
	if strings.Contains(k, "95% interval") {
		t.Error("a page without intervals explains them")
	}
	p.Intervals = true
	if k := key(); !strings.Contains(k, "a 95% interval: the range the value would plausibly take on other rows like the test rows; it holds the network fixed") {
		t.Errorf("a page with intervals does not say what they are: %q", k)
	}
}

// The data's column warnings that a run's latest invocation gave (a likely
// identifier or leak) open the page, each once however many runs gave it, and
// an earlier invocation's are not shown: the run that trained last read
// the data as it is now.
func TestColumnWarningsBanner(t *testing.T) {
	root := t.TempDir()
	leak := `column "paid" alone separates y = "1" from the rest almost perfectly (AUC 0.970 on its own, where 0.5 is chance); leave it out with --exclude paid`
	var runs []string
	for _, method := range []string{"cheb", "linear"} {
		dir := syntheticRun(t, root, method, "ato-all", 1, 3, 1)
		start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for _, ws := range [][]string{{`column "id" holds a different integer in each row`}, {leak}} {
			inv := runfolder.Invocation{Start: start, End: start.Add(time.Minute), Status: "done", ColumnWarnings: ws}
			if err := runfolder.AppendInvocation(dir, inv); err != nil {
				t.Fatal(err)
			}
			start = start.Add(time.Hour)
		}
		runs = append(runs, dir)
	}
	p, err := htmlreport.Build(runs, htmlreport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Banners) == 0 || p.Banners[0].Kind != "columns" || p.Banners[0].Text != leak ||
		len(p.Banners) > 1 && p.Banners[1].Kind == "columns" {
		t.Fatalf("banners %+v: want the latest invocation's leak warning first, once", p.Banners)
	}
	var buf bytes.Buffer
	if err := htmlreport.Render(&buf, p); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `<div class="banner columns" role="alert"><b>Check this column:</b> column &#34;paid&#34; alone separates`) {
		t.Errorf("the page does not open with the columns banner")
	}
}
