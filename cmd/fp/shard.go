package main

import (
	"fmt"
	"maps"
	"os"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/experiments"
)

// resolveShard decides which shard a run takes: --shard i/n, else the
// environment of a job-array task (experiments.ShardFromEnv, with --shards N
// as the number of shards; 0 when not given), else none. Every error is one
// line naming the flag or the variables at fault.
func resolveShard(flag string, shards int, getenv func(string) string) (experiments.ShardChoice, error) {
	if shards < 0 {
		return experiments.ShardChoice{}, fmt.Errorf("--shards %d: want N ≥ 1", shards)
	}
	if flag != "" {
		if shards != 0 {
			return experiments.ShardChoice{}, fmt.Errorf("give --shard i/n or --shards N, not both")
		}
		sh, err := experiments.ParseShard(flag)
		if err != nil {
			err = fmt.Errorf("--shard %w", err)
		}
		return experiments.ShardChoice{Shard: sh, From: "--shard", Detail: "--shard " + flag}, err
	}
	ch, err := experiments.ShardFromEnv(shards, getenv)
	if err == nil && ch.From == "" && shards != 0 {
		err = fmt.Errorf("--shards %d needs the shard index from a Slurm array task (%s) or a Kubernetes Indexed Job (%s), and neither is set; to run one shard by hand give --shard i/%d",
			shards, experiments.EnvSlurmTaskID, experiments.EnvJobIndex, shards)
	}
	return ch, err
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
			out = experiments.DefaultOut(cfg)
		}
		counts := experiments.ShardCounts(out)
		for _, n := range slices.Sorted(maps.Keys(counts)) {
			if example := counts[n]; n != ch.Shard.Count {
				return experiments.Shard{}, fmt.Errorf("%s makes this task shard %s, but %s holds the records of %d shards (%s): to rerun tasks of that array give --shards %d (FP_SHARDS=%d with deploy/slurm/fp-array.sbatch)",
					ch.Detail, ch.Shard, out, n, example, n, n)
			}
		}
	}
	if ch.From != "" && ch.From != "--shard" && !c.Bool("quiet") {
		fmt.Fprintf(c.App.ErrWriter, "shard %s (%s: %s)\n", ch.Shard, ch.From, ch.Detail)
	}
	if ch.Shard.Active() && cfg.Splits > 0 && ch.Shard.Index >= cfg.Splits {
		// Harmless (the task ends at once) but a sign of an array larger than the sweep.
		fmt.Fprintf(c.App.ErrWriter, "fp: warning: shard %s owns no split: the sweep has %d splits, so shards %d… have nothing to train\n",
			ch.Shard, cfg.Splits, cfg.Splits)
	}
	return ch.Shard, nil
}
