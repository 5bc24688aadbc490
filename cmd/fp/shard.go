package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/experiments"
)

// shardFromContext resolves the shard of fp train (flags --shard and
// --shards, and the environment) for the sweep cfg, refusing a
// resubmitted array's task that would split the folder's work differently
// (ShardChoice.CheckFolder).
func shardFromContext(c *cli.Context, cfg experiments.Config) (experiments.Shard, error) {
	if c.IsSet("shards") && c.Int("shards") < 1 {
		return experiments.Shard{}, fmt.Errorf("--shards %d: want N ≥ 1", c.Int("shards"))
	}
	ch, err := experiments.ResolveShard(c.String("shard"), c.Int("shards"), os.Getenv)
	if err != nil {
		return experiments.Shard{}, err
	}
	out := c.String("out")
	if out == "" {
		out = experiments.DefaultOut(cfg)
	}
	if err := ch.CheckFolder(out); err != nil {
		return experiments.Shard{}, err
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
