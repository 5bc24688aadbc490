package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/internal/cliusage"
	"github.com/fpareto/fp/runfolder"
)

func datasetsExportCommand() *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "write a built-in dataset's rows as a CSV file that fp predict, fp audit and fp train --data read",
		ArgsUsage: "NAME",
		Description: "Writes the rows fp trains on for NAME (compas, adult-sex or adult-race, with --preset for Adult):\n" +
			"the source columns of the features under their own names and raw values, then the target and the\n" +
			"sensitive column under their own names, coded 0/1 as fp codes them (for compas, race is 1 for\n" +
			"African-American and 0 for every other value). With groups (compas-race4, adult-race5,\n" +
			"--sensitive-levels or --group-map) the sensitive column holds each row's group instead, for fp audit --group.\n" +
			"A network trained on NAME scores the file with\n" +
			"fp predict; fp audit reads its label and group columns; fp train --data FILE --target T\n" +
			"--sensitive S codes y and a as the built-in dataset does. An existing --out is replaced (the\n" +
			"file is written whole, then renamed), unless it is one of the files read.\n" +
			"--run DIR --split M writes only the rows of one part of split M of the run in DIR (--part: test,\n" +
			"the rows of the records' test metrics; selection; or train, the whole training split), so that\n" +
			"fp predict and fp audit score a network on the rows its records were measured on. The run must\n" +
			"train on NAME's rows (compas and compas-race4 have the same rows, so a compas run's test rows\n" +
			"can be written with their four groups).\n" +
			"Every file starts with the column fp_row, each row's 0-based index in NAME's rows (the same in\n" +
			"every part), to join on; fp train --data, fp predict and fp audit never read it as a feature.\n" +
			"--coded (with --run and --split) writes the features as the split's networks see them instead:\n" +
			"the run's encoded columns (age, sex=Male, …), one-hot coded and standardized with the mean and SD\n" +
			"of the split's training rows, then the target coded 0/1 and the sensitive column coded 0/1, or\n" +
			"with groups each row's group index (0 for the first group fp datasets lists).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "the CSV `FILE` to write (required)"},
			&cli.StringFlag{Name: "preset", Usage: "adult preset: paper or full", DefaultText: "paper"},
			&cli.StringFlag{Name: "data-dir", Usage: "read the original data files from `DIR` instead of the embedded copies"},
			&cli.StringFlag{Name: "sensitive-levels", Usage: "write the sensitive column's groups: all (every value its own group) or `VALUES`, comma-separated (those values, the rest as \"other\")"},
			&cli.StringFlag{Name: "group-map", Usage: "put sensitive values in groups of your naming before --sensitive-levels and --min-group-rows act: `VALUE=GROUP` entries, comma-separated; a GROUP named other joins the rest; without --sensitive-levels, every group is kept (all)"},
			&cli.IntFlag{Name: "min-group-rows", Usage: "with groups: a value with fewer than `N` rows joins the group \"other\"", DefaultText: "30"},
			&cli.StringFlag{Name: "run", Usage: "write only rows of one split of the run in `DIR` (with --split and --part)"},
			&cli.IntFlag{Name: "split", Usage: "with --run: the split `M` (0-based)"},
			&cli.StringFlag{Name: "part", Usage: "with --run: the part of the split, test, selection or train", Value: "test"},
			&cli.BoolFlag{Name: "coded", Usage: "with --run and --split: write the features as the split's networks see them (one-hot, standardized on the split's training rows)"},
		},
		Action: runDatasetsExport,
	}
}

func runDatasetsExport(c *cli.Context) error {
	args, err := cliusage.ArgsAndFlags(c)
	if err != nil {
		return fmt.Errorf("datasets export: %w", err)
	}
	if len(args) != 1 {
		return cliusage.NewError("fp datasets export", c.Command, fmt.Sprintf("name one built-in dataset (%d given)", len(args)))
	}
	out := c.String("out")
	if out == "" {
		return cliusage.NewError("fp datasets export", c.Command, "--out is required")
	}
	if c.Bool("coded") && !(c.String("run") != "" && c.IsSet("split")) {
		return cliusage.NewError("fp datasets export", c.Command, "--coded codes the rows as one split of a run standardizes them: add --run DIR --split M")
	}
	if c.String("run") == "" && (c.IsSet("split") || c.IsSet("part")) {
		return cliusage.NewError("fp datasets export", c.Command, "--split and --part need --run DIR, the run whose split they name")
	}
	levels, err := runfolder.ParseList(c.String("sensitive-levels"))
	if err != nil {
		return fmt.Errorf("datasets export: --sensitive-levels %w", err)
	}
	groupMap, err := runfolder.ParseList(c.String("group-map"))
	if err != nil {
		return fmt.Errorf("datasets export: --group-map %w", err)
	}
	groups, err := runfolder.GroupOptions(levels, c.Int("min-group-rows"), groupMap)
	if err != nil {
		return fmt.Errorf("datasets export: %w", err)
	}
	summary, notes, err := runfolder.DatasetExport{Name: args[0],
		Options: datasets.Options{Preset: c.String("preset"), DataDir: c.String("data-dir"), Groups: groups},
		Run:     c.String("run"), Split: c.Int("split"), Part: c.String("part"), Coded: c.Bool("coded"),
	}.Write(out)
	if err != nil {
		return err
	}
	for _, note := range notes {
		fmt.Fprintln(c.App.ErrWriter, "note: "+note)
	}
	fmt.Fprintln(c.App.ErrWriter, "fp: "+summary)
	return nil
}
