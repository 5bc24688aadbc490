package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// writeOverlapCSV writes n rows where the group depends on x through a
// logistic model, so that the propensities spread inside (0, 1) rather
// than separate the groups, and the outcome on both.
func writeOverlapCSV(t *testing.T, n int) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 5))
	var b strings.Builder
	b.WriteString("x,colour,outcome,group\n")
	colours := []string{"red", "green", "blue"}
	for range n {
		x := rng.NormFloat64()
		g, y := "north", "no"
		if rng.Float64() < 1/(1+math.Exp(-1.5*x)) {
			g = "south"
		}
		if rng.Float64() < 1/(1+math.Exp(-x)) {
			y = "yes"
		}
		fmt.Fprintf(&b, "%.3f,%s,%s,%s\n", x, colours[rng.IntN(3)], y, g)
	}
	path := filepath.Join(t.TempDir(), "overlap.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// trainToyRun trains a tiny sweep on writeOverlapCSV's rows (one split)
// and returns the run folder and the CSV.
func trainToyRun(t *testing.T) (run, data string) {
	t.Helper()
	data = writeOverlapCSV(t, 200)
	run = filepath.Join(t.TempDir(), "run")
	if _, _, err := runFP(t, "train", "--data", data, "--target", "outcome", "--sensitive", "group",
		"--splits", "1", "--lambdas", "0.5", "--epochs", "3", "--propensity-epochs", "5",
		"--engine", "backprop", "--out", run, "--quiet", "--no-plot"); err != nil {
		t.Fatal(err)
	}
	return run, data
}

// writeTestRows writes the raw lines of split m's test rows of the CSV
// data (which drops no row, so dataset row i is its data line i) to a new
// CSV file, and returns it with the test split as the run rebuilt it.
func writeTestRows(t *testing.T, run string, m int, data string) (string, *runfolder.TestSplit) {
	t.Helper()
	ts, err := runfolder.LoadTestSplit(run, m)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines)-1 != ts.Data.N {
		t.Fatalf("%d data lines, %d rows", len(lines)-1, ts.Data.N)
	}
	out := []string{lines[0]}
	for _, i := range ts.Rows {
		out = append(out, lines[1+i])
	}
	path := filepath.Join(t.TempDir(), "test-rows.csv")
	if err := os.WriteFile(path, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, ts
}

// readColumns reads a CSV file into its columns by name.
func readColumns(t *testing.T, path string) map[string][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	cols := map[string][]string{}
	for _, r := range recs[1:] {
		for j, name := range recs[0] {
			cols[name] = append(cols[name], r[j])
		}
	}
	return cols
}

// The propensity column of fp predict on a run's own test rows is the ê
// the run used, y_coded and a_coded are its coding, and fp audit of that
// output gives back the records' metrics.
func TestPredictPropensityAuditsWhatTheRecordsMeasured(t *testing.T) {
	run, data := trainToyRun(t)
	rows, ts := writeTestRows(t, run, 0, data)
	recs := readRecords(t, run)
	checked := 0
	for _, rec := range recs {
		if rec.Status != records.StatusOK || rec.Split != 0 {
			continue
		}
		checked++
		out := filepath.Join(t.TempDir(), "scores.csv")
		_, stderr, err := runFP(t, "predict", "--model", filepath.Join(run, rec.Weights), "--data", rows, "--out", out,
			"--logit", "--with-propensity", "--keep-coded")
		if err != nil {
			t.Fatalf("predict: %v", err)
		}
		if strings.Contains(stderr, "no raw input schema") {
			t.Errorf("a new run's propensity file borrowed its encoding: %s", stderr)
		}
		cols := readColumns(t, out)
		if lo, hi := minMax(ts.Propensity); !(lo < 0.4 && hi > 0.6) {
			t.Fatalf("the test rows' ê span [%v, %v]: too narrow to check them", lo, hi)
		}
		if len(cols["propensity"]) != len(ts.Rows) {
			t.Fatalf("%d propensities for %d test rows", len(cols["propensity"]), len(ts.Rows))
		}
		for k, i := range ts.Rows {
			e, err := strconv.ParseFloat(cols["propensity"][k], 64)
			if err != nil || math.Abs(e-ts.Propensity[k]) > 1e-12 {
				t.Fatalf("row %d: propensity %s, the run used %v", k, cols["propensity"][k], ts.Propensity[k])
			}
			if want := strconv.Itoa(int(ts.Data.Y[i])) + strconv.Itoa(int(ts.Data.A[i])); cols["y_coded"][k]+cols["a_coded"][k] != want {
				t.Fatalf("row %d: coded y, a = %s, %s; want %s", k, cols["y_coded"][k], cols["a_coded"][k], want)
			}
		}
		stdout, _, err := runFP(t, "audit", "--data", out, "--logit", "logit", "--label", "y_coded", "--group", "a_coded",
			"--propensity", "propensity", "--json")
		if err != nil {
			t.Fatalf("audit: %v", err)
		}
		var got struct {
			Risk, Accuracy, DP, EO, EOpp float64
			ATO                          *float64
		}
		if err := json.Unmarshal([]byte(stdout), &got); err != nil || got.ATO == nil {
			t.Fatalf("audit JSON %s: %v", stdout, err)
		}
		for _, m := range []struct {
			name      string
			got, want float64
		}{
			{"risk", got.Risk, rec.Risk}, {"accuracy", got.Accuracy, rec.Accuracy}, {"ato", *got.ATO, rec.ATO},
			{"dp", got.DP, rec.DP}, {"eo", got.EO, rec.EO}, {"eopp", got.EOpp, rec.EOpp},
		} {
			if math.Abs(m.got-m.want) > 1e-9 {
				t.Errorf("λ = %g: audit %s = %v, record %v", rec.Lambda, m.name, m.got, m.want)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no successful candidate of split 0")
	}
}

// A propensity file written before it carried its encoding takes the
// network's (the split's standardization, which both share) and gives the
// same ê; one outside a run folder is named with --propensity-file.
func TestPredictPropensityOldFileAndElsewhere(t *testing.T) {
	run, data := trainToyRun(t)
	rows, ts := writeTestRows(t, run, 0, data)
	net := filepath.Join(run, readRecords(t, run)[0].Weights)
	pm, err := runfolder.ReadPropensity(run, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := runfolder.WritePropensity(run, 0, pm, nil); err != nil { // the older, bare format
		t.Fatal(err)
	}
	stdout, stderr, err := runFP(t, "predict", "--model", net, "--data", rows, "--with-propensity")
	if err != nil || !strings.Contains(stderr, "holds no raw input schema") {
		t.Fatalf("old propensity file: err %v, stderr %q", err, stderr)
	}
	recs, _ := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if strings.Join(recs[0], ",") != "score,label,propensity" || len(recs)-1 != len(ts.Rows) {
		t.Fatalf("header %q, %d rows", recs[0], len(recs)-1)
	}
	for k := range ts.Rows {
		if e, _ := strconv.ParseFloat(recs[1+k][2], 64); math.Abs(e-ts.Propensity[k]) > 1e-12 {
			t.Fatalf("row %d: propensity %v, the run used %v", k, e, ts.Propensity[k])
		}
	}

	// A network outside its run folder: --with-propensity cannot find the
	// file and says so; --propensity-file names it.
	elsewhere := filepath.Join(t.TempDir(), "net.json")
	b, err := os.ReadFile(net)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(elsewhere, b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runFP(t, "predict", "--model", elsewhere, "--data", rows, "--with-propensity")
	if err == nil || !strings.Contains(err.Error(), "--propensity-file") {
		t.Fatalf("err = %v, want one naming --propensity-file", err)
	}
	oneLine(t, err.Error())
	stdout2, _, err := runFP(t, "predict", "--model", elsewhere, "--data", rows, "--propensity-file", runfolder.PropensityPath(run, 0))
	if err != nil || stdout2 != stdout {
		t.Fatalf("--propensity-file: err %v, output differs: %v", err, stdout2 != stdout)
	}
	// Not a propensity file: one line naming it.
	_, _, err = runFP(t, "predict", "--model", net, "--data", rows, "--propensity-file", rows)
	if err == nil || !strings.Contains(err.Error(), "not a propensity model") || !strings.Contains(err.Error(), rows) {
		t.Fatalf("err = %v", err)
	}
	oneLine(t, err.Error())
}

// --keep-coded names a missing target column and a value the network
// never coded in one line each.
func TestPredictKeepCodedErrors(t *testing.T) {
	net, _ := toyNetwork(t)
	dir := t.TempDir()
	for _, tc := range []struct{ name, text, want string }{
		{"no target", "x,colour,group\n1.5,red,north\n", `no column "outcome", the network's target, for --keep-coded`},
		{"a third value", "x,colour,outcome,group\n1.5,red,yes,north\n2.5,red,maybe,north\n",
			`line 3, column 3 (outcome): unexpected value "maybe" in the target column: the network codes "yes" as 1 and "no" as 0`},
		{"empty group", "x,colour,outcome,group\n1.5,red,yes,\n", "line 2, column 4 (group): empty cell"},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".csv")
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := runFP(t, "predict", "--model", net, "--data", path, "--keep-coded")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
			continue
		}
		oneLine(t, err.Error())
	}
}

// The new columns keep their types in a Parquet output: propensity
// DOUBLE, y_coded and a_coded INT32, with the values of the CSV output.
func TestPredictPropensityParquet(t *testing.T) {
	run, data := trainToyRun(t)
	rows, _ := writeTestRows(t, run, 0, data)
	net := filepath.Join(run, readRecords(t, run)[0].Weights)
	args := []string{"predict", "--model", net, "--data", rows, "--with-propensity", "--keep-coded", "--keep", "group"}
	want, _, err := runFP(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "scores.parquet")
	if _, _, err := runFP(t, append(args, "--out", out)...); err != nil {
		t.Fatal(err)
	}
	r, err := datasets.OpenParquet(out)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var types []string
	for _, typ := range r.Types() {
		types = append(types, typ.Name)
	}
	if h := strings.Join(r.Header(), ","); h != "group,score,label,propensity,y_coded,a_coded" ||
		types[3] != "DOUBLE" || !strings.HasPrefix(types[4], "INT32") || !strings.HasPrefix(types[5], "INT32") {
		t.Fatalf("header %s, types %q", h, types)
	}
	recs, _ := csv.NewReader(strings.NewReader(want)).ReadAll()
	for i := 1; i < len(recs); i++ {
		fields, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		for j, f := range fields {
			if string(f) != recs[i][j] {
				t.Fatalf("row %d, column %s: %q, CSV %q", i, recs[0][j], f, recs[i][j])
			}
		}
	}
}

func minMax(v []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range v {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return lo, hi
}

// runFPStdin runs fp with stdin as its standard input.
func runFPStdin(t *testing.T, stdin string, args ...string) (stdout string, err error) {
	t.Helper()
	app := newApp()
	var out, errb bytes.Buffer
	app.Reader, app.Writer, app.ErrWriter = strings.NewReader(stdin), &out, &errb
	err = app.Run(append([]string{"fp"}, args...))
	return out.String(), err
}

// fp audit --data - reads the predictions from standard input as it reads
// a file, and names "standard input" in a one-line error.
func TestAuditStandardInput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "preds.csv")
	if err := os.WriteFile(path, []byte(handCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--score", "score", "--label", "y", "--group", "sex", "--propensity", "e", "--json"}
	want, _, err := runFP(t, append([]string{"audit", "--data", path}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	got, err := runFPStdin(t, handCSV, append([]string{"audit", "--data", "-"}, args...)...)
	if err != nil || got != want {
		t.Fatalf("from standard input: err %v, output\n%s\nwant\n%s", err, got, want)
	}
	for _, tc := range []struct{ stdin, want string }{
		{"", "standard input: empty file"},
		{"id,score,y,sex,e\n1,1.5,yes,F,0.5\n", "standard input, line 2, column 2 (score)"},
		{"id,y,sex,e\n1,yes,F,0.5\n", `standard input, line 1: column not found: no column "score"`},
	} {
		_, err := runFPStdin(t, tc.stdin, append([]string{"audit", "--data", "-"}, args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("stdin %q: err = %v, want %q", tc.stdin, err, tc.want)
			continue
		}
		oneLine(t, err.Error())
	}
}

// fp pick names NEW.csv for the rows to score, says how to score the data
// the network was trained on, and gives the audit that measures what the
// records measure.
func TestPickSuggestsNewData(t *testing.T) {
	pts := [][3]float64{{0.60, 0.20, 0.70}, {0.62, 0.02, 0.67}, {0.70, 0.01, 0.60}}
	builtin, csvCfg := experiments.DefaultConfig(), experiments.DefaultConfig()
	csvCfg.Dataset, csvCfg.CSV, csvCfg.Target, csvCfg.Sensitive = "", "my data.csv", "y", "a"
	for _, tc := range []struct {
		name string
		cfg  *runfolder.Config
		hint string
	}{
		{"built-in", &builtin.Config, "(to score the data it was trained on: fp datasets export compas --out compas.csv, then --data compas.csv)"},
		{"csv", &csvCfg.Config, "(to score the data it was trained on: --data 'my data.csv')"},
		{"no configuration", nil, ""},
	} {
		dir := writeSweep(t, pts, nil)
		if tc.cfg != nil {
			if err := runfolder.Claim(dir, *tc.cfg); err != nil {
				t.Fatal(err)
			}
		}
		stdout, _, err := runFP(t, "pick", dir, "--max-risk", "0.65")
		if err != nil {
			t.Fatal(err)
		}
		net := filepath.Join(dir, "networks", "split-000", "net-b.json")
		for _, w := range []string{
			"fp predict --model " + net + " --data NEW.csv --out scores.csv",
			"fp predict --model " + net + " --data NEW.csv --logit --with-propensity --keep-coded | " +
				"fp audit --data - --logit logit --label y_coded --group a_coded --propensity propensity",
			tc.hint,
		} {
			if !strings.Contains(stdout, w) {
				t.Errorf("%s: output lacks %q:\n%s", tc.name, w, stdout)
			}
		}
		if tc.hint == "" && strings.Contains(stdout, "trained on:") {
			t.Errorf("%s: a hint without a configuration:\n%s", tc.name, stdout)
		}
	}
}

// The audit command fp pick suggests runs as printed: fp predict's output
// piped into fp audit --data - gives the records' metrics on the test rows.
func TestPickAuditPipelineRuns(t *testing.T) {
	run, data := trainToyRun(t)
	rows, _ := writeTestRows(t, run, 0, data)
	rec := readRecords(t, run)[0]
	net := filepath.Join(run, rec.Weights)
	scores, _, err := runFP(t, "predict", "--model", net, "--data", rows, "--logit", "--with-propensity", "--keep-coded")
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := runFPStdin(t, scores, "audit", "--data", "-", "--logit", "logit", "--label", "y_coded", "--group", "a_coded",
		"--propensity", "propensity", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Risk, DP float64 }
	if err := json.Unmarshal([]byte(stdout), &got); err != nil || math.Abs(got.Risk-rec.Risk) > 1e-9 || math.Abs(got.DP-rec.DP) > 1e-9 {
		t.Errorf("audit from standard input: risk %v, dp %v (%v); record %v, %v", got.Risk, got.DP, err, rec.Risk, rec.DP)
	}
}
