package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/fairness/audit"
)

func init() { register(auditCommand()) }

func auditCommand() *cli.Command {
	return &cli.Command{
		Name:      "audit",
		Usage:     "the fairness metrics of any file of predictions",
		UsageText: "fp audit --data FILE (--score COL | --logit COL) --label COL --group COL [--propensity COL] [--json]",
		Description: "Reads a CSV file with a header row (a Parquet file when the name ends in .parquet; with\n" +
			"--data -, a CSV from standard input) and one prediction per row: a score (a probability in\n" +
			"[0, 1]) or a logit, the true label and the sensitive group (each 0/1 or two distinct values,\n" +
			"coded as for fp train: 1, true or yes is 1, else the later value in sorted order). Prints risk,\n" +
			"accuracy, dp, eo and eopp (and ato when a propensity column P(group=1 | x) is given: overlap\n" +
			"weights from it, as in the records), and per group the count, base rate P(y=1), mean score,\n" +
			"accuracy and selection rate (score ≥ 0.5). On the output of fp predict --logit\n" +
			"--with-propensity --keep-coded, --logit logit --label y_coded --group a_coded --propensity\n" +
			"propensity measures exactly what the records measure.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "data", Required: true, Usage: "the predictions `FILE`: CSV with a header row, or Parquet when the name ends in .parquet; - for standard input (CSV)"},
			&cli.StringFlag{Name: "score", Usage: "the `COLUMN` of predicted probabilities P(y=1)"},
			&cli.StringFlag{Name: "logit", Usage: "instead of --score: the `COLUMN` of logits z, P(y=1) = σ(z); the risk is then exact, as in the records"},
			&cli.StringFlag{Name: "label", Required: true, Usage: "the `COLUMN` of true labels"},
			&cli.StringFlag{Name: "group", Required: true, Usage: "the `COLUMN` of the sensitive attribute"},
			&cli.StringFlag{Name: "propensity", Usage: "the `COLUMN` of propensities P(group=1 | x), for the ato"},
			&cli.BoolFlag{Name: jsonFlag, Usage: "print JSON"},
		},
		Action: runAudit,
	}
}

func runAudit(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("audit: unexpected argument %q (the file is given with --data)", c.Args().First())
	}
	if c.IsSet("score") == c.IsSet("logit") {
		return fmt.Errorf("audit: give --score or --logit (one of them)")
	}
	cols := datasets.PredictionColumns{
		Score: c.String("score"), Logit: c.String("logit"), Label: c.String("label"),
		Group: c.String("group"), Propensity: c.String("propensity"),
	}
	var in *datasets.Predictions
	var err error
	if data := c.String("data"); data == "-" {
		in, err = datasets.ReadPredictionsFrom(c.App.Reader, "standard input", cols)
	} else {
		in, err = datasets.ReadPredictions(data, cols)
	}
	if pe := (*datasets.ParseError)(nil); errors.As(err, &pe) {
		return err // it names the file first
	} else if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	res, err := audit.Compute(in)
	if err != nil {
		return err
	}
	if c.Bool(jsonFlag) {
		return writeJSON(c.App.Writer, res)
	}
	return audit.WriteText(c.App.Writer, in, res)
}
