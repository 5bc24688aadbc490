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

// loadModel reads --model as the plain network the command works with: a
// λ-conditioned file folded at --lambda, a plain file as it is. A
// conditioned file without --lambda, or --lambda with a plain file, is
// refused in one line.
func loadModel(c *cli.Context, cmd string) (*model.File, error) {
	path := c.String("model")
	f, err := model.Load(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	if !f.IsConditioned() {
		if c.IsSet("lambda") {
			at := ""
			if f.Card != nil {
				at = fmt.Sprintf(", trained at λ = %g", f.Card.Lambda)
			}
			return nil, fmt.Errorf("%s: --lambda %g: --model %s is a plain network (%s%s), not a λ-conditioned one (%s): leave --lambda out",
				cmd, c.Float64("lambda"), path, f.Format, at, model.FileFormatConditioned)
		}
		return f, nil
	}
	if !c.IsSet("lambda") {
		return nil, fmt.Errorf("%s: --model %s is a λ-conditioned network (%s), which scores rows only at a given λ: give --lambda L with L in [0, 1] (fp pick names a candidate's λ)",
			cmd, path, f.Format)
	}
	lambda := c.Float64("lambda")
	if !(lambda >= 0 && lambda <= 1) {
		return nil, fmt.Errorf("%s: --lambda %g: want a value in [0, 1]", cmd, lambda)
	}
	at, err := f.At(lambda)
	if err != nil {
		return nil, fmt.Errorf("%s: --model %s at --lambda %g: %w", cmd, path, lambda, err)
	}
	return at, nil
}
