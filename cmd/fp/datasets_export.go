package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/internal/cliusage"
	"github.com/fpareto/fp/model"
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
	name, out := args[0], c.String("out")
	if out == "" {
		return cliusage.NewError("fp datasets export", c.Command, "--out is required")
	}
	groups, err := runfolder.GroupOptions(columnList(c.String("sensitive-levels")), c.Int("min-group-rows"), columnList(c.String("group-map")))
	if err != nil {
		return fmt.Errorf("datasets export: %w", err)
	}
	opt := datasets.Options{Preset: c.String("preset"), DataDir: c.String("data-dir"), Groups: groups}
	if err := notAnInput(out, name, opt); err != nil {
		return err
	}
	d, err := datasets.Load(name, opt)
	if err != nil {
		return fmt.Errorf("datasets export: %w", err)
	}
	var part *runfolder.RunPart
	what := name
	if c.Bool("coded") && !(c.String("run") != "" && c.IsSet("split")) {
		return cliusage.NewError("fp datasets export", c.Command, "--coded codes the rows as one split of a run standardizes them: add --run DIR --split M")
	}
	if run := c.String("run"); run != "" {
		if part, err = runfolder.LoadRunPart(run, c.Int("split"), c.String("part"), d); err != nil {
			return fmt.Errorf("datasets export: %w", err)
		}
		what = fmt.Sprintf("%s (the %s rows of split %d of %s)", name, c.String("part"), c.Int("split"), run)
	} else if c.IsSet("split") || c.IsSet("part") {
		return cliusage.NewError("fp datasets export", c.Command, "--split and --part need --run DIR, the run whose split they name")
	}
	var b bytes.Buffer
	var n int
	if c.Bool("coded") {
		what += ", coded"
	}
	if part != nil {
		n, err = part.WriteCSV(&b, d, c.Bool("coded"))
	} else {
		n, err = d.WriteCSVRows(&b, nil)
	}
	if err != nil {
		return fmt.Errorf("datasets export: %w", err)
	}
	if err := model.WriteFileAtomic(out, b.Bytes()); err != nil {
		return fmt.Errorf("datasets export: %w", err)
	}
	for _, note := range d.GroupNotes {
		fmt.Fprintln(c.App.ErrWriter, "note: "+note)
	}
	if d.Levels != nil {
		groups := "the groups " + quoted(d.Levels)
		if c.Bool("coded") {
			groups = "the index 0, 1, … of the groups " + quoted(d.Levels)
		}
		fmt.Fprintf(c.App.ErrWriter, "fp: wrote %d rows of %s to %s (%s: 1 means %q; %s: %s)\n",
			n, what, out, d.Target, d.LabelPositive, d.Sensitive, groups)
		return nil
	}
	fmt.Fprintf(c.App.ErrWriter, "fp: wrote %d rows of %s to %s (%s: 1 means %q; %s: 1 means %q, 0 any other value)\n",
		n, what, out, d.Target, d.LabelPositive, d.Sensitive, d.GroupPositive)
	return nil
}

// notAnInput refuses an output path that is a folder or one of the original
// files the dataset is read from.
func notAnInput(out, name string, opt datasets.Options) error {
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		return fmt.Errorf("datasets export: --out %s is a folder; want a file name such as %s.csv", out, name)
	}
	// Nor a file of a run folder (records, networks, configuration).
	if err := checkOut("datasets export", "--out", out); err != nil {
		return err
	}
	if opt.DataDir == "" {
		return nil
	}
	for _, in := range []string{datasets.OriginalFile(name), "adult.test"} {
		if in == "" {
			continue
		}
		p := filepath.Join(opt.DataDir, in)
		if sameFile(out, p) {
			return fmt.Errorf("datasets export: --out %s is the file the data is read from; write elsewhere", out)
		}
	}
	return nil
}

// sameFile reports whether a and b name one existing file.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// quoted lists values, each quoted, separated by commas.
func quoted(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}
