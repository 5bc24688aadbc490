package experiments_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// helperOut, when set in the environment, makes the test binary run
// killableConfig into that folder instead of the tests (so that a test can
// kill a sweep from outside).
const helperOut = "FP_TEST_RUNNER_OUT"

func TestMain(m *testing.M) {
	if out := os.Getenv(helperOut); out != "" {
		if err := runSweep(killableConfig(), out); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runSweep runs cfg into out to the end.
func runSweep(cfg experiments.Config, out string) error {
	return runSweepObserved(cfg, out, nil)
}

func runSweepObserved(cfg experiments.Config, out string, obs experiments.Observer) error {
	r, err := experiments.NewRunner(cfg, out, obs)
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = r.Run(context.Background())
	return err
}

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

func TestRunnerWritesResumesAndIgnoresWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 20 networks; run without -short")
	}
	cfg := experiments.DefaultConfig()
	cfg.Dataset, cfg.Splits, cfg.Lambdas, cfg.Epochs, cfg.Workers = "compas", 2, "log:5", 20, 1
	d1, d2 := filepath.Join(t.TempDir(), "w1"), filepath.Join(t.TempDir(), "w2")
	if err := runSweep(cfg, d1); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, d1)
	if len(recs) != 10 {
		t.Fatalf("got %d records, want 2 splits × 5 λ = 10", len(recs))
	}
	// Every docs/method.md §9 key is present in every line.
	raw, err := os.ReadFile(filepath.Join(d1, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{"dataset", "preset", "sensitive", "method", "penalty", "split", "lambda", "seed", "engine",
		"epochs", "dim", "n_train", "n_test", "r_min", "r_max", "u_min", "u_max", "train_seconds",
		"skipped_batches", "collapsed", "risk", "accuracy", "ato", "dp", "eo", "eopp", "weights",
		"train_r", "train_u", "prop_temperature", "prop_q", "prop_extreme", "ess1", "ess0", "ato_reliable"}
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
		if r.NVal != 0 || r.ValR != nil || r.KeptEpoch != 0 {
			t.Errorf("%s: a built-in dataset kept a validation part by default (n_val %d)", r.Key(), r.NVal)
		}
		if _, err := os.Stat(filepath.Join(d1, r.Weights)); err != nil {
			t.Errorf("network of %s: %v", r.Key(), err)
		}
		if !(r.RMax > r.RMin && r.UMax > r.UMin) {
			t.Errorf("%s: standardization constants %v %v %v %v", r.Key(), r.RMin, r.RMax, r.UMin, r.UMax)
		}
	}

	// Running the same sweep again writes nothing new but the record of
	// its invocation.
	before, _ := os.ReadFile(filepath.Join(d1, "records.jsonl"))
	args := cfg
	args.Args = []string{"fp", "train", "--splits", "2"}
	if err := runSweep(args, d1); err != nil {
		t.Fatal(err)
	}
	invs, err := runfolder.ReadInvocations(d1)
	if err != nil {
		t.Fatal(err)
	}
	if len(invs) != 2 || invs[0].Trained != 10 || invs[1].Trained != 0 || invs[1].Status != "done" ||
		!reflect.DeepEqual(invs[1].Args, args.Args) || !invs[0].End.After(invs[0].Start) {
		t.Errorf("invocations %+v: want two, the first training 10 candidates, the second the rerun with its arguments", invs)
	}
	after, _ := os.ReadFile(filepath.Join(d1, "records.jsonl"))
	if string(before) != string(after) {
		t.Errorf("rerun changed the records file")
	}

	// The number of workers does not change any result.
	two := cfg
	two.Workers = 2
	if err := runSweep(two, d2); err != nil {
		t.Fatal(err)
	}
	if got := readRecords(t, d2); !reflect.DeepEqual(got, recs) {
		t.Errorf("2 workers gave different records than 1")
	}

	// A changed configuration is refused for an existing folder.
	changed := cfg
	changed.Epochs = 21
	if _, err := experiments.NewRunner(changed, d1, nil); err == nil || !strings.Contains(err.Error(), "epochs") {
		t.Errorf("changed epochs under the same folder: err = %v, want a refusal naming epochs", err)
	}
}

// killableConfig is the sweep TestRunnerSurvivesSIGKILL kills and resumes.
func killableConfig() experiments.Config {
	cfg := experiments.DefaultConfig()
	cfg.Dataset, cfg.Splits, cfg.Lambdas, cfg.Epochs = "compas", 2, "log:6", 30
	cfg.Engine, cfg.Workers = "backprop", 2
	return cfg
}

func TestRunnerSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("trains two sweeps; run without -short")
	}
	ref := filepath.Join(t.TempDir(), "ref")
	if err := runSweep(killableConfig(), ref); err != nil {
		t.Fatal(err)
	}
	want := readRecords(t, ref)

	dir := filepath.Join(t.TempDir(), "killed")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), helperOut+"="+dir)
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
	killed := time.Now()
	partial := readRecords(t, dir)
	if len(partial) >= len(want) {
		t.Fatalf("the sweep finished (%d records) before it could be killed", len(partial))
	}
	if invs, err := runfolder.ReadInvocations(dir); err != nil || len(invs) != 0 {
		t.Fatalf("the killed run wrote its own line: %+v, %v", invs, err)
	}
	if err := runSweep(killableConfig(), dir); err != nil {
		t.Fatal(err)
	}
	// The resumed run wrote the killed run's line first, then its own.
	invs, err := runfolder.ReadInvocations(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(invs) != 2 {
		t.Fatalf("runs.log: %+v, want the killed run's line and the resumed run's", invs)
	}
	if k := invs[0]; k.Status != runfolder.StatusKilled || k.Trained != len(partial) || k.End.Before(k.Start) || k.End.After(killed) {
		t.Errorf("killed run's line %+v: want status %q, %d trained, an end between its start and %v", k, runfolder.StatusKilled, len(partial), killed)
	}
	if r := invs[1]; r.Status != "done" || r.Trained != len(want)-len(partial) || r.Start.Before(invs[0].End) {
		t.Errorf("resumed run's line %+v: want done, %d trained", r, len(want)-len(partial))
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "running*")); len(left) != 0 {
		t.Errorf("files of a running run left after the resumed run ended: %v", left)
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

// epochWatcher is a PropensityObserver that notes what it is told.
type epochWatcher struct {
	epochs map[int][]int // split → epochs seen
	done   int
}

func (w *epochWatcher) Start(total, done int)    {}
func (w *epochWatcher) Done(rec *records.Record) { w.done++ }
func (w *epochWatcher) PropensityEpoch(m, epoch, epochs int) {
	w.epochs[m] = append(w.epochs[m], epoch)
}

// A PropensityObserver sees every epoch of every split's propensity fit;
// a resumed run, which reloads the fitted models, sees none.
func TestRunnerReportsPropensityEpochs(t *testing.T) {
	cfg := smallConfig()
	dir := t.TempDir()
	w := &epochWatcher{epochs: map[int][]int{}}
	if err := runSweepObserved(cfg, dir, w); err != nil {
		t.Fatal(err)
	}
	want := map[int][]int{0: {1, 2, 3, 4, 5}, 1: {1, 2, 3, 4, 5}}
	if !reflect.DeepEqual(w.epochs, want) || w.done != 8 {
		t.Errorf("propensity epochs %v and %d candidates, want %v and 8", w.epochs, w.done, want)
	}
	again := &epochWatcher{epochs: map[int][]int{}}
	if err := runSweepObserved(cfg, dir, again); err != nil {
		t.Fatal(err)
	}
	if len(again.epochs) != 0 {
		t.Errorf("a finished run refitted propensity models: %v", again.epochs)
	}
}
