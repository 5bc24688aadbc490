package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/compare"
	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/records"
)

// writeBeforeAfter writes the same 240 rows twice: before.csv with an id
// column (a row counter) and after.csv, a copy edited by hand without it.
func writeBeforeAfter(t *testing.T, dir string) (before, after string) {
	t.Helper()
	var b, a strings.Builder
	b.WriteString("id,x,colour,outcome,group\n")
	a.WriteString("x,colour,outcome,group\n")
	colours := []string{"red", "green", "blue"}
	for i := range 240 {
		y := "no"
		if (i*7)%5 < 2 {
			y = "yes"
		}
		g := "north"
		if (i/2)%3 == 0 {
			g = "south"
		}
		row := fmt.Sprintf("%d.5,%s,%s,%s\n", (i*11)%17, colours[i%3], y, g)
		fmt.Fprintf(&b, "%d,%s", i+1, row)
		a.WriteString(row)
	}
	before, after = filepath.Join(dir, "before.csv"), filepath.Join(dir, "after.csv")
	for path, text := range map[string]string{before: b.String(), after: a.String()} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return before, after
}

// tinyTrain is fp train with the smallest sweep that has two splits.
func tinyTrain(t *testing.T, out string, args ...string) (stdout, stderr string) {
	t.Helper()
	all := append([]string{"train", "--splits", "2", "--lambdas", "0,1", "--epochs", "2", "--propensity-epochs", "2",
		"--engine", "backprop", "--quiet", "--no-plot", "--out", out}, args...)
	stdout, stderr, err := runFP(t, all...)
	if err != nil {
		t.Fatalf("fp %s: %v", strings.Join(all, " "), err)
	}
	return stdout, stderr
}

// pairedSplits runs fp compare --json on runs and returns the number of
// splits each paired row compares.
func pairedSplits(t *testing.T, args ...string) []int {
	t.Helper()
	out, _, err := runFP(t, append([]string{"compare", "--json"}, args...)...)
	if err != nil {
		t.Fatalf("fp compare %s: %v", strings.Join(args, " "), err)
	}
	var res compare.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	var n []int
	for _, p := range res.Paired {
		n = append(n, p.Splits)
	}
	return n
}

// Before and after leaving a column out (with --exclude, or from a copy of
// the file): the same rows, the same splits, and fp compare pairs the two
// runs split by split, whatever the files are called.
func TestCompareBeforeAndAfterExcludingAColumn(t *testing.T) {
	dir := t.TempDir()
	before, after := writeBeforeAfter(t, dir)
	all, excluded, edited := filepath.Join(dir, "all"), filepath.Join(dir, "excluded"), filepath.Join(dir, "edited")
	csv := []string{"--target", "outcome", "--sensitive", "group"}
	_, stderr := tinyTrain(t, all, append([]string{"--data", before}, csv...)...)
	if !strings.Contains(stderr, `(1 to 240): likely a row counter or identifier, which a network learns by heart (if it is a measurement, keep it); leave it out with --exclude id`) {
		t.Errorf("no warning about the id column:\n%s", stderr)
	}
	_, stderr = tinyTrain(t, excluded, append([]string{"--data", before, "--exclude", "id"}, csv...)...)
	if strings.Contains(stderr, "--exclude") {
		t.Errorf("a warning after the column was left out:\n%s", stderr)
	}
	tinyTrain(t, edited, append([]string{"--data", after}, csv...)...)

	ids := map[string]string{}
	for _, run := range []string{all, excluded, edited} {
		cfg, err := experiments.ReadConfig(run)
		if err != nil {
			t.Fatal(err)
		}
		ids[run] = cfg.DataID
		for _, r := range readRecords(t, run) {
			if r.DataID != cfg.DataID {
				t.Errorf("%s: record data_id %q, config.json %q", run, r.DataID, cfg.DataID)
			}
		}
	}
	if ids[all] == "" || ids[all] != ids[excluded] || ids[all] != ids[edited] {
		t.Fatalf("data_id: all %q, excluded %q, edited %q", ids[all], ids[excluded], ids[edited])
	}
	excl, _ := experiments.ReadConfig(excluded)
	if strings.Join(excl.Exclude, ",") != "id" {
		t.Errorf("config.json exclude = %v", excl.Exclude)
	}

	for _, pair := range [][]string{{all, excluded}, {all, edited}, {excluded, edited}, {"--by", "dataset,run", all, edited}} {
		got := pairedSplits(t, pair...)
		if len(got) != len(records.Metrics) { // one pair per metric: new records carry the decision metrics
			t.Fatalf("fp compare %v: %d paired rows, want %d", pair, len(got), len(records.Metrics))
		}
		for _, n := range got {
			if n != 2 {
				t.Errorf("fp compare %v pairs %d splits, want 2", pair, n)
			}
		}
	}
	text, _, err := runFP(t, "compare", all, edited)
	if err != nil || strings.Count(text, ", split by split: A − B, A = ") != len(records.Metrics) || !strings.Contains(text, "mean A − B") {
		t.Errorf("fp compare prints no paired per-split statistics: %v\n%s", err, text)
	}
	if _, _, err := runFP(t, "front", all, edited); err != nil {
		t.Errorf("fp front of one dataset under two names: %v", err)
	}

	// The network trained without id scores the copy that lacks it.
	recs := readRecords(t, excluded)
	net := filepath.Join(excluded, recs[0].Weights)
	scores := filepath.Join(dir, "scores.csv")
	if _, _, err := runFP(t, "predict", "--model", net, "--data", after, "--out", scores); err != nil {
		t.Fatalf("fp predict without the excluded column: %v", err)
	}
	if b, _ := os.ReadFile(scores); strings.Count(string(b), "\n") != 241 {
		t.Errorf("scores.csv has %d lines, want 241", strings.Count(string(b), "\n"))
	}
}

func TestTrainColumnFlagsRefused(t *testing.T) {
	dir := t.TempDir()
	before, _ := writeBeforeAfter(t, dir)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--data", before, "--target", "outcome", "--sensitive", "group", "--exclude", "idd"}, `--exclude: no column "idd"; did you mean "id"?`},
		{[]string{"--data", before, "--target", "outcome", "--sensitive", "group", "--features", "x,colour=red"}, `did you mean "colour"?`},
		{[]string{"--data", before, "--target", "outcome", "--sensitive", "group", "--exclude", "group"}, `"group" is the sensitive column`},
		{[]string{"--data", before, "--target", "outcome", "--sensitive", "group", "--exclude", "id", "--features", "x"}, "give --features or --exclude, not both"},
		{[]string{"--dataset", "compas", "--exclude", "priors"}, `dataset compas: --exclude: no column "priors"; did you mean "priors_count"?`},
	} {
		out := filepath.Join(dir, "run")
		_, _, err := runFP(t, append([]string{"train", "--quiet", "--no-plot", "--out", out}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("fp train %v: %v, want %q", tc.args, err, tc.want)
			continue
		}
		oneLine(t, err.Error())
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("fp train %v made the run folder", tc.args)
		}
	}
}

// Runs of two datasets are refused alike by every command that pools or
// pairs candidates; --by dataset keeps them apart where a command has it.
func TestEveryCommandRefusesTwoDatasets(t *testing.T) {
	dir := t.TempDir()
	before, _ := writeBeforeAfter(t, dir)
	csvRun, compasRun := filepath.Join(dir, "csv"), filepath.Join(dir, "compas")
	tinyTrain(t, csvRun, "--data", before, "--target", "outcome", "--sensitive", "group", "--exclude", "id")
	tinyTrain(t, compasRun, "--dataset", "compas", "--exclude", "age_cat", "--propensity-epochs", "1", "--epochs", "1")

	refusal := "the records are of 2 datasets (before.csv (group); compas (race)): a front or a comparison is of one dataset's candidates; give one dataset's runs"
	for _, tc := range []struct {
		args   []string
		escape string
	}{
		{[]string{"compare"}, ", or keep the datasets apart with --by dataset,run"},
		{[]string{"front"}, ", or keep the datasets apart with --by dataset,run"},
		{[]string{"plot", "--out", filepath.Join(dir, "f.png")}, ", or keep the datasets apart with --by dataset,method,penalty"},
		{[]string{"report", "--out", filepath.Join(dir, "r.html")}, ", or keep the datasets apart with --by dataset"},
		{[]string{"pick", "--knee"}, ""},
	} {
		_, _, err := runFP(t, append(tc.args, csvRun, compasRun)...)
		if err == nil || !strings.HasSuffix(err.Error(), refusal+tc.escape) {
			t.Errorf("fp %s: %v, want it to end with %q", tc.args[0], err, refusal+tc.escape)
			continue
		}
		oneLine(t, err.Error())
	}
	for _, args := range [][]string{
		// The CSV run kept selection rows and COMPAS did not: they are
		// decided alike on their test rows.
		{"compare", "--by", "dataset,run", "--decide-on", "test"},
		{"front", "--by", "dataset,run", "--decide-on", "test"},
		{"plot", "--by", "dataset,method,penalty", "--decide-on", "test", "--out", filepath.Join(dir, "f.png")},
		{"report", "--by", "dataset", "--decide-on", "test", "--out", filepath.Join(dir, "r.html")},
	} {
		if _, _, err := runFP(t, append(args, csvRun, compasRun)...); err != nil {
			t.Errorf("fp %s: %v", strings.Join(args, " "), err)
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, "r.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<h3 class="dataset">before.csv (group)</h3>`, `<h3 class="dataset">compas (race)</h3>`,
		`id="panel-ato-1" data-metric="ato" data-dataset="1"`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the report lacks %s", want)
		}
	}
	if _, _, err := runFP(t, "report", "--by", "method", csvRun); err == nil || !strings.Contains(err.Error(), "only --by dataset") {
		t.Errorf("fp report --by method: %v", err)
	}
}

// Records written before the rows' identity was recorded fall back to
// dataset, preset and sensitive attribute, with each other and beside new
// records.
func TestRecordsWithoutDataID(t *testing.T) {
	compas := filepath.Join("..", "..", "results", "compas")
	cheb, linear := filepath.Join(compas, "cheb-ato-penultimate.jsonl"), filepath.Join(compas, "linear-ato-penultimate.jsonl")
	adult := filepath.Join("..", "..", "results", "adult-sex", "cheb-ato-penultimate.jsonl")
	// They carry no const_risk either: compared under the paper's rule.
	if n := pairedSplits(t, "--front-rule", "minmax", cheb, linear); len(n) != 4 || n[0] < 2 {
		t.Errorf("fp compare of committed COMPAS runs pairs %v splits", n)
	}
	if _, _, err := runFP(t, "compare", cheb, adult); err == nil || !strings.Contains(err.Error(), "2 datasets (compas (race); adult-sex)") {
		t.Errorf("COMPAS with Adult: %v", err)
	}
	newRun := filepath.Join(t.TempDir(), "compas")
	tinyTrain(t, newRun, "--dataset", "compas", "--propensity-epochs", "1", "--epochs", "1")
	if n := pairedSplits(t, "--front-rule", "minmax", cheb, newRun); len(n) != 4 || n[0] != 2 {
		t.Errorf("a committed COMPAS run beside a new one pairs %v splits, want 2 each", n)
	}
}

// A column whose name holds a comma can be named in --exclude (in double
// quotes, as a CSV field), and the identifier warning's hint is written
// that way: pasted into a shell, it leaves the column out.
func TestCommaColumnNameable(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data.csv")
	var b strings.Builder
	b.WriteString("y,\"inc,high\",x,z,a\n")
	for i := range 300 {
		fmt.Fprintf(&b, "%d,%d,%.3f,%.3f,%c\n", i*7%3%2, i+1, float64(i*37%101)/101, float64(i*53%97)/97, "mf"[i*5%7%2])
	}
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	args := func(out string, more ...string) []string {
		return append([]string{"train", "--data", data, "--target", "y", "--sensitive", "a", "--splits", "1", "--lambdas", "0,1",
			"--epochs", "1", "--engine", "backprop", "--no-plot", "-q", "--out", filepath.Join(dir, out)}, more...)
	}
	_, stderr, err := runFP(t, args("r1")...)
	if err != nil {
		t.Fatal(err)
	}
	const hint = `--exclude '"inc,high"'`
	if !strings.Contains(stderr, hint) {
		t.Fatalf("no hint %s in:\n%s", hint, stderr)
	}
	for _, given := range []string{`"inc,high"`, `x, "inc,high"`} {
		_, stderr, err = runFP(t, args("r-"+fmt.Sprint(len(given)), "--exclude", given)...)
		if err != nil {
			t.Fatalf("--exclude %s: %v", given, err)
		}
		if strings.Contains(stderr, "inc,high") {
			t.Errorf("--exclude %s: still warned of:\n%s", given, stderr)
		}
	}
	if _, _, err := runFP(t, args("r3", "--exclude", `"inc,high`)...); err == nil || !strings.Contains(err.Error(), "--exclude") {
		t.Errorf("an unclosed quote: err = %v, want a refusal naming --exclude", err)
	}
}
