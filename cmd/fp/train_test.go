package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// readRecords reads a run's records, sorted by candidate, with timings cleared.
func readRecords(t *testing.T, dir string) []records.Record {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	var all []records.Record
	for _, f := range files {
		recs, err := records.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, recs...)
	}
	for i := range all {
		all[i].TrainSeconds = 0
		all[i].Shard = ""
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Key() < all[j].Key() })
	return all
}

// The runner's own behaviour (resuming, the worker count, surviving SIGKILL)
// is tested in package experiments.

func TestTrainReadsConfigFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"sweep.yaml": "splits: 1\nlambdas: \"0,0.5,1\"\nepochs: 2\nengine: backprop\npropensity-epochs: 2\n",
		"sweep.toml": "splits = 1\nlambdas = \"0,0.5,1\"\nepochs = 2\nengine = \"backprop\"\npropensity-epochs = 2\n",
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "run-"+name)
		// A flag on the command line wins over the file.
		if _, _, err := runFP(t, "train", "--config", path, "--seed", "7", "--out", out, "--quiet", "--no-plot"); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		recs := readRecords(t, out)
		if len(recs) != 3 || recs[0].Epochs != 2 || recs[0].Engine != "backprop" || recs[0].Seed != 7 {
			t.Errorf("%s: %d records, first %+v", name, len(recs), recs[0])
		}
	}
	bad := filepath.Join(dir, "sweep.ini")
	os.WriteFile(bad, []byte("splits=1"), 0o644)
	if _, _, err := runFP(t, "train", "--config", bad, "--out", filepath.Join(dir, "x")); err == nil || !strings.Contains(err.Error(), "sweep.ini") {
		t.Errorf("an .ini config: err = %v", err)
	}
}

// Every class of bad input data ends fp train with one line that names where.
func TestTrainRefusesBadCSV(t *testing.T) {
	const good = "x,c,y,g\n1,a,0,m\n2,b,1,f\n3,a,0,f\n4,b,1,m\n"
	cases := []struct {
		name, text string
		args       []string
		want       []string // all must appear in the error
	}{
		{"missing column", good, []string{"--target", "label"}, []string{"label"}},
		{"three-valued target", "x,y,g\n1,0,m\n2,1,f\n3,2,f\n4,1,m\n", nil, []string{"column 2", "y", "0", "1", "2"}},
		{"empty cell", "x,y,g\n1,0,m\n,1,f\n3,0,f\n4,1,m\n", nil, []string{"line 3", "column 1"}},
		{"ragged row", "x,y,g\n1,0,m\n2,1\n3,0,f\n4,1,m\n", nil, []string{"line 3"}},
		{"empty file", "", nil, []string{"empty"}},
		{"group with no rows", "x,y,g\n1,0,m\n,1,f\n3,0,m\n4,1,m\n", []string{"--drop-missing"}, []string{"g"}},
		{"NaN", "x,y,g\n1,0,m\nNaN,1,f\n3,0,f\n4,1,m\n", nil, []string{"line 3", "column 1"}},
		{"Inf", "x,y,g\n1,0,m\n2,1,f\n+Inf,0,f\n4,1,m\n", nil, []string{"line 4", "column 1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "data.csv")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"train", "--data", path, "--target", "y", "--sensitive", "g", "--out", filepath.Join(t.TempDir(), "run"), "--quiet"}
			args = append(args, tc.args...)
			_, _, err := runFP(t, args...)
			if err == nil {
				t.Fatal("bad data accepted")
			}
			msg := err.Error()
			oneLine(t, msg)
			for _, w := range append([]string{"data.csv"}, tc.want...) {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not mention %q", msg, w)
				}
			}
		})
	}
}

func TestTrainAdversarialBaseline(t *testing.T) {
	out := filepath.Join(t.TempDir(), "adv")
	args := []string{"train", "--method", "adversarial", "--splits", "1", "--lambdas", "0,0.5,1", "--beta-scale", "200",
		"--adv-rounds", "5", "--adv-pretrain-clf", "1", "--adv-pretrain-adv", "1", "--propensity-epochs", "2",
		"--quiet", "--no-plot", "--out", out}
	if _, _, err := runFP(t, args...); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, out)
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3", len(recs))
	}
	betas := map[float64]bool{}
	for _, r := range recs {
		betas[r.Lambda] = true
		if r.Method != "adversarial" || r.Penalty != "" || r.BetaScale != 200 || r.Engine != "graph" || !r.OK() || r.AdvVersion != 2 {
			t.Errorf("record %+v", r)
		}
		if !(r.TrainR > 0) || r.ValR != nil || !r.HasOverlap() {
			t.Errorf("record: train_r %g, val_r %v, overlap summary %v; want a training risk, no validation part and the overlap", r.TrainR, r.ValR, r.HasOverlap())
		}
	}
	if !betas[0] || !betas[100] || !betas[200] {
		t.Errorf("β values %v, want 0, 100 and 200 (λ × 200)", betas)
	}
	_, _, err := runFP(t, "train", "--method", "adversarial", "--engine", "backprop", "--out", filepath.Join(t.TempDir(), "x"))
	if err == nil || !strings.Contains(err.Error(), "graph engine") {
		t.Errorf("adversarial on the handwritten engine: err = %v", err)
	}
}

// The earlier adversarial schedule stays selectable, with its own digest and
// its version in every record; an unknown version names the flag.
func TestTrainAdversarialVersions(t *testing.T) {
	args := []string{"train", "--method", "adversarial", "--splits", "1", "--lambdas", "0,1",
		"--adv-rounds", "3", "--adv-pretrain-clf", "1", "--adv-pretrain-adv", "1", "--propensity-epochs", "2",
		"--quiet", "--no-plot"}
	digests := map[int]string{}
	for _, v := range []int{1, 2} {
		out := filepath.Join(t.TempDir(), "adv")
		if _, _, err := runFP(t, append(args, "--adv-version", strconv.Itoa(v), "--out", out)...); err != nil {
			t.Fatal(err)
		}
		for _, r := range readRecords(t, out) {
			if r.AdvVersion != v {
				t.Errorf("--adv-version %d: record has adv_version %d", v, r.AdvVersion)
			}
			digests[v] = r.Config
		}
	}
	if digests[1] == digests[2] {
		t.Errorf("both schedules have the config digest %s", digests[1])
	}
	_, _, err := runFP(t, append(args, "--adv-version", "3", "--out", filepath.Join(t.TempDir(), "x"))...)
	if err == nil || !strings.Contains(err.Error(), "--adv-version") {
		t.Errorf("--adv-version 3: err = %v, want one naming the flag", err)
	}
}

// The classifier's budget: --adv-clf-steps K and --adv-budget matched put
// K and the steps taken in every record; the paper's K = 1 puts neither; a
// contradiction is refused in one line naming the flag.
func TestTrainAdversarialClassifierBudget(t *testing.T) {
	args := []string{"train", "--method", "adversarial", "--splits", "1", "--lambdas", "0,1", "--epochs", "3",
		"--adv-rounds", "3", "--adv-pretrain-clf", "1", "--adv-pretrain-adv", "1", "--propensity-epochs", "2",
		"--quiet", "--no-plot"}
	// COMPAS trains on 3,086 rows in batches of 150: B = 21.
	for _, tc := range []struct {
		flags        []string
		steps, total int
	}{
		{nil, 0, 0},
		{[]string{"--adv-clf-steps", "1"}, 0, 0},
		{[]string{"--adv-clf-steps", "4"}, 4, 21 + 3*4},
		{[]string{"--adv-budget", "matched"}, 14, 21 + 3*14}, // ⌈(3·21 − 21)/3⌉
	} {
		out := filepath.Join(t.TempDir(), "adv")
		if _, _, err := runFP(t, append(append(args, tc.flags...), "--out", out)...); err != nil {
			t.Fatal(err)
		}
		for _, r := range readRecords(t, out) {
			if r.AdvClfSteps != tc.steps || r.AdvClfStepsTotal != tc.total {
				t.Errorf("%v: adv_clf_steps %d, adv_clf_steps_total %d; want %d, %d", tc.flags, r.AdvClfSteps, r.AdvClfStepsTotal, tc.steps, tc.total)
			}
		}
	}
	for _, tc := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--adv-budget", "matched", "--adv-clf-steps", "5"}, "--adv-clf-steps: 5 contradicts --adv-budget matched, which gives 14"},
		{[]string{"--adv-budget", "long"}, "--adv-budget"},
		{[]string{"--adv-clf-steps", "2", "--adv-version", "1"}, "--adv-clf-steps"},
	} {
		_, _, err := runFP(t, append(append(args, tc.flags...), "--out", filepath.Join(t.TempDir(), "x"))...)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: err = %v, want one line with %q", tc.flags, err, tc.want)
		}
	}
}

// The scale-free penalties train from the command line on both engines.
func TestTrainNewPenaltiesOnBothEngines(t *testing.T) {
	for _, pen := range []string{"ato-penultimate-normalized", "ato-output"} {
		for _, eng := range []string{"backprop", "graph"} {
			t.Run(pen+"/"+eng, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "run")
				if _, _, err := runFP(t, "train", "--penalty", pen, "--engine", eng, "--splits", "1", "--lambdas", "0,0.5,1",
					"--epochs", "2", "--propensity-epochs", "2", "--quiet", "--no-plot", "--out", out); err != nil {
					t.Fatal(err)
				}
				recs := readRecords(t, out)
				if len(recs) != 3 {
					t.Fatalf("%d records, want 3", len(recs))
				}
				for _, r := range recs {
					if r.Penalty != pen || r.Engine != eng || !r.OK() || !(r.UMax > r.UMin) {
						t.Errorf("record %+v", r)
					}
				}
			})
		}
	}
}

// Config errors name the flag that sets the field, not the library's key.
func TestTrainErrorsNameFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--splits", "0"}, "--splits: "},
		{[]string{"--train-fraction", "1.5"}, "--train-fraction: "},
		{[]string{"--method", "adversarial", "--adv-rounds", "0"}, "--adv-rounds: "},
		{[]string{"--method", "adversarial", "--beta-scale", "0"}, "--beta-scale: "},
		{[]string{"--data", "x.csv", "--engine", "torch"}, "--engine: "},
	} {
		out := filepath.Join(t.TempDir(), "x")
		_, _, err := runFP(t, append([]string{"train", "--quiet", "--out", out}, tc.args...)...)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want it to start with %q", tc.args, err, tc.want)
			continue
		}
		oneLine(t, err.Error())
	}
}

// --lockstep trains in lockstep and says so in the records; on the graph
// engine it is refused naming the flag, before the folder exists.
func TestTrainLockstepFlag(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run")
	if _, _, err := runFP(t, "train", "--splits", "1", "--lambdas", "0,0.5,1", "--epochs", "2", "--propensity-epochs", "2",
		"--engine", "backprop", "--lockstep", "--out", out, "--quiet", "--no-plot"); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, out)
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3", len(recs))
	}
	for _, r := range recs {
		if r.EngineMode != "lockstep" || r.EngineVersion == "" {
			t.Errorf("%s: engine mode %q, version %q", r.Key(), r.EngineMode, r.EngineVersion)
		}
	}
	refused := filepath.Join(dir, "graph")
	_, _, err := runFP(t, "train", "--splits", "1", "--engine", "graph", "--lockstep", "--out", refused, "--quiet")
	if err == nil || !strings.HasPrefix(err.Error(), "--lockstep: ") || strings.Contains(err.Error(), "\n") {
		t.Errorf("--lockstep on the graph engine: err = %v, want one line naming --lockstep", err)
	}
	if _, err := os.Stat(refused); !os.IsNotExist(err) {
		t.Errorf("the refused run made its folder (%v)", err)
	}
}

// A bad --metric is refused before anything is trained or written.
func TestTrainRefusesBadMetricBeforeTraining(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	_, stderr, err := runFP(t, "train", "--metric", "foo", "--splits", "1", "--epochs", "2", "--quiet", "--out", out)
	if err == nil || !strings.Contains(stderr+err.Error(), `--metric "foo"`) {
		t.Fatalf("fp train --metric foo: err %v, stderr %q", err, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("run folder %s exists (%v): the sweep started before the flag was checked", out, err)
	}
}

// Without --lockstep, fp train trains in lockstep wherever the
// configuration allows it, and one network after another elsewhere (no
// error); --lockstep=false turns it off; a folder keeps the mode it was
// made with when the same command runs again.
func TestTrainLockstepByDefault(t *testing.T) {
	base := []string{"train", "--splits", "1", "--epochs", "2", "--propensity-epochs", "2", "--quiet", "--no-plot"}
	type lockstepCase struct {
		name string
		args []string
		mode string // the records' engine_mode
	}
	cases := []lockstepCase{
		{"backprop, fixed grid", []string{"--engine", "backprop", "--lambdas", "0,0.5,1"}, "lockstep"},
		{"turned off", []string{"--engine", "backprop", "--lambdas", "0,0.5,1", "--lockstep=false"}, ""},
		{"graph engine", []string{"--engine", "graph", "--lambdas", "0,1"}, ""},
		{"adaptive grid", []string{"--engine", "backprop", "--lambdas", "adaptive:4"}, ""},
	}
	// A settings file that turns it off counts as the flag.
	file := filepath.Join(t.TempDir(), "sweep.yaml")
	if err := os.WriteFile(file, []byte("engine: backprop\nlockstep: false\nlambdas: \"0,0.5,1\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases = append(cases, lockstepCase{"turned off in a settings file", []string{"--config", file}, ""})
	for _, tc := range cases {
		out := filepath.Join(t.TempDir(), "run")
		if _, _, err := runFP(t, append(append(append([]string(nil), base...), tc.args...), "--out", out)...); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		recs := readRecords(t, out)
		if len(recs) == 0 {
			t.Fatalf("%s: no records", tc.name)
		}
		for _, r := range recs {
			if r.EngineMode != tc.mode {
				t.Errorf("%s: %s has engine mode %q, want %q", tc.name, r.Key(), r.EngineMode, tc.mode)
			}
		}
	}

	// A folder made one network after another and interrupted (its last
	// record lost), resumed by the same command without the flag: it keeps
	// its mode instead of refusing the folder.
	out := filepath.Join(t.TempDir(), "run")
	args := append(append([]string(nil), base...), "--engine", "backprop", "--lambdas", "0,0.5,1", "--out", out)
	if _, _, err := runFP(t, append(args, "--lockstep=false")...); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(out, "records.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSpace(string(b)), "\n")
	if err := os.WriteFile(path, []byte(strings.Join(lines[:len(lines)-1], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runFP(t, args...); err != nil {
		t.Fatalf("the same command without --lockstep on a folder made without it: %v", err)
	}
	recs := readRecords(t, out)
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3", len(recs))
	}
	for _, r := range recs {
		if r.EngineMode != "" {
			t.Errorf("%s: engine mode %q in a folder made one network after another", r.Key(), r.EngineMode)
		}
	}
}

// --rho belongs to --method cheb-aug: refused in one line naming the flag
// with another method or a ρ ≤ 0, before anything is written; cheb-aug
// takes the default ρ and stores it.
func TestTrainRho(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--rho", "0.1"}, `--rho: ρ = 0.1 applies to the method cheb-aug only, not "cheb"`},
		{[]string{"--method", "linear", "--rho", "0.01"}, `not "linear"`},
		{[]string{"--method", "cheb-aug", "--rho", "0"}, "--rho: ρ = 0, want a finite value > 0"},
	} {
		out := filepath.Join(dir, "refused")
		args := append([]string{"train", "--splits", "1", "--epochs", "2", "--quiet", "--no-plot", "--out", out}, c.args...)
		_, _, err := runFP(t, args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: err = %v, want one line with %q", c.args, err, c.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: the refused run made its folder (%v)", c.args, err)
		}
	}
	out := filepath.Join(dir, "aug")
	if _, _, err := runFP(t, "train", "--method", "cheb-aug", "--engine", "backprop", "--splits", "1", "--lambdas", "0.5",
		"--epochs", "2", "--propensity-epochs", "2", "--quiet", "--no-plot", "--out", out); err != nil {
		t.Fatal(err)
	}
	cfg, err := runfolder.ReadConfig(out)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Method != "cheb-aug" || cfg.Rho != 0.01 || !cfg.Lockstep {
		t.Errorf("stored method %q, ρ %g, lockstep %v; want cheb-aug, 0.01, true", cfg.Method, cfg.Rho, cfg.Lockstep)
	}
}

// The paper's budget (K = 1) trains what it trained before the budget
// could be set: split 0 of the committed COMPAS adversary, trained again,
// has every key of the committed records with the same value (the training
// time aside), and no budget keys.
func TestTrainAdversarialPaperRecordsUnchanged(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 15 adversarial networks; run without -short")
	}
	out := filepath.Join(t.TempDir(), "adv")
	if _, _, err := runFP(t, "train", "--dataset", "compas", "--splits", "20", "--shard", "0/20", "--method", "adversarial",
		"--lambdas", "log:15", "--epochs", "500", "--seed", "1", "--engine", "graph", "--quiet", "--no-plot", "--out", out); err != nil {
		t.Fatal(err)
	}
	lines := func(path string) map[float64]map[string]json.RawMessage {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got := map[float64]map[string]json.RawMessage{}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var m map[string]json.RawMessage
			var head struct {
				Split  int     `json:"split"`
				Lambda float64 `json:"lambda"`
			}
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(l), &head); err != nil {
				t.Fatal(err)
			}
			if head.Split == 0 {
				got[head.Lambda] = m
			}
		}
		return got
	}
	want := lines(filepath.Join("..", "..", "results", "compas", "adversarial.jsonl"))
	got := lines(filepath.Join(out, "records-shard-0-of-20.jsonl"))
	if len(got) != 15 || len(want) != 15 {
		t.Fatalf("%d records trained, %d committed for split 0; want 15 each", len(got), len(want))
	}
	for l, w := range want {
		g := got[l]
		for k, v := range w {
			if k != "train_seconds" && string(g[k]) != string(v) {
				t.Errorf("β = %g: %s = %s, committed %s", l, k, g[k], v)
			}
		}
		for _, k := range []string{"adv_clf_steps", "adv_clf_steps_total"} {
			if _, ok := g[k]; ok {
				t.Errorf("β = %g: the paper's budget writes %s", l, k)
			}
		}
	}
}
