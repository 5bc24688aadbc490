package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/model"
)

// lambdaFlag is --lambda of the commands that read a network file: the λ at
// which a λ-conditioned network is used.
func lambdaFlag() cli.Flag {
	return &cli.Float64Flag{Name: "lambda", Usage: "for a λ-conditioned network (fp-network/3): use it at the trade-off weight `L` in [0, 1] " +
		"(fp pick names the λ of the network it picks); refused for a plain network"}
}

// loadModel reads --model as the plain network the command works with,
// folded at --lambda where it is λ-conditioned (model.LoadAt).
func loadModel(c *cli.Context, cmd string) (*model.File, error) {
	f, err := model.LoadAt(c.String("model"), c.Float64("lambda"), c.IsSet("lambda"))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	return f, nil
}
