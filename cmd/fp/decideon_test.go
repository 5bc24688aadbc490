package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fpareto/fp/records"
)

// selCand is a candidate of split m at λ with test and selection (risk,
// ATO); nil sel writes a record without selection metrics.
type selCand struct {
	split     int
	lambda    float64
	risk, ato float64
	sel       *[2]float64
}

// writeSelSweep writes cands as one run's records into a new folder.
func writeSelSweep(t *testing.T, cands []selCand) string {
	t.Helper()
	dir := t.TempDir()
	w, err := records.Open(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	constRisk := 1.0 // above every candidate's: none is no better than constant
	for _, c := range cands {
		r := records.Record{Dataset: "compas", Method: "cheb", Penalty: "ato-penultimate", Split: c.split, Lambda: c.lambda,
			Risk: c.risk, ATO: c.ato, Accuracy: 0.7, DP: c.ato, EO: c.ato, EOpp: c.ato, Status: records.StatusOK, Config: "abc",
			Weights: filepath.Join("networks", "net.json"), ConstRisk: &constRisk}
		if c.sel != nil {
			r.Selection = &records.Selection{SelRisk: c.sel[0], SelATO: c.sel[1], SelDP: c.sel[1], SelEO: c.sel[1], SelEOpp: c.sel[1],
				SelAccuracy: 0.6, NSel: 50}
		}
		if err := w.Append(&r); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// On split 0, A is best on the test rows under ATO ≤ 0.05 and B on the
// selection rows (where A's ATO is 0.10); split 1's D beats both on either.
var selSweep = []selCand{
	{split: 0, lambda: 0, risk: 0.60, ato: 0.02, sel: &[2]float64{0.60, 0.10}},
	{split: 0, lambda: 0.1, risk: 0.65, ato: 0.10, sel: &[2]float64{0.62, 0.01}},
	{split: 0, lambda: 1, risk: 0.70, ato: 0.00, sel: &[2]float64{0.70, 0.00}},
	{split: 1, lambda: 0.5, risk: 0.50, ato: 0.01, sel: &[2]float64{0.50, 0.01}},
}

func TestPickDecidesOnSelectionRows(t *testing.T) {
	dir := writeSelSweep(t, selSweep)
	cases := []struct {
		args      []string
		split     int
		lambda    float64
		risk, ato float64 // shown: the test metrics
		decided   string
	}{
		{[]string{"--split", "0"}, 0, 0.1, 0.65, 0.10, "selection"},
		{[]string{"--split", "0", "--decide-on", "selection"}, 0, 0.1, 0.65, 0.10, "selection"},
		{[]string{"--split", "0", "--decide-on", "test"}, 0, 0, 0.60, 0.02, "test"},
		{nil, 1, 0.5, 0.50, 0.01, "selection"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			stdout, stderr, err := runFP(t, append([]string{"pick", dir, "--json", "--max-unfairness", "0.05"}, tc.args...)...)
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				Split     int      `json:"split"`
				Lambda    float64  `json:"lambda"`
				Risk      float64  `json:"risk"`
				ATO       float64  `json:"ato"`
				DecidedOn string   `json:"decided_on"`
				SelRisk   *float64 `json:"sel_risk"`
			}
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatal(err)
			}
			if got.Split != tc.split || got.Lambda != tc.lambda || got.Risk != tc.risk || got.ATO != tc.ato || got.DecidedOn != tc.decided {
				t.Errorf("picked %+v, want split %d λ %g with test risk %g, ATO %g, decided on %s", got, tc.split, tc.lambda, tc.risk, tc.ato, tc.decided)
			}
			if got.SelRisk == nil {
				t.Error("the pick's selection metrics are missing")
			}
			optimistic := strings.Contains(stderr, "optimistic")
			if optimistic != (tc.decided == "test") {
				t.Errorf("decided on %s, stderr %q", tc.decided, stderr)
			}
		})
	}
	stdout, _, err := runFP(t, "pick", dir, "--split", "0", "--max-unfairness", "0.05")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"chosen on selection metrics; test metrics shown", "on the 50 selection rows it was chosen on: risk 0.6200"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("text output lacks %q:\n%s", want, stdout)
		}
	}
	_, _, err = runFP(t, "pick", dir, "--split", "7", "--knee")
	if err == nil || !strings.Contains(err.Error(), "--split 7: no successful candidate of split 7") {
		t.Errorf("absent split: err = %v", err)
	} else {
		oneLine(t, err.Error())
	}
	_, _, err = runFP(t, "pick", dir, "--knee", "--decide-on", "validation")
	if err == nil || !strings.Contains(err.Error(), `--decide-on: decide on "validation": want selection or test`) {
		t.Errorf("bad --decide-on: err = %v", err)
	}
}

// Records with and without selection metrics are refused together, in one
// line, by every command that decides fronts, unless they decide on the
// test rows; records without them alone decide on the test rows.
func TestMixedSelectionRecordsAreRefused(t *testing.T) {
	with := writeSelSweep(t, selSweep)
	without := writeSelSweep(t, []selCand{{split: 0, lambda: 0, risk: 0.6, ato: 0.05}, {split: 0, lambda: 1, risk: 0.7, ato: 0}})
	report := filepath.Join(t.TempDir(), "r.html")
	plot := filepath.Join(t.TempDir(), "f.png")
	for _, cmd := range [][]string{
		{"front"}, {"compare"}, {"pick", "--max-unfairness", "0.05"}, {"plot", "--out", plot}, {"report", "--out", report},
	} {
		t.Run(cmd[0], func(t *testing.T) {
			args := append(append([]string{cmd[0], with, without}, cmd[1:]...), "--json")
			_, _, err := runFP(t, args...)
			if err == nil || !strings.Contains(err.Error(), "some records have selection metrics and some do not") {
				t.Fatalf("mixed records: err = %v", err)
			}
			oneLine(t, err.Error())
			if _, _, err := runFP(t, append(args, "--decide-on", "test")...); err != nil {
				t.Errorf("--decide-on test: %v", err)
			}
		})
	}
	stdout, _, err := runFP(t, "front", without, "--json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, `"decided_on": "test"`) {
		t.Errorf("records without selection metrics: not decided on test:\n%s", stdout)
	}
	stdout, _, err = runFP(t, "front", with)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "fronts chosen on the selection rows") {
		t.Errorf("fp front does not say the fronts were chosen on the selection rows:\n%s", stdout)
	}
	if _, _, err := runFP(t, "front", without, "--decide-on", "selection"); err == nil || !strings.Contains(err.Error(), "no record has selection metrics") {
		t.Errorf("--decide-on selection without selection metrics: err = %v", err)
	}
}

// fp train keeps half of a CSV's test rows as selection rows by default,
// decides its closing front on them, and a folder made without selection
// rows (as before they existed) resumes with none.
func TestTrainSelectFraction(t *testing.T) {
	if testing.Short() {
		t.Skip("trains two small sweeps")
	}
	csv := filepath.Join(t.TempDir(), "d.csv")
	var b strings.Builder
	b.WriteString("x1,x2,a,y\n")
	for i := range 200 {
		x1, x2 := float64(i%17)/17, float64(i%7)/7
		a, y := i%2, 0
		if x1+0.3*float64(a) > 0.6 {
			y = 1
		}
		b.WriteString(strings.Join([]string{strconv.FormatFloat(x1, 'g', 6, 64), strconv.FormatFloat(x2, 'g', 6, 64),
			strconv.Itoa(a), strconv.Itoa(y)}, ",") + "\n")
	}
	if err := os.WriteFile(csv, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"train", "--data", csv, "--target", "y", "--sensitive", "a", "--splits", "1", "--lambdas", "0,1",
		"--epochs", "2", "--propensity-epochs", "3", "--workers", "1", "--no-plot", "--quiet"}
	dir := filepath.Join(t.TempDir(), "new")
	stdout, _, err := runFP(t, append(base, "--out", dir)...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "non-dominated on the selection rows, by test risk (chosen on selection rows, shown on test rows)") {
		t.Errorf("the closing front does not say it was chosen on the selection rows:\n%s", stdout)
	}
	recs, err := records.Read(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		// Half of each (y, a) cell's test rows, rounded in each cell.
		if !r.HasSelection() || r.NSel+r.NTest != 100 || r.NSel < 48 || r.NSel > 52 {
			t.Errorf("%s: n_sel %v, n_test %d; want about half of the 100 test rows each", r.Key(), r.Selection, r.NTest)
		}
	}
	old := filepath.Join(t.TempDir(), "old")
	if _, _, err := runFP(t, append(base, "--out", old, "--select-fraction", "0")...); err != nil {
		t.Fatal(err)
	}
	cfg, err := os.ReadFile(filepath.Join(old, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(cfg), "select_fraction") {
		t.Fatalf("no selection rows: config.json names a share:\n%s", cfg)
	}
	// The folder reads as one made before selection rows: the same command
	// without the flag resumes it.
	stdout, _, err = runFP(t, append(base, "--out", old)...)
	if err != nil {
		t.Fatalf("resuming a folder without selection rows: %v", err)
	}
	if !strings.Contains(stdout, "0 trained now") || strings.Contains(stdout, "selection rows") {
		t.Errorf("resume retrained or decided on selection rows:\n%s", stdout)
	}
	if _, _, err := runFP(t, append(base, "--out", old, "--select-fraction", "0.5")...); err == nil || !strings.Contains(err.Error(), "select_fraction") {
		t.Errorf("another share in the same folder: err = %v, want a refusal naming select_fraction", err)
	}
}
