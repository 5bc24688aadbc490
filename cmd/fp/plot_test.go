package main

import (
	"encoding/json"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/report"
	"github.com/fpareto/fp/report/runplot"
)

// writeRecords writes recs as a records file at path.
func writeRecords(t *testing.T, path string, recs []records.Record) {
	t.Helper()
	w, err := records.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for i := range recs {
		if err := w.Append(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
}

// syntheticRecords returns two methods' candidates: cheb has a front of
// three points (0.30, 0.20), (0.35, 0.05), (0.50, 0.01) and two dominated
// ones; adversarial has two points, one dominating the other; plus one
// failed cheb candidate.
func syntheticRecords() []records.Record {
	rec := func(method, penalty string, lambda, risk, ato float64) records.Record {
		return records.Record{Dataset: "compas", Sensitive: "race", Method: method, Penalty: penalty,
			Lambda: lambda, Risk: risk, ATO: ato, DP: ato / 2, EO: ato / 3, EOpp: ato / 4, Config: "c1", Status: records.StatusOK}
	}
	recs := []records.Record{
		rec("cheb", "ato-penultimate", 0, 0.30, 0.20),
		rec("cheb", "ato-penultimate", 0.1, 0.35, 0.05),
		rec("cheb", "ato-penultimate", 0.2, 0.40, 0.10),
		rec("cheb", "ato-penultimate", 0.5, 0.50, 0.01),
		rec("cheb", "ato-penultimate", 0.7, 0.55, 0.02),
		rec("adversarial", "", 0.1, 0.33, 0.15),
		rec("adversarial", "", 0.2, 0.34, 0.16),
	}
	failed := rec("cheb", "ato-penultimate", 1, 0, 0)
	failed.Status, failed.FailEpoch, failed.FailReason = records.StatusFailed, 3, "loss diverged"
	return append(recs, failed)
}

func TestPlotFrontDefaultOutput(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "records.jsonl")
	writeRecords(t, path, syntheticRecords())

	for _, arg := range []string{path, dir} { // a file, then its folder
		stdout, stderr, err := runFP(t, "plot", arg)
		if err != nil {
			t.Fatalf("fp plot %s: %v", arg, err)
		}
		want := filepath.Join(dir, "front-ato.png")
		if strings.TrimSpace(stdout) != want {
			t.Errorf("fp plot %s printed %q, want the path %s", arg, stdout, want)
		}
		if !strings.Contains(stderr, "1 failed candidates left out") {
			t.Errorf("stderr %q does not mention the failed candidate", stderr)
		}
		f, err := os.Open(want)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s is not a PNG: %v", want, err)
		}
		if b := img.Bounds(); b.Dx() < 600 || b.Dy() < 300 {
			t.Errorf("figure is only %v", b.Size())
		}
		os.Remove(want)
	}
}

func TestPlotFrontJSON(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "records.jsonl")
	writeRecords(t, path, syntheticRecords())
	out := filepath.Join(dir, "fig.svg")
	stdout, _, err := runFP(t, "plot", "--json", "--metric", "dp", "--out", out, path)
	if err != nil {
		t.Fatal(err)
	}
	var res runplot.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	// Panels in name order within one file; the failed candidate left out.
	want := []report.Panel{{Name: "adversarial", N: 2, NonDominated: 1}, {Name: "cheb/ato-penultimate", N: 5, NonDominated: 3}}
	if res.Out != out || res.Metric != "dp" || res.Failed != 1 || len(res.Panels) != len(want) {
		t.Fatalf("result = %+v", res)
	}
	for i := range want {
		if res.Panels[i] != want[i] {
			t.Errorf("panel %d = %+v, want %+v", i, res.Panels[i], want[i])
		}
	}
	svg, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"compas (race): DP against test risk", "cheb/ato-penultimate", "n = 5, non-dominated = 3", "stroke:#FF00FF"} {
		if !strings.Contains(string(svg), s) {
			t.Errorf("figure lacks %q", s)
		}
	}
}

// Panels follow the order of the records arguments.
func TestPlotFrontPanelOrder(t *testing.T) {
	dir := t.TempDir()
	recs := syntheticRecords()
	a, b := filepath.Join(dir, "cheb.jsonl"), filepath.Join(dir, "adv.jsonl")
	writeRecords(t, a, recs[:5])
	writeRecords(t, b, recs[5:7])
	for _, tc := range []struct {
		args  []string
		first string
	}{
		{[]string{a, b}, "cheb/ato-penultimate"},
		{[]string{b, a}, "adversarial"},
	} {
		stdout, _, err := runFP(t, append([]string{"plot", "--json", "--by", "method,penalty"}, tc.args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var res runplot.Result
		if err := json.Unmarshal([]byte(stdout), &res); err != nil {
			t.Fatal(err)
		}
		if len(res.Panels) != 2 || res.Panels[0].Name != tc.first {
			t.Errorf("args %v: panels %+v, want %s first", tc.args, res.Panels, tc.first)
		}
		if res.Out != filepath.Join(dir, "front-ato.png") {
			t.Errorf("out = %s, want beside the first file", res.Out)
		}
	}
}

func TestPlotErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "records.jsonl")
	writeRecords(t, path, syntheticRecords())
	// A risk that overflows float64 (JSON has no NaN or Inf).
	bad := filepath.Join(dir, "nan", "records.jsonl")
	os.MkdirAll(filepath.Dir(bad), 0o755)
	line, _ := json.Marshal(syntheticRecords()[0])
	os.WriteFile(bad, []byte(strings.Replace(string(line), `"risk":0.3`, `"risk":1e999`, 1)+"\n"), 0o644)
	dup := filepath.Join(dir, "dup.jsonl")
	writeRecords(t, dup, []records.Record{syntheticRecords()[1], syntheticRecords()[1]})
	onlyFailed := filepath.Join(dir, "failed.jsonl")
	writeRecords(t, onlyFailed, syntheticRecords()[7:])

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no records", []string{"plot"}, "give one or more records files"},
		{"bad metric", []string{"plot", "--metric", "acc", path}, `--metric "acc": want one of ato, dp, eo, eopp`},
		{"bad by", []string{"plot", "--by", "colour", path}, `field "colour"`},
		{"unknown flag after records", []string{"plot", path, "--colour", "red"}, "unknown flag --colour"},
		{"flag after records still checked", []string{"plot", path, "--metric", "acc"}, `--metric "acc"`},
		{"missing file", []string{"plot", filepath.Join(dir, "nope.jsonl")}, "nope.jsonl"},
		{"only failed", []string{"plot", onlyFailed}, "no trained candidates in " + onlyFailed + " (1 failed)"},
		{"bad extension", []string{"plot", "--out", filepath.Join(dir, "f.gif"), path}, `unknown extension ".gif"`},
		{"split without dist", []string{"plot", "--split", "1", path}, "--split applies only to --dist"},
		{"metric with dist", []string{"plot", "--dist", "--metric", "dp", path}, "--metric does not apply to --dist"},
		{"dist of two", []string{"plot", "--dist", path, path}, "give one run folder or records file, not 2"},
		{"dist duplicate", []string{"plot", "--dist", dup}, dup + ": candidate cheb/ato-penultimate/split=0/lambda=0.1"},
		{"dist mixes runs", []string{"plot", "--dist", path}, "several runs (compas/race/adversarial, compas/race/cheb/ato-penultimate)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runFP(t, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
			oneLine(t, err.Error())
		})
	}
	_, _, err := runFP(t, "plot", bad)
	if err == nil {
		t.Fatalf("a record with risk 1e999: no error")
	}
	oneLine(t, err.Error())
}

func TestPlotDist(t *testing.T) {
	run := filepath.Join(t.TempDir(), "run")
	if _, _, err := runFP(t, "train", "--dataset", "compas", "--splits", "2", "--lambdas", "log:5",
		"--epochs", "2", "--propensity-epochs", "2", "--workers", "1", "--quiet", "--no-plot", "--out", run); err != nil {
		t.Fatal(err)
	}

	stdout, _, err := runFP(t, "plot", "--dist", "--json", run)
	if err != nil {
		t.Fatal(err)
	}
	var res runplot.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	// log:5 is 0, 0.001, 0.01, 0.1, 1: the default keeps 0 and 1 and the two
	// at 1/3 and 2/3 of [0.001, 1] on a log scale.
	if res.Out != filepath.Join(run, "dist-split-0.png") || res.Split == nil || *res.Split != 0 ||
		!sameFloats(res.Lambdas, []float64{0, 0.01, 0.1, 1}) {
		t.Fatalf("result = %+v", res)
	}
	if st, err := os.Stat(res.Out); err != nil || st.Size() == 0 {
		t.Fatalf("figure not written: %v", err)
	}

	out := filepath.Join(t.TempDir(), "d.svg")
	stdout, _, err = runFP(t, "plot", "--dist", "--split", "1", "--lambdas", "1,0.001", "--out", out, filepath.Join(run, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(stdout) != out {
		t.Errorf("printed %q, want %s", stdout, out)
	}
	svg, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"λ = 0.001", "λ = 1", "split 1", "ATO = ", "EOpp = ", "y=1, a=0"} {
		if !strings.Contains(string(svg), s) {
			t.Errorf("figure lacks %q", s)
		}
	}

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown split", []string{"--split", "7"}, "split 7 has no trained candidates"},
		{"unknown lambda", []string{"--lambdas", "0.5"}, "λ = 0.5 has no candidate; have 0, 0.001, 0.01, 0.1, 1"},
		{"bad lambda", []string{"--lambdas", "0,x"}, `"x" is not a number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runFP(t, append(append([]string{"plot", "--dist"}, tc.args...), run)...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
			oneLine(t, err.Error())
		})
	}

	// Without its network a candidate's predictions cannot be recomputed.
	recs, err := records.Read(filepath.Join(run, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Split == 0 && r.Lambda == 1 {
			if err := os.Remove(filepath.Join(run, r.Weights)); err != nil {
				t.Fatal(err)
			}
		}
	}
	_, _, err = runFP(t, "plot", "--dist", run)
	if err == nil || !strings.Contains(err.Error(), "network of candidate cheb/ato-penultimate/split=0/lambda=1 is missing") {
		t.Fatalf("err = %v, want one naming the missing network", err)
	}
	oneLine(t, err.Error())
}

func sameFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-12*math.Max(1, math.Abs(b[i])) {
			return false
		}
	}
	return true
}

// --zoom leaves out the constant predictors, --log draws the unfairness
// axis on a log scale; degenerate candidates are marked.
func TestPlotZoomAndLog(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "records.jsonl")
	recs := syntheticRecords()
	recs[4].Collapsed, recs[4].SingleClass = true, true // cheb (0.55, 0.02)
	recs[3].SingleClass = true                          // cheb (0.50, 0.01)
	writeRecords(t, path, recs)
	out := filepath.Join(dir, "fig.svg")
	stdout, _, err := runFP(t, "plot", "--json", "--zoom", "--log", "--out", out, path)
	if err != nil {
		t.Fatal(err)
	}
	var res runplot.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	if len(res.Panels) != 2 || res.Panels[1].N != 4 {
		t.Fatalf("panels %+v, want cheb with 4 candidates once the constant predictor is left out", res.Panels)
	}
	svg, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"constant predictors left out", "one class predicted", "≤ "} {
		if !strings.Contains(string(svg), s) {
			t.Errorf("figure lacks %q", s)
		}
	}
	if strings.Contains(string(svg), ">constant predictor<") {
		t.Error("the zoomed figure still has a constant predictor in its legend")
	}
	if _, _, err := runFP(t, "plot", "--dist", "--log", path); err == nil || !strings.Contains(err.Error(), "--log does not apply") {
		t.Errorf("--dist --log: %v", err)
	}
}
