package main

// Integration tests against a real Slurm cluster: they submit
// deploy/slurm/fp-array.sbatch, unmodified, as a job array. Start a
// single-node cluster with `bash .ci/slurm.sh up` and export the SLURM_CONF
// it prints; without one the tests are skipped, unless FP_REQUIRE_SLURM=1
// (as in CI), which makes a missing cluster a failure.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/runfolder"
)

// slurmCluster checks that a Slurm cluster answers, or skips (fails under
// FP_REQUIRE_SLURM=1).
func slurmCluster(t *testing.T) {
	t.Helper()
	missing := func(why string) {
		t.Helper()
		if os.Getenv("FP_REQUIRE_SLURM") == "1" {
			t.Fatalf("FP_REQUIRE_SLURM=1 but %s", why)
		}
		t.Skipf("no Slurm cluster: %s (start one with `bash .ci/slurm.sh up` and export the SLURM_CONF it prints; FP_REQUIRE_SLURM=1 makes this a failure)", why)
	}
	if os.Getenv("SLURM_CONF") == "" {
		missing("SLURM_CONF is not set")
	}
	for _, c := range []string{"sbatch", "squeue", "scancel", "sinfo"} {
		if _, err := exec.LookPath(c); err != nil {
			missing(c + " is not on the PATH")
		}
	}
	out, err := exec.Command("sinfo", "-h", "-o", "%t").CombinedOutput()
	if err != nil {
		missing(fmt.Sprintf("sinfo: %v: %s", err, bytes.TrimSpace(out)))
	}
	if !strings.Contains(string(out), "idle") && !strings.Contains(string(out), "mix") && !strings.Contains(string(out), "alloc") {
		missing(fmt.Sprintf("no node is up (sinfo: %s)", bytes.TrimSpace(out)))
	}
}

// fpBinary builds fp into a temporary folder.
func fpBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "fp")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// arrayRun is one sweep submitted through the template.
type arrayRun struct {
	t    *testing.T
	dir  string // the submit folder, with logs/
	out  string // FP_OUT
	args string // FP_ARGS
	fp   string // FP
	jobs []string
}

func newArrayRun(t *testing.T, args string) *arrayRun {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	a := &arrayRun{t: t, dir: dir, out: filepath.Join(dir, "sweep"), args: args, fp: fpBinary(t)}
	t.Cleanup(func() {
		for _, j := range a.jobs {
			_ = exec.Command("scancel", j).Run()
		}
	})
	return a
}

// submit runs sbatch on the template with the given array and FP_SHARDS
// ("" for none) and returns the job ID.
func (a *arrayRun) submit(array, shards string) string {
	t := a.t
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(k, "SLURM_ARRAY_") && k != envJobIndex && !strings.HasPrefix(k, "FP_") && k != "FP" {
			env = append(env, kv)
		}
	}
	env = append(env, "FP="+a.fp, "FP_OUT="+a.out, "FP_ARGS="+a.args)
	if shards != "" {
		env = append(env, "FP_SHARDS="+shards)
	}
	// One CPU per task: the test cluster's node has 4, the template asks 4.
	cmd := exec.Command("sbatch", "--parsable", "--array="+array, "--cpus-per-task=1",
		deployFile(t, "slurm/fp-array.sbatch"))
	cmd.Dir, cmd.Env = a.dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sbatch --array=%s: %v\n%s", array, err, out)
	}
	jid, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	a.jobs = append(a.jobs, jid)
	t.Logf("submitted array %s as job %s", array, jid)
	return jid
}

// states returns the state of each task of job jid ("5_1" → "RUNNING").
func states(t *testing.T, jid string) map[string]string {
	t.Helper()
	out, err := exec.Command("squeue", "-h", "-t", "all", "-j", jid, "-o", "%i %T").CombinedOutput()
	if err != nil {
		t.Fatalf("squeue -j %s: %v: %s", jid, err, out)
	}
	m := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if id, st, ok := strings.Cut(strings.TrimSpace(l), " "); ok {
			m[id] = st
		}
	}
	return m
}

var finalStates = []string{"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY",
	"PREEMPTED", "BOOT_FAIL", "DEADLINE"}

// wait polls squeue until every task of jid has ended, and returns their
// final states.
func (a *arrayRun) wait(jid string, tasks int) map[string]string {
	t := a.t
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		m := states(t, jid)
		done := len(m) == tasks
		for _, st := range m {
			done = done && slices.Contains(finalStates, st)
		}
		if done {
			return m
		}
		if time.Now().After(deadline) {
			a.fail("job %s has not ended after 2 minutes: %v", jid, m)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// fail ends the test, showing the tasks' logs.
func (a *arrayRun) fail(format string, args ...any) {
	a.t.Helper()
	logs, _ := filepath.Glob(filepath.Join(a.dir, "logs", "*"))
	var b strings.Builder
	for _, l := range logs {
		c, _ := os.ReadFile(l)
		fmt.Fprintf(&b, "\n==== %s\n%s", filepath.Base(l), c)
	}
	a.t.Fatalf(format+"%s", append(args, b.String())...)
}

func (a *arrayRun) expectStates(jid string, got map[string]string, want map[string]string) {
	a.t.Helper()
	full := map[string]string{}
	for task, st := range want {
		full[jid+"_"+task] = st
	}
	if !reflect.DeepEqual(got, full) {
		a.fail("job %s: task states %v, want %v", jid, got, full)
	}
}

func (a *arrayRun) log(jid, task string) string {
	b, _ := os.ReadFile(filepath.Join(a.dir, "logs", "fp-"+jid+"_"+task+".out"))
	return string(b)
}

// countLines counts the records lines of every records file of dir.
func countLines(t *testing.T, dir string) int {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n += bytes.Count(b, []byte("\n"))
	}
	return n
}

// singleRun trains the same sweep in one process.
func singleRun(t *testing.T, args string) string {
	t.Helper()
	ref := filepath.Join(t.TempDir(), "ref")
	if _, _, err := runFP(t, append(append([]string{"train"}, strings.Fields(args)...),
		"--out", ref, "--workers", "2", "--quiet", "--no-plot")...); err != nil {
		t.Fatal(err)
	}
	return ref
}

func TestSlurmArrayMatchesSingleRun(t *testing.T) {
	slurmCluster(t)
	setShardEnv(t, nil)
	const args = "--dataset compas --splits 3 --lambdas log:4 --epochs 5 --engine backprop"
	a := newArrayRun(t, args)
	// No FP_SHARDS: each task's shard comes from the array alone.
	jid := a.submit("0-2", "")
	ref := singleRun(t, args) // while the array runs
	a.expectStates(jid, a.wait(jid, 3), map[string]string{"0": "COMPLETED", "1": "COMPLETED", "2": "COMPLETED"})

	for i := range 3 {
		sh := experiments.Shard{Index: i, Count: 3}
		if _, err := os.Stat(filepath.Join(a.out, runfolder.RecordsFile(sh))); err != nil {
			a.fail("task %d: %v", i, err)
		}
		if log := a.log(jid, fmt.Sprint(i)); !strings.Contains(log, "shard "+sh.String()+" (Slurm array") {
			a.fail("task %d's log does not name shard %v:\n%s", i, sh, log)
		}
	}
	got, want := readRecords(t, a.out), readRecords(t, ref)
	if len(want) != 12 || !reflect.DeepEqual(got, want) {
		t.Errorf("the array's merged records (%d) differ from a single run's (%d)", len(got), len(want))
		for i := range min(len(got), len(want)) {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Errorf("first difference:\n got %+v\nwant %+v", got[i], want[i])
				break
			}
		}
	}
	rep, err := experiments.Status(a.out, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Complete || rep.Shards != 3 || len(rep.Overall.Duplicates) != 0 {
		t.Errorf("status: complete %v, shards %d, duplicates %v", rep.Complete, rep.Shards, rep.Overall.Duplicates)
	}
}

func TestSlurmResubmitCancelledTask(t *testing.T) {
	slurmCluster(t)
	setShardEnv(t, nil)
	// Long enough per task (≈ 6 networks of 600 epochs) to cancel one mid-run.
	const args = "--dataset compas --splits 3 --lambdas log:6 --epochs 600 --engine backprop"
	a := newArrayRun(t, args)
	jid := a.submit("0-2", "3")

	// Cancel task 1 once it has recorded something, while it runs.
	shard1 := filepath.Join(a.out, runfolder.RecordsFile(experiments.Shard{Index: 1, Count: 3}))
	deadline := time.Now().Add(time.Minute)
	for {
		b, _ := os.ReadFile(shard1)
		if bytes.Count(b, []byte("\n")) >= 1 {
			break
		}
		if time.Now().After(deadline) {
			a.fail("task 1 recorded nothing within a minute: %v", states(t, jid))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if out, err := exec.Command("scancel", jid+"_1").CombinedOutput(); err != nil {
		t.Fatalf("scancel %s_1: %v: %s", jid, err, out)
	}
	a.expectStates(jid, a.wait(jid, 3), map[string]string{"0": "COMPLETED", "1": "CANCELLED", "2": "COMPLETED"})

	rep, err := experiments.Status(a.out, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.IncompleteShards(); !reflect.DeepEqual(got, []int{1}) {
		a.fail("after cancelling task 1: incomplete shards %v, want [1] (shard 1: %d/%d)", got,
			rep.PerShard[1].Done, rep.PerShard[1].Expected)
	}
	partial := rep.PerShard[1].Done
	t.Logf("task 1 was cancelled with %d of %d candidates recorded", partial, rep.PerShard[1].Expected)

	// Resubmitted without FP_SHARDS, the one-task array would be shard 0/1:
	// refused, nothing written.
	bad := a.submit("1", "")
	a.expectStates(bad, a.wait(bad, 1), map[string]string{"1": "FAILED"})
	if log := a.log(bad, "1"); !strings.Contains(log, "--shards 3") {
		a.fail("the refused resubmission's log does not say --shards 3:\n%s", log)
	}
	if n := countLines(t, a.out); n != rep.Overall.Done {
		t.Fatalf("the refused resubmission wrote records: %d lines, want %d", n, rep.Overall.Done)
	}

	// The documented resubmission: the same FP_SHARDS, only index 1.
	again := a.submit("1", "3")
	ref := singleRun(t, args) // while it runs
	a.expectStates(again, a.wait(again, 1), map[string]string{"1": "COMPLETED"})
	if log := a.log(again, "1"); !strings.Contains(log, fmt.Sprintf("training 6 candidates (%d already recorded)", partial)) {
		a.fail("the resubmitted task did not resume shard 1/3 from its %d records:\n%s", partial, log)
	}

	want := readRecords(t, ref)
	if n := countLines(t, a.out); n != len(want) {
		t.Errorf("%d record lines in the folder, want %d: a candidate is missing or written twice", n, len(want))
	}
	if got := readRecords(t, a.out); !reflect.DeepEqual(got, want) {
		t.Errorf("after cancel and resubmit: %d records, want %d equal to a single run's", len(got), len(want))
	}
	rep, err = experiments.Status(a.out, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Complete || len(rep.Overall.Duplicates) != 0 || len(rep.Overall.Missing) != 0 {
		t.Errorf("status: complete %v, missing %v, duplicates %v", rep.Complete, rep.Overall.Missing, rep.Overall.Duplicates)
	}
}
