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
			"and heap allocations per step, and each engine's speed relative to the graph engine.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "dataset", Value: "compas", Usage: "`NAME`: compas, adult-sex or adult-race"},
			&cli.IntFlag{Name: "steps", Usage: "timed steps per engine (default: as many as fit in about 1 s per engine)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the network, batch order and masks"},
			&cli.BoolFlag{Name: jsonFlag, Usage: "print JSON"},
		},
		Action: runBench,
	})
}

func runBench(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("bench takes no arguments, got %q", c.Args().First())
	}
	res, err := enginebench.Run(c.Context, enginebench.Config{
		Dataset: c.String("dataset"), Steps: c.Int("steps"), Seed: c.Uint64("seed")})
	if err != nil {
		return err
	}
	w := c.App.Writer
	if c.Bool(jsonFlag) {
		return writeJSON(w, res)
	}
	return enginebench.WriteText(w, res)
}
