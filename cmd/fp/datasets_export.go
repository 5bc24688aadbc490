package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/datasets"
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
			"can be written with their four groups).",
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
		},
		Action: runDatasetsExport,
	}
}

func runDatasetsExport(c *cli.Context) error {
	args, err := argsAndFlags(c)
	if err != nil {
		return fmt.Errorf("datasets export: %w", err)
	}
	if len(args) != 1 {
		return newUsageError("fp datasets export", c.Command, fmt.Sprintf("name one built-in dataset (%d given)", len(args)))
	}
	name, out := args[0], c.String("out")
	if out == "" {
		return newUsageError("fp datasets export", c.Command, "--out is required")
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
	var rows []int
	what := name
	if run := c.String("run"); run != "" {
		if rows, err = runPart(run, c.Int("split"), c.String("part"), d); err != nil {
			return fmt.Errorf("datasets export: %w", err)
		}
		what = fmt.Sprintf("%s (the %s rows of split %d of %s)", name, c.String("part"), c.Int("split"), run)
	} else if c.IsSet("split") || c.IsSet("part") {
		return newUsageError("fp datasets export", c.Command, "--split and --part need --run DIR, the run whose split they name")
	}
	var b bytes.Buffer
	n, err := d.WriteCSVRows(&b, rows)
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
		fmt.Fprintf(c.App.ErrWriter, "fp: wrote %d rows of %s to %s (%s: 1 means %q; %s: the groups %s)\n",
			n, what, out, d.Target, d.LabelPositive, d.Sensitive, quoted(d.Levels))
		return nil
	}
	fmt.Fprintf(c.App.ErrWriter, "fp: wrote %d rows of %s to %s (%s: 1 means %q; %s: 1 means %q, 0 any other value)\n",
		n, what, out, d.Target, d.LabelPositive, d.Sensitive, d.GroupPositive)
	return nil
}

// runPart returns the indices into d of one part of split m of the run in
// dir, drawn as the run draws them (runfolder.PartsOf). The run must train
// on d's rows: the same number, in the same order, with the same y and
// binary a, which holds for a dataset and its variant in groups (compas and
// compas-race4) although their data_id differ.
func runPart(dir string, m int, part string, d *datasets.Dataset) ([]int, error) {
	if part != "test" && part != "selection" && part != "train" {
		return nil, fmt.Errorf("--part %q: want test, selection or train", part)
	}
	cfg, err := runfolder.ReadConfig(dir)
	if err != nil {
		return nil, fmt.Errorf("--run %s: %w", dir, err)
	}
	if cfg.CSV != "" {
		return nil, fmt.Errorf("--run %s trains on the file %s, not a built-in dataset: its rows are that file's", dir, cfg.CSV)
	}
	if m < 0 || m >= cfg.Splits {
		return nil, fmt.Errorf("--split %d: the run in %s has splits 0 to %d", m, dir, cfg.Splits-1)
	}
	rd, err := runfolder.LoadDataset(cfg)
	if err != nil {
		return nil, fmt.Errorf("--run %s: %w", dir, err)
	}
	if rd.N != d.N || !slices.Equal(rd.Y, d.Y) || !slices.Equal(rd.A, d.A) {
		return nil, fmt.Errorf("--run %s trains on %s (%d rows), not on the rows of %s (%d rows, or another y or a): its splits index other rows",
			dir, cfg.Dataset, rd.N, d.Name, d.N)
	}
	p, err := runfolder.PartsOf(cfg, rd, m)
	if err != nil {
		return nil, fmt.Errorf("--run %s: %w", dir, err)
	}
	switch part {
	case "train":
		return p.Train, nil
	case "selection":
		if p.Selection == nil {
			return nil, fmt.Errorf("--part selection: the run in %s keeps no selection rows (fp train --select-fraction)", dir)
		}
		return p.Selection, nil
	}
	return p.Test, nil
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
