package main

import (
	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/internal/cliusage"
)

func init() {
	register(&cli.Command{
		Name:  "datasets",
		Usage: "the built-in datasets, their encodings and base rates (fp datasets export: one as a CSV file)",
		Description: "One row per built-in dataset and preset: rows, dim(x), P(y=1), P(a=1), P(y=1|a=0),\n" +
			"P(y=1|a=1), and what a = 1 and y = 1 mean; then, for the datasets whose sensitive attribute is in\n" +
			"groups (compas-race4, adult-race5), each group's rows and P(y=1). COMPAS's label records re-arrest within two years,\n" +
			"not re-offence. fp datasets export NAME --out FILE.csv writes a dataset's rows as a CSV file.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "data-dir", Usage: "read the original data files from `DIR` instead of the embedded copies"},
			&cli.BoolFlag{Name: jsonFlag, Usage: "print JSON"},
		},
		Subcommands: []*cli.Command{datasetsExportCommand()},
		Action:      runDatasets,
	})
}

func runDatasets(c *cli.Context) error {
	if err := cliusage.NoSubcommand(c, "fp datasets"); err != nil {
		return err
	}
	rows, err := datasets.Summaries(c.String("data-dir"))
	if err != nil {
		return err
	}
	w := c.App.Writer
	if c.Bool(jsonFlag) {
		return writeJSON(w, rows)
	}
	return datasets.WriteSummaries(w, rows)
}
