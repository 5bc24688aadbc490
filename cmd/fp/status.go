package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/internal/cliusage"
)

func init() { register(statusCommand()) }

func statusCommand() *cli.Command {
	return &cli.Command{
		Name:      "status",
		Usage:     "how far a sweep is: done, failed and missing candidates, per shard and overall",
		ArgsUsage: "DIR",
		Description: "Reads DIR/config.json and every records file of DIR (as fp train writes them, one per shard\n" +
			"when sharded) and compares them with the sweep's candidates (every split × every λ of the\n" +
			"grid; N per split for adaptive:N). Prints, per shard and overall, how many are recorded out of\n" +
			"how many, the failed ones with their reason, and exactly which (split, λ) are missing (an\n" +
			"adaptive grid's λs not chosen yet are counted per split). The shards are those of the\n" +
			"records-shard-i-of-n.jsonl files, or --shards N. A shard with missing candidates whose task has\n" +
			"ended is rerun by running that shard again (Slurm: resubmit its array index); finished\n" +
			"candidates are kept. Records of another configuration in DIR are refused.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "shards", Usage: "show `N` shards (default: the number in the records files' names)"},
			&cli.BoolFlag{Name: jsonFlag, Usage: "print JSON"},
		},
		Action: runStatus,
	}
}

func runStatus(c *cli.Context) error {
	args, err := cliusage.ArgsAndFlags(c)
	if err != nil {
		return fmt.Errorf("status: %w", err)
	}
	if len(args) != 1 {
		return fmt.Errorf("status: name one sweep folder (got %d arguments)", len(args))
	}
	if c.IsSet("shards") && c.Int("shards") < 1 {
		return fmt.Errorf("status: --shards %d: want N ≥ 1", c.Int("shards"))
	}
	rep, err := experiments.Status(args[0], c.Int("shards"))
	if err != nil {
		return err
	}
	if c.Bool(jsonFlag) {
		return writeJSON(c.App.Writer, rep)
	}
	return rep.WriteText(c.App.Writer)
}
