package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fpareto/fp/records"
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

func TestTrainWritesResumesAndIgnoresWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 20 networks; run without -short")
	}
	base := []string{"train", "--dataset", "compas", "--splits", "2", "--lambdas", "log:5", "--epochs", "20", "--quiet", "--no-plot"}
	d1, d2 := filepath.Join(t.TempDir(), "w1"), filepath.Join(t.TempDir(), "w2")
	if _, _, err := runFP(t, append(base, "--out", d1, "--workers", "1")...); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, d1)
	if len(recs) != 10 {
		t.Fatalf("got %d records, want 2 splits × 5 λ = 10", len(recs))
	}
	// Every SPEC §9 key is present in every line.
	raw, err := os.ReadFile(filepath.Join(d1, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{"dataset", "preset", "sensitive", "method", "penalty", "split", "lambda", "seed", "engine",
		"epochs", "dim", "n_train", "n_test", "r_min", "r_max", "u_min", "u_max", "train_seconds",
		"skipped_batches", "collapsed", "risk", "accuracy", "ato", "dp", "eo", "eopp", "weights"}
	for i, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		for _, k := range keys {
			if !strings.Contains(line, `"`+k+`":`) {
				t.Errorf("record %d lacks key %q", i+1, k)
			}
		}
	}
	for _, r := range recs {
		if !r.OK() || r.Dataset != "compas" || r.Dim != 12 || r.Engine != "graph" || r.NTrain+r.NTest != 6172 {
			t.Errorf("unexpected record %+v", r)
		}
		if _, err := os.Stat(filepath.Join(d1, r.Weights)); err != nil {
			t.Errorf("network of %s: %v", r.Key(), err)
		}
		if !(r.RMax > r.RMin && r.UMax > r.UMin) {
			t.Errorf("%s: standardization constants %v %v %v %v", r.Key(), r.RMin, r.RMax, r.UMin, r.UMax)
		}
	}

	// Rerunning the same command writes nothing new.
	before, _ := os.ReadFile(filepath.Join(d1, "records.jsonl"))
	if _, _, err := runFP(t, append(base, "--out", d1, "--workers", "1")...); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(d1, "records.jsonl"))
	if string(before) != string(after) {
		t.Errorf("rerun changed the records file")
	}

	// The number of workers does not change any result.
	if _, _, err := runFP(t, append(base, "--out", d2, "--workers", "2")...); err != nil {
		t.Fatal(err)
	}
	if got := readRecords(t, d2); !reflect.DeepEqual(got, recs) {
		t.Errorf("--workers 2 gave different records than --workers 1")
	}

	// A changed configuration is refused for an existing folder.
	_, _, err = runFP(t, "train", "--dataset", "compas", "--splits", "2", "--lambdas", "log:5", "--epochs", "21",
		"--quiet", "--no-plot", "--out", d1)
	if err == nil || !strings.Contains(err.Error(), "epochs") {
		t.Errorf("changed epochs under the same --out: err = %v, want a refusal naming epochs", err)
	}
}

func TestTrainSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("trains two sweeps; run without -short")
	}
	args := []string{"train", "--dataset", "compas", "--splits", "2", "--lambdas", "log:6", "--epochs", "30",
		"--engine", "backprop", "--workers", "2", "--quiet", "--no-plot"}
	ref := filepath.Join(t.TempDir(), "ref")
	if _, _, err := runFP(t, append(args, "--out", ref)...); err != nil {
		t.Fatal(err)
	}
	want := readRecords(t, ref)

	dir := filepath.Join(t.TempDir(), "killed")
	cmd := exec.Command(os.Args[0], append(args, "--out", dir)...)
	cmd.Env = append(os.Environ(), "FP_TEST_RUN_MAIN=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill it once some, but not all, candidates are recorded.
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(filepath.Join(dir, "records.jsonl"))
		if n := strings.Count(string(b), "\n"); n >= 3 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	partial := readRecords(t, dir)
	if len(partial) >= len(want) {
		t.Fatalf("the sweep finished (%d records) before it could be killed", len(partial))
	}
	if _, _, err := runFP(t, append(args, "--out", dir)...); err != nil {
		t.Fatal(err)
	}
	got := readRecords(t, dir)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after SIGKILL and resume: %d records, want %d equal to an uninterrupted run's", len(got), len(want))
		for i := range min(len(got), len(want)) {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Errorf("first difference:\n got %+v\nwant %+v", got[i], want[i])
				break
			}
		}
	}
}

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
