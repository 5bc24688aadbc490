package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/enginebench"
)

func init() {
	register(&cli.Command{
		Name:  "bench",
		Usage: "time a training step of the graph and backprop engines",
		Description: "Both engines take the same training steps (the same network, batches and dropout masks) on a\n" +
			"built-in dataset with its default network and batch size: the gradient of the Chebyshev objective\n" +
			"with the ato-penultimate penalty, then an Adam update. The engines run one after the other; each\n" +
			"may use GOMAXPROCS threads (set GOMAXPROCS=1 for single-thread figures). Reported: wall-clock time\n" +
			"and heap allocations per step, and each engine's speed relative to the graph engine.\n\n" +
			"With --workers N, each engine also trains a sweep of networks (built and trained for --sweep-steps\n" +
			"steps each, --networks of them) on N workers at once and on one worker: reported are networks per\n" +
			"second on N workers and the speed-up over one worker. Set GOMAXPROCS to at least N.\n\n" +
			"Every figure is measured --repeat times (the engines, and one and N workers, taking turns) after\n" +
			"untimed warm-up steps; printed are the median and the range (min–max) of the repeats. A warning\n" +
			"goes to stderr when a figure's range exceeds 20% of its median, or a speed-up exceeds N: the\n" +
			"machine was busy, and the figures are not to be trusted.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "dataset", Value: "compas", Usage: "`NAME`: compas, adult-sex or adult-race"},
			&cli.IntFlag{Name: "steps", Usage: "timed steps per engine (default: as many as fit in about 1 s per engine)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the network, batch order and masks"},
			&cli.IntFlag{Name: "workers", Usage: "`N`: also time a sweep of networks on N workers and on one"},
			&cli.IntFlag{Name: "networks", Usage: "networks in the sweep (default: 4 per worker)"},
			&cli.IntFlag{Name: "sweep-steps", Usage: "training steps per network in the sweep (default: 50)"},
			&cli.IntFlag{Name: "repeat", Value: enginebench.DefaultRepeat, Usage: "measure each figure `N` times and report the median and range"},
			&cli.BoolFlag{Name: jsonFlag, Usage: "print JSON (with --workers: an object with \"steps\" and \"sweep\")"},
		},
		Action: runBench,
	})
}

func runBench(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("bench takes no arguments, got %q", c.Args().First())
	}
	workers := c.Int("workers")
	if workers < 0 || (workers == 0 && (c.IsSet("networks") || c.IsSet("sweep-steps"))) {
		return fmt.Errorf("bench: --workers %d: want N ≥ 1 for a sweep (--networks and --sweep-steps need it)", workers)
	}
	repeat := c.Int("repeat")
	if repeat < 1 {
		return fmt.Errorf("bench: --repeat %d: want N ≥ 1", repeat)
	}
	res, err := enginebench.Run(c.Context, enginebench.Config{
		Dataset: c.String("dataset"), Steps: c.Int("steps"), Seed: c.Uint64("seed"), Repeat: repeat})
	if err != nil {
		return err
	}
	var sweep []enginebench.SweepResult
	if workers > 0 {
		if sweep, err = enginebench.Sweep(c.Context, enginebench.SweepConfig{Dataset: c.String("dataset"),
			Workers: workers, Networks: c.Int("networks"), Steps: c.Int("sweep-steps"), Seed: c.Uint64("seed"), Repeat: repeat}); err != nil {
			return err
		}
	}
	for _, line := range enginebench.Warnings(res, sweep) {
		fmt.Fprintf(c.App.ErrWriter, "fp: warning: %s\n", line)
	}
	w := c.App.Writer
	if c.Bool(jsonFlag) {
		if workers > 0 {
			return writeJSON(w, struct {
				Steps []enginebench.Result      `json:"steps"`
				Sweep []enginebench.SweepResult `json:"sweep"`
			}{res, sweep})
		}
		return writeJSON(w, res)
	}
	return enginebench.WriteText(w, res, sweep)
}
