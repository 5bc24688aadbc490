package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/onnxexport"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/report/runplot"
	"github.com/fpareto/fp/runfolder/conditionedtest"
)

// toyConditioned saves a λ-conditioned network for the toy CSV and returns
// its path, the CSV's path, the network and the dataset.
func toyConditioned(t *testing.T) (netPath, dataPath string, c *model.Conditioned, f *model.File, d *datasets.Dataset) {
	t.Helper()
	dataPath = writeToyCSV(t, 60)
	d, err := datasets.LoadCSV(dataPath, datasets.CSVOptions{Target: "outcome", Sensitive: "group"})
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]int, d.N)
	for i := range rows {
		rows[i] = i
	}
	std := datasets.FitStandardizer(d, rows)
	c = conditionedtest.Network(model.Init(model.Arch{Layers: 3, Hidden: 4}, d.Dim, rand.New(rand.NewPCG(1, 1))), 2)
	f = model.NewConditionedFile(c, d.Columns, std.Mean, std.SD)
	s := d.Schema
	f.Schema = &s
	f.Card = &model.Card{Dataset: "toy", Method: "cheb", Conditioned: true}
	netPath = filepath.Join(t.TempDir(), "net.json")
	if err := model.Save(netPath, f); err != nil {
		t.Fatal(err)
	}
	return netPath, dataPath, c, f, d
}

// fp predict --lambda scores rows with the conditioned network at λ, and
// fp export --lambda writes that network as ONNX; both refuse a
// conditioned network without --lambda, and --lambda with a plain one.
func TestPredictAndExportAtLambda(t *testing.T) {
	net, data, c, f, d := toyConditioned(t)
	rows := make([]int, d.N)
	for i := range rows {
		rows[i] = i
	}
	var logits [][]float64
	for _, lambda := range []string{"0.05", "0.8"} {
		stdout, _, err := runFP(t, "predict", "--model", net, "--lambda", lambda, "--data", data, "--logit")
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		l, _ := strconv.ParseFloat(lambda, 64)
		want := conditionedtest.Logits(c, f, l, d, rows)
		if len(recs) != d.N+1 || recs[0][2] != "logit" {
			t.Fatalf("λ = %s: %d lines, header %v", lambda, len(recs), recs[0])
		}
		var got []float64
		for i, r := range recs[1:] {
			z, err := strconv.ParseFloat(r[2], 64)
			if err != nil || math.Abs(z-want[i]) > 1e-12 {
				t.Fatalf("λ = %s row %d: logit %s, want %g (the conditioned network at λ)", lambda, i, r[2], want[i])
			}
			got = append(got, z)
		}
		logits = append(logits, got)
	}
	var apart float64
	for i := range logits[0] {
		apart = max(apart, math.Abs(logits[0][i]-logits[1][i]))
	}
	if apart < 0.01 {
		t.Errorf("the logits at two λ are at most %g apart: --lambda has no effect", apart)
	}

	out := filepath.Join(t.TempDir(), "net.onnx")
	if _, _, err := runFP(t, "export", "--model", net, "--lambda", "0.3", "--out", out); err != nil {
		t.Fatal(err)
	}
	at, err := f.At(0.3)
	if err != nil {
		t.Fatal(err)
	}
	want, err := onnxexport.Marshal(at)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(out); err != nil || !bytes.Equal(b, want) {
		t.Errorf("fp export --lambda 0.3 wrote other bytes than the network at λ = 0.3 exports to (%v)", err)
	}

	plain, _ := toyNetwork(t)
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"predict without --lambda", []string{"predict", "--model", net, "--data", data}, []string{"--lambda", net, "λ-conditioned"}},
		{"export without --lambda", []string{"export", "--model", net, "--out", out}, []string{"--lambda", net, "λ-conditioned"}},
		{"predict, plain with --lambda", []string{"predict", "--model", plain, "--lambda", "0.5", "--data", data}, []string{"--lambda", plain, "plain network"}},
		{"export, plain with --lambda", []string{"export", "--model", plain, "--lambda", "0.5", "--out", out}, []string{"--lambda", plain, "plain network"}},
		{"λ above 1", []string{"predict", "--model", net, "--lambda", "1.5", "--data", data}, []string{"--lambda 1.5", "[0, 1]"}},
		{"λ not a number", []string{"export", "--model", net, "--lambda", "NaN", "--out", out}, []string{"--lambda NaN", "[0, 1]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runFP(t, tc.args...)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %v, want it to name %q", err, w)
				}
			}
			oneLine(t, err.Error())
		})
	}
}

// The commands that read a run of λ-conditioned networks use each
// record's λ: fp pick names it with --lambda, fp plot --dist and the
// report's distributions score the shared network at it.
func TestConditionedRunCommands(t *testing.T) {
	data := writeToyCSV(t, 300)
	run := filepath.Join(t.TempDir(), "run")
	if _, _, err := runFP(t, "train", "--data", data, "--target", "outcome", "--sensitive", "group", "--select-fraction", "0",
		"--splits", "1", "--lambdas", "0,0.5,1", "--epochs", "3", "--propensity-epochs", "3",
		"--engine", "backprop", "--out", run, "--quiet", "--no-plot"); err != nil {
		t.Fatal(err)
	}
	if _, err := conditionedtest.Convert(run, 0.25); err != nil {
		t.Fatal(err)
	}
	net := filepath.Join(run, conditionedtest.Path(0))

	stdout, stderr, err := runFP(t, "pick", run, "--min-accuracy", "0", "--allow-degenerate", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var picked struct {
		Lambda      float64   `json:"lambda"`
		Weights     string    `json:"weights"`
		Conditioned bool      `json:"conditioned"`
		Note        string    `json:"ci_note"`
		RiskCI      []float64 `json:"risk_ci"`
	}
	if err := json.Unmarshal([]byte(stdout), &picked); err != nil {
		t.Fatal(err)
	}
	// The intervals come from re-scoring the test rows at the record's λ,
	// which must give the recorded metrics.
	if !picked.Conditioned || picked.Weights != net || picked.Note != "" || len(picked.RiskCI) != 2 {
		t.Fatalf("pick --json: %s (stderr %s)", stdout, stderr)
	}
	lambda := records.FormatLambda(picked.Lambda)
	stdout, _, err = runFP(t, "pick", run, "--min-accuracy", "0", "--allow-degenerate", "--ci-resamples", "0")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"network: " + net + " (λ-conditioned: the candidate is this network at --lambda " + lambda + ")",
		"fp predict --model " + net + " --lambda " + lambda + " --data NEW.csv --out scores.csv",
		"fp predict --model " + net + " --lambda " + lambda + " --data NEW.csv --logit --with-propensity",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("fp pick does not say %q:\n%s", want, stdout)
		}
	}
	stdout, stderr, err = runFP(t, "pick", run, "--min-accuracy", "0", "--allow-degenerate", "--print-path")
	if err != nil || stdout != net+"\n" || !strings.Contains(stderr, "--lambda "+lambda) {
		t.Errorf("pick --print-path: stdout %q, stderr %q, err %v", stdout, stderr, err)
	}
	// The command fp pick suggests runs, propensity and all.
	if _, _, err := runFP(t, "predict", "--model", net, "--lambda", lambda, "--data", data, "--logit", "--with-propensity", "--keep-coded"); err != nil {
		t.Errorf("the suggested fp predict: %v", err)
	}

	stdout, _, err = runFP(t, "plot", "--dist", "--json", "--lambdas", "0,0.25,1", run)
	if err != nil {
		t.Fatalf("plot --dist: %v", err)
	}
	var dist runplot.Result
	if err := json.Unmarshal([]byte(stdout), &dist); err != nil || !sameFloats(dist.Lambdas, []float64{0, 0.25, 1}) {
		t.Errorf("plot --dist --json: %s (%v)", stdout, err)
	}

	stdout, _, err = runFP(t, "report", run, "--json", "--ci-resamples", "0")
	if err != nil {
		t.Fatal(err)
	}
	var res reportResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(res.Out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"one λ-conditioned network per split; 1 candidates at evaluation-only λ", "--lambda 0.5 --data NEW.csv"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if bytes.Contains(page, []byte("Score distributions not available")) {
		t.Error("the report could not draw a conditioned candidate's score distributions")
	}
}
