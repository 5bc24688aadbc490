package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
	"gopkg.in/yaml.v3"

	"github.com/fpareto/fp/experiments"
)

// deployFile is a file of the repository's deploy folder.
func deployFile(t *testing.T, rel string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "deploy", rel))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// trainConfig parses fp train's arguments as fp does, without training.
func trainConfig(t *testing.T, args []string) (experiments.Config, error) {
	t.Helper()
	cmd, tf := newTrainCommand()
	var cfg experiments.Config
	cmd.Action = func(c *cli.Context) error {
		var err error
		cfg, err = tf.config(c)
		return err
	}
	app := &cli.App{Name: "fp", Commands: []*cli.Command{cmd}, Writer: os.Stderr, ErrWriter: os.Stderr}
	err := app.Run(append([]string{"fp"}, args...))
	return cfg, err
}

// TestIndexedJobManifest checks deploy/k8s/indexed-job.yaml: an Indexed Job
// whose fp train arguments are valid, whose --shards equals completions, so
// that its last pod is the last shard, and whose output is on the shared volume.
func TestIndexedJobManifest(t *testing.T) {
	f, err := os.Open(deployFile(t, "k8s/indexed-job.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type container struct {
		Command      []string `yaml:"command"`
		Args         []string `yaml:"args"`
		VolumeMounts []struct {
			Name      string `yaml:"name"`
			MountPath string `yaml:"mountPath"`
		} `yaml:"volumeMounts"`
	}
	type doc struct {
		Kind     string `yaml:"kind"`
		Metadata struct {
			Name string `yaml:"name"`
		} `yaml:"metadata"`
		Spec struct {
			CompletionMode string   `yaml:"completionMode"`
			Completions    int      `yaml:"completions"`
			Parallelism    int      `yaml:"parallelism"`
			AccessModes    []string `yaml:"accessModes"`
			Template       struct {
				Spec struct {
					RestartPolicy string      `yaml:"restartPolicy"`
					Containers    []container `yaml:"containers"`
					Volumes       []struct {
						Name string `yaml:"name"`
						PVC  struct {
							ClaimName string `yaml:"claimName"`
						} `yaml:"persistentVolumeClaim"`
					} `yaml:"volumes"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	dec := yaml.NewDecoder(f)
	var job, pvc *doc
	for {
		var d doc
		if err := dec.Decode(&d); err != nil {
			break
		}
		switch d.Kind {
		case "Job":
			job = &d
		case "PersistentVolumeClaim":
			pvc = &d
		}
	}
	if job == nil || pvc == nil {
		t.Fatal("the manifest lacks a Job or a PersistentVolumeClaim")
	}
	s := job.Spec
	if s.CompletionMode != "Indexed" || s.Completions < 1 || s.Parallelism < 1 || s.Template.Spec.RestartPolicy != "Never" {
		t.Errorf("job spec %+v: want completionMode Indexed, completions and parallelism ≥ 1, restartPolicy Never", s)
	}
	if !reflect.DeepEqual(pvc.Spec.AccessModes, []string{"ReadWriteMany"}) {
		t.Errorf("volume access modes %v: every pod writes the folder, want ReadWriteMany", pvc.Spec.AccessModes)
	}
	if len(s.Template.Spec.Containers) != 1 || len(s.Template.Spec.Volumes) != 1 {
		t.Fatalf("want one container and one volume")
	}
	ctr := s.Template.Spec.Containers[0]
	if len(ctr.Args) == 0 || ctr.Args[0] != "train" {
		t.Fatalf("container args %v: want fp train …", ctr.Args)
	}
	if s.Template.Spec.Volumes[0].PVC.ClaimName != pvc.Metadata.Name || len(ctr.VolumeMounts) != 1 ||
		ctr.VolumeMounts[0].Name != s.Template.Spec.Volumes[0].Name {
		t.Errorf("the container does not mount the claim %q", pvc.Metadata.Name)
	}

	// The last pod of the Job is the last shard, and fp accepts the arguments.
	setShardEnv(t, map[string]string{envJobIndex: strconv.Itoa(s.Completions - 1)})
	cfg, err := trainConfig(t, ctr.Args)
	if err != nil {
		t.Fatalf("fp %v: %v", ctr.Args, err)
	}
	if want := (experiments.Shard{Index: s.Completions - 1, Count: s.Completions}); cfg.Shard != want {
		t.Errorf("pod %d of %d runs shard %v, want %v", s.Completions-1, s.Completions, cfg.Shard, want)
	}
	var out string
	for _, a := range ctr.Args {
		if v, ok := strings.CutPrefix(a, "--out="); ok {
			out = v
		}
	}
	if mp := ctr.VolumeMounts[0].MountPath; out == "" || !strings.HasPrefix(out, mp+"/") {
		t.Errorf("--out=%s is not on the shared volume mounted at %s", out, mp)
	}
}

// TestArrayTemplateRunsItsShard runs deploy/slurm/fp-array.sbatch with bash,
// as Slurm would for array task 1 of 0-2, and checks it trains shard 1/3
// with the CPUs of the task; with FP_SHARDS a resubmitted task (an array of
// its own) is the same shard.
func TestArrayTemplateRunsItsShard(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found")
	}
	script := deployFile(t, "slurm/fp-array.sbatch")
	out := filepath.Join(t.TempDir(), "sweep")
	args := "--splits 3 --lambdas 0,1 --epochs 1 --propensity-epochs 1 --engine backprop"
	run := func(env ...string) string {
		t.Helper()
		cmd := exec.Command(bash, script)
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "FP_TEST_RUN_MAIN=1", "FP="+os.Args[0], "FP_OUT="+out, "FP_ARGS="+args,
			"SLURM_CPUS_PER_TASK=2", "SLURM_ARRAY_JOB_ID=7", "FP_SHARDS=", envJobIndex+"=")
		cmd.Env = append(cmd.Env, env...)
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", script, err, b)
		}
		return string(b)
	}
	log := run(envSlurmTaskID+"=1", envSlurmTaskMin+"=0", envSlurmTaskMax+"=2", envSlurmTaskStep+"=1", envSlurmTaskCount+"=3")
	if !strings.Contains(log, "task 1 on") || !strings.Contains(log, "shard 1/3 (Slurm array") {
		t.Errorf("log does not tell the shard:\n%s", log)
	}
	recs := readRecords(t, out)
	if len(recs) != 2 || recs[0].Split != 1 || recs[1].Split != 1 {
		t.Fatalf("task 1 of 0-2 recorded %+v, want split 1's two candidates", recs)
	}
	if _, err := os.Stat(filepath.Join(out, "records-shard-1-of-3.jsonl")); err != nil {
		t.Error(err)
	}
	// Resubmitted alone (sbatch --array=2) with FP_SHARDS=3: shard 2/3.
	run(envSlurmTaskID+"=2", envSlurmTaskMin+"=2", envSlurmTaskMax+"=2", envSlurmTaskStep+"=1", envSlurmTaskCount+"=1", "FP_SHARDS=3")
	if _, err := os.Stat(filepath.Join(out, "records-shard-2-of-3.jsonl")); err != nil {
		t.Error(err)
	}
	if n := len(readRecords(t, out)); n != 4 {
		t.Errorf("%d records after shards 1 and 2, want 4", n)
	}
}
