package experiments

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fpareto/fp/runfolder"
)

// The environment of a Slurm job-array task and of a Kubernetes Indexed Job
// pod, from which ShardFromEnv takes a run's shard.
const (
	EnvSlurmTaskID    = "SLURM_ARRAY_TASK_ID"
	EnvSlurmTaskMin   = "SLURM_ARRAY_TASK_MIN"
	EnvSlurmTaskMax   = "SLURM_ARRAY_TASK_MAX"
	EnvSlurmTaskStep  = "SLURM_ARRAY_TASK_STEP"
	EnvSlurmTaskCount = "SLURM_ARRAY_TASK_COUNT"
	EnvJobIndex       = "JOB_COMPLETION_INDEX"
)

// Where ShardFromEnv found a shard.
const (
	ShardFromSlurm = "Slurm array"
	ShardFromK8s   = "Kubernetes Indexed Job"
)

// ShardChoice is the shard a run takes and how it was found.
type ShardChoice struct {
	Shard Shard
	// From is ShardFromSlurm, ShardFromK8s, another source the caller
	// names, or "" for no shard.
	From string
	// Detail names the values used, e.g. "SLURM_ARRAY_TASK_ID=3, …".
	Detail string
	// CountFromArray: the number of shards is the size of this Slurm array
	// (SLURM_ARRAY_TASK_COUNT), not a number the user gave. A resubmission
	// of some tasks is a smaller array, so such a count can be wrong:
	// compare it with ShardCounts of the output folder.
	CountFromArray bool
}

// ParseShard reads a shard written "i/n", as Shard.String writes it.
func ParseShard(s string) (Shard, error) {
	is, ns, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(is))
	n, err2 := strconv.Atoi(strings.TrimSpace(ns))
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("%q: want i/n, e.g. 0/4", s)
	}
	sh := Shard{Index: i, Count: n}
	switch {
	case n < 1:
		return sh, fmt.Errorf("%s: the number of shards n = %d, want n ≥ 1 (i/n with 0 ≤ i < n)", s, n)
	case i < 0 || i >= n:
		return sh, fmt.Errorf("%s: shard index i = %d, want 0 ≤ i < n = %d", s, i, n)
	}
	return sh, nil
}

// ShardFromEnv finds the shard of a job-array task in its environment
// (getenv, say os.Getenv; an empty variable counts as unset). shards is the
// number of shards when the caller knows it, else 0. In order:
//   - a Slurm array task (SLURM_ARRAY_TASK_ID set): with shards > 0 the task
//     ID is the shard index (arrays 0…N−1 and resubmissions of some of their
//     IDs); without it the array is the sweep: index (ID − MIN)/STEP of
//     SLURM_ARRAY_TASK_COUNT, and an array that is not a range MIN-MAX:STEP
//     is refused;
//   - a Kubernetes Indexed Job: JOB_COMPLETION_INDEX of shards (needed);
//   - otherwise no shard (From is "").
//
// Every error is one line naming the variables at fault.
func ShardFromEnv(shards int, getenv func(string) string) (ShardChoice, error) {
	if shards < 0 {
		return ShardChoice{}, fmt.Errorf("%d shards: want N ≥ 1", shards)
	}
	id, k := getenv(EnvSlurmTaskID), getenv(EnvJobIndex)
	switch {
	case id != "" && k != "":
		return ShardChoice{}, fmt.Errorf("both %s=%s (Slurm) and %s=%s (Kubernetes) are set: give the shard i/n itself",
			EnvSlurmTaskID, id, EnvJobIndex, k)
	case id != "":
		return slurmShard(id, shards, getenv)
	case k != "":
		return indexedJobShard(k, shards)
	}
	return ShardChoice{}, nil
}

// slurmShard maps a Slurm array task to its shard.
func slurmShard(idText string, shards int, getenv func(string) string) (ShardChoice, error) {
	id, err := envInt(EnvSlurmTaskID, idText, 0)
	if err != nil {
		return ShardChoice{}, err
	}
	if shards > 0 {
		if id >= shards {
			return ShardChoice{}, fmt.Errorf("%s=%d with %d shards: the task IDs must be the shard indices 0…%d (sbatch --array=0-%d, or some of those IDs)",
				EnvSlurmTaskID, id, shards, shards-1, shards-1)
		}
		return ShardChoice{
			Shard:  Shard{Index: id, Count: shards},
			From:   ShardFromSlurm,
			Detail: fmt.Sprintf("%s=%d of %d shards", EnvSlurmTaskID, id, shards),
		}, nil
	}
	const hint = "; when the task IDs are the shard indices (as in a resubmission such as --array=3,7), give the number of shards"
	need := func(name string) (int, error) {
		v := getenv(name)
		if v == "" {
			return 0, fmt.Errorf("%s=%d is set but %s is not, so the task's shard index is unknown: give the number of shards N (task IDs 0…N−1) or the shard i/n itself",
				EnvSlurmTaskID, id, name)
		}
		return envInt(name, v, 0)
	}
	lo, err := need(EnvSlurmTaskMin)
	if err != nil {
		return ShardChoice{}, err
	}
	count, err := need(EnvSlurmTaskCount)
	if err != nil {
		return ShardChoice{}, err
	}
	if count < 1 {
		return ShardChoice{}, fmt.Errorf("%s=%d: want ≥ 1", EnvSlurmTaskCount, count)
	}
	step := 1
	if v := getenv(EnvSlurmTaskStep); v != "" {
		if step, err = envInt(EnvSlurmTaskStep, v, 1); err != nil {
			return ShardChoice{}, err
		}
	}
	detail := fmt.Sprintf("%s=%d, %s=%d, %s=%d, %s=%d", EnvSlurmTaskID, id, EnvSlurmTaskMin, lo,
		EnvSlurmTaskStep, step, EnvSlurmTaskCount, count)
	// Slurm gives a list such as --array=3,7 the step 1: its IDs are not
	// MIN + k·STEP for k < COUNT, which MAX reveals.
	if v := getenv(EnvSlurmTaskMax); v != "" {
		hi, err := envInt(EnvSlurmTaskMax, v, 0)
		if err != nil {
			return ShardChoice{}, err
		}
		if hi != lo+(count-1)*step {
			return ShardChoice{}, fmt.Errorf("the array is not a range MIN-MAX:STEP (%s=%d, %s=%d, %s=%d, %s=%d), so its tasks do not map to shards 0…%d%s",
				EnvSlurmTaskMin, lo, EnvSlurmTaskMax, hi, EnvSlurmTaskStep, step, EnvSlurmTaskCount, count, count-1, hint)
		}
	}
	if id < lo || (id-lo)%step != 0 {
		return ShardChoice{}, fmt.Errorf("%s=%d is not %s + k·%s = %d + k·%d, so it maps to no shard%s",
			EnvSlurmTaskID, id, EnvSlurmTaskMin, EnvSlurmTaskStep, lo, step, hint)
	}
	index := (id - lo) / step
	if index >= count {
		return ShardChoice{}, fmt.Errorf("%s=%d is shard (%d − %d)/%d = %d, not below %s=%d%s",
			EnvSlurmTaskID, id, id, lo, step, index, EnvSlurmTaskCount, count, hint)
	}
	return ShardChoice{
		Shard:          Shard{Index: index, Count: count},
		From:           ShardFromSlurm,
		Detail:         detail,
		CountFromArray: true,
	}, nil
}

// indexedJobShard maps a Kubernetes Indexed Job pod to its shard.
func indexedJobShard(k string, shards int) (ShardChoice, error) {
	if shards == 0 {
		return ShardChoice{}, fmt.Errorf("%s=%s is set but the number of shards is not: give it, the Job's .spec.completions",
			EnvJobIndex, k)
	}
	i, err := envInt(EnvJobIndex, k, 0)
	if err != nil {
		return ShardChoice{}, err
	}
	if i >= shards {
		return ShardChoice{}, fmt.Errorf("%s=%d with %d shards: want an index below %d (is .spec.completions %d?)",
			EnvJobIndex, i, shards, shards, shards)
	}
	return ShardChoice{
		Shard:  Shard{Index: i, Count: shards},
		From:   ShardFromK8s,
		Detail: fmt.Sprintf("%s=%d of %d shards", EnvJobIndex, i, shards),
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

// ShardCounts maps each number of shards whose records files are in dir to
// one such file's name.
func ShardCounts(dir string) map[int]string {
	files, _ := runfolder.OwnRecordsFiles(dir)
	counts := map[int]string{}
	for _, f := range files {
		sh, ok := runfolder.ShardOfFile(filepath.Base(f))
		if _, seen := counts[sh.Count]; ok && !seen {
			counts[sh.Count] = filepath.Base(f)
		}
	}
	return counts
}

// ResolveShard decides which shard a run takes: the flag --shard i/n, else
// the environment of a job-array task (ShardFromEnv, with --shards N as
// the number of shards; 0 when not given), else none. Every error is one
// line naming the flag or the variables at fault.
func ResolveShard(flag string, shards int, getenv func(string) string) (ShardChoice, error) {
	if shards < 0 {
		return ShardChoice{}, fmt.Errorf("--shards %d: want N ≥ 1", shards)
	}
	if flag != "" {
		if shards != 0 {
			return ShardChoice{}, fmt.Errorf("give --shard i/n or --shards N, not both")
		}
		sh, err := ParseShard(flag)
		if err != nil {
			err = fmt.Errorf("--shard %w", err)
		}
		return ShardChoice{Shard: sh, From: "--shard", Detail: "--shard " + flag}, err
	}
	ch, err := ShardFromEnv(shards, getenv)
	if err == nil && ch.From == "" && shards != 0 {
		err = fmt.Errorf("--shards %d needs the shard index from a Slurm array task (%s) or a Kubernetes Indexed Job (%s), and neither is set; to run one shard by hand give --shard i/%d",
			shards, EnvSlurmTaskID, EnvJobIndex, shards)
	}
	return ch, err
}

// CheckFolder refuses a shard whose number of shards is only the size of
// the job array when the folder out already holds the shards of another
// number: that array is then a resubmission of some tasks, and taken as a
// sweep of its own it would split the work differently and run candidates
// that other shards own.
func (ch ShardChoice) CheckFolder(out string) error {
	if !ch.CountFromArray {
		return nil
	}
	counts := ShardCounts(out)
	for _, n := range slices.Sorted(maps.Keys(counts)) {
		if example := counts[n]; n != ch.Shard.Count {
			return fmt.Errorf("%s makes this task shard %s, but %s holds the records of %d shards (%s): to rerun tasks of that array give --shards %d (FP_SHARDS=%d with deploy/slurm/fp-array.sbatch)",
				ch.Detail, ch.Shard, out, n, example, n, n)
		}
	}
	return nil
}
