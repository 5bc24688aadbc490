package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/experiments"
)

// The environment of a Slurm job-array task and of a Kubernetes Indexed Job
// pod, from which a run takes its shard when --shard is not given.
const (
	envSlurmTaskID    = "SLURM_ARRAY_TASK_ID"
	envSlurmTaskMin   = "SLURM_ARRAY_TASK_MIN"
	envSlurmTaskMax   = "SLURM_ARRAY_TASK_MAX"
	envSlurmTaskStep  = "SLURM_ARRAY_TASK_STEP"
	envSlurmTaskCount = "SLURM_ARRAY_TASK_COUNT"
	envJobIndex       = "JOB_COMPLETION_INDEX"
)

// Where a shard came from.
const (
	shardFromFlag  = "--shard"
	shardFromSlurm = "Slurm array"
	shardFromK8s   = "Kubernetes Indexed Job"
)

// shardChoice is the shard a run takes and how it was found.
type shardChoice struct {
	Shard experiments.Shard
	// From is shardFromFlag, shardFromSlurm, shardFromK8s, or "" for no shard.
	From string
	// Detail names the values used, e.g. "SLURM_ARRAY_TASK_ID=3, …".
	Detail string
	// CountFromArray: the number of shards is the size of this Slurm array
	// (SLURM_ARRAY_TASK_COUNT), not a number the user gave. A resubmission
	// of some tasks is a smaller array, so such a count can be wrong.
	CountFromArray bool
}

// resolveShard decides which shard a run takes. In order:
//   - --shard i/n;
//   - a Slurm array task (SLURM_ARRAY_TASK_ID set): with --shards N the task
//     ID is the shard index (arrays 0…N−1 and resubmissions of some of their
//     IDs); without it the array is the sweep: index (ID − MIN)/STEP of
//     SLURM_ARRAY_TASK_COUNT, and an array that is not a range MIN-MAX:STEP
//     is refused;
//   - a Kubernetes Indexed Job: JOB_COMPLETION_INDEX of --shards N;
//   - otherwise no shard.
//
// shards is the value of --shards (0 when not given). getenv reads the
// environment (os.Getenv); an empty variable counts as unset. Every error is
// one line naming the flag or the variables at fault.
func resolveShard(flag string, shards int, getenv func(string) string) (shardChoice, error) {
	if shards < 0 {
		return shardChoice{}, fmt.Errorf("--shards %d: want N ≥ 1", shards)
	}
	if flag != "" {
		if shards != 0 {
			return shardChoice{}, fmt.Errorf("give --shard i/n or --shards N, not both")
		}
		sh, err := parseShard(flag)
		if err != nil {
			return shardChoice{}, err
		}
		return shardChoice{Shard: sh, From: shardFromFlag, Detail: "--shard " + flag}, nil
	}
	id, k := getenv(envSlurmTaskID), getenv(envJobIndex)
	switch {
	case id != "" && k != "":
		return shardChoice{}, fmt.Errorf("both %s=%s (Slurm) and %s=%s (Kubernetes) are set: give --shard i/n",
			envSlurmTaskID, id, envJobIndex, k)
	case id != "":
		return slurmShard(id, shards, getenv)
	case k != "":
		return indexedJobShard(k, shards)
	case shards != 0:
		return shardChoice{}, fmt.Errorf("--shards %d needs the shard index from a Slurm array task (%s) or a Kubernetes Indexed Job (%s), and neither is set; to run one shard by hand give --shard i/%d",
			shards, envSlurmTaskID, envJobIndex, shards)
	}
	return shardChoice{}, nil
}

// slurmShard maps a Slurm array task to its shard.
func slurmShard(idText string, shards int, getenv func(string) string) (shardChoice, error) {
	id, err := envInt(envSlurmTaskID, idText, 0)
	if err != nil {
		return shardChoice{}, err
	}
	if shards > 0 {
		if id >= shards {
			return shardChoice{}, fmt.Errorf("%s=%d with --shards %d: the task IDs must be the shard indices 0…%d (sbatch --array=0-%d, or some of those IDs)",
				envSlurmTaskID, id, shards, shards-1, shards-1)
		}
		return shardChoice{
			Shard:  experiments.Shard{Index: id, Count: shards},
			From:   shardFromSlurm,
			Detail: fmt.Sprintf("%s=%d, --shards %d", envSlurmTaskID, id, shards),
		}, nil
	}
	const hint = "; when the task IDs are the shard indices (as in a resubmission such as --array=3,7), give --shards N"
	need := func(name string) (int, error) {
		v := getenv(name)
		if v == "" {
			return 0, fmt.Errorf("%s=%d is set but %s is not, so the task's shard index is unknown: give --shards N (task IDs 0…N−1) or --shard i/n",
				envSlurmTaskID, id, name)
		}
		return envInt(name, v, 0)
	}
	lo, err := need(envSlurmTaskMin)
	if err != nil {
		return shardChoice{}, err
	}
	count, err := need(envSlurmTaskCount)
	if err != nil {
		return shardChoice{}, err
	}
	if count < 1 {
		return shardChoice{}, fmt.Errorf("%s=%d: want ≥ 1", envSlurmTaskCount, count)
	}
	step := 1
	if v := getenv(envSlurmTaskStep); v != "" {
		if step, err = envInt(envSlurmTaskStep, v, 1); err != nil {
			return shardChoice{}, err
		}
	}
	detail := fmt.Sprintf("%s=%d, %s=%d, %s=%d, %s=%d", envSlurmTaskID, id, envSlurmTaskMin, lo,
		envSlurmTaskStep, step, envSlurmTaskCount, count)
	// Slurm gives a list such as --array=3,7 the step 1: its IDs are not
	// MIN + k·STEP for k < COUNT, which MAX reveals.
	if v := getenv(envSlurmTaskMax); v != "" {
		hi, err := envInt(envSlurmTaskMax, v, 0)
		if err != nil {
			return shardChoice{}, err
		}
		if hi != lo+(count-1)*step {
			return shardChoice{}, fmt.Errorf("the array is not a range MIN-MAX:STEP (%s=%d, %s=%d, %s=%d, %s=%d), so its tasks do not map to shards 0…%d%s",
				envSlurmTaskMin, lo, envSlurmTaskMax, hi, envSlurmTaskStep, step, envSlurmTaskCount, count, count-1, hint)
		}
	}
	if id < lo || (id-lo)%step != 0 {
		return shardChoice{}, fmt.Errorf("%s=%d is not %s + k·%s = %d + k·%d, so it maps to no shard%s",
			envSlurmTaskID, id, envSlurmTaskMin, envSlurmTaskStep, lo, step, hint)
	}
	index := (id - lo) / step
	if index >= count {
		return shardChoice{}, fmt.Errorf("%s=%d is shard (%d − %d)/%d = %d, not below %s=%d%s",
			envSlurmTaskID, id, id, lo, step, index, envSlurmTaskCount, count, hint)
	}
	return shardChoice{
		Shard:          experiments.Shard{Index: index, Count: count},
		From:           shardFromSlurm,
		Detail:         detail,
		CountFromArray: true,
	}, nil
}

// indexedJobShard maps a Kubernetes Indexed Job pod to its shard.
func indexedJobShard(k string, shards int) (shardChoice, error) {
	if shards == 0 {
		return shardChoice{}, fmt.Errorf("%s=%s is set but --shards is not: give --shards N with N the Job's .spec.completions",
			envJobIndex, k)
	}
	i, err := envInt(envJobIndex, k, 0)
	if err != nil {
		return shardChoice{}, err
	}
	if i >= shards {
		return shardChoice{}, fmt.Errorf("%s=%d with --shards %d: want an index below %d (is .spec.completions %d?)",
			envJobIndex, i, shards, shards, shards)
	}
	return shardChoice{
		Shard:  experiments.Shard{Index: i, Count: shards},
		From:   shardFromK8s,
		Detail: fmt.Sprintf("%s=%d, --shards %d", envJobIndex, i, shards),
	}, nil
}

// envInt parses the whole number ≥ lo held by an environment variable.
func envInt(name, v string, lo int) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < lo {
		return 0, fmt.Errorf("%s=%q: want a whole number ≥ %d", name, v, lo)
	}
	return n, nil
}

// parseShard reads "i/n".
func parseShard(s string) (experiments.Shard, error) {
	is, ns, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(is))
	n, err2 := strconv.Atoi(strings.TrimSpace(ns))
	if !ok || err1 != nil || err2 != nil {
		return experiments.Shard{}, fmt.Errorf("--shard %q: want i/n, e.g. 0/4", s)
	}
	sh := experiments.Shard{Index: i, Count: n}
	switch {
	case n < 1:
		return sh, fmt.Errorf("--shard %s: the number of shards n = %d, want n ≥ 1 (i/n with 0 ≤ i < n)", s, n)
	case i < 0 || i >= n:
		return sh, fmt.Errorf("--shard %s: shard index i = %d, want 0 ≤ i < n = %d", s, i, n)
	}
	return sh, nil
}

// shardCounts maps each number of shards whose records files are in dir to
// one such file's name.
func shardCounts(dir string) map[int]string {
	files, _ := filepath.Glob(filepath.Join(dir, "records-shard-*-of-*.jsonl"))
	counts := map[int]string{}
	for _, f := range files {
		sh, ok := experiments.ShardOfFile(filepath.Base(f))
		if _, seen := counts[sh.Count]; ok && !seen {
			counts[sh.Count] = filepath.Base(f)
		}
	}
	return counts
}

// shardFromContext resolves the shard of fp train (flags --shard and
// --shards, and the environment) for the sweep cfg. When the number of
// shards is only the size of the Slurm array, a folder that already holds the
// shards of another number is refused: that array is then a resubmission of
// some tasks, and taken as a sweep of its own it would split the work
// differently and run candidates that other shards own.
func shardFromContext(c *cli.Context, cfg experiments.Config) (experiments.Shard, error) {
	if c.IsSet("shards") && c.Int("shards") < 1 {
		return experiments.Shard{}, fmt.Errorf("--shards %d: want N ≥ 1", c.Int("shards"))
	}
	ch, err := resolveShard(c.String("shard"), c.Int("shards"), os.Getenv)
	if err != nil {
		return experiments.Shard{}, err
	}
	if ch.CountFromArray {
		out := c.String("out")
		if out == "" {
			out = defaultOut(cfg)
		}
		counts := shardCounts(out)
		for _, n := range slices.Sorted(maps.Keys(counts)) {
			if example := counts[n]; n != ch.Shard.Count {
				return experiments.Shard{}, fmt.Errorf("%s makes this task shard %s, but %s holds the records of %d shards (%s): to rerun tasks of that array give --shards %d (FP_SHARDS=%d with deploy/slurm/fp-array.sbatch)",
					ch.Detail, ch.Shard, out, n, example, n, n)
			}
		}
	}
	if ch.From != "" && ch.From != shardFromFlag && !c.Bool("quiet") {
		fmt.Fprintf(c.App.ErrWriter, "shard %s (%s: %s)\n", ch.Shard, ch.From, ch.Detail)
	}
	if ch.Shard.Active() && cfg.Splits > 0 && ch.Shard.Index >= cfg.Splits {
		// Harmless (the task ends at once) but a sign of an array larger than the sweep.
		fmt.Fprintf(c.App.ErrWriter, "fp: warning: shard %s owns no split: the sweep has %d splits, so shards %d… have nothing to train\n",
			ch.Shard, cfg.Splits, cfg.Splits)
	}
	return ch.Shard, nil
}
