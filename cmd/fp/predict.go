package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/internal/printable"
	"github.com/fpareto/fp/predict"
	"github.com/fpareto/fp/runfolder"
)

func init() { register(predictCommand()) }

func predictCommand() *cli.Command {
	return &cli.Command{
		Name:  "predict",
		Usage: "score the raw rows of a data file with a stored network",
		Description: "Reads the rows of --data with the columns the network was trained on (others are ignored,\n" +
			"or copied with --keep) and writes a CSV with score (the probability), label (score ≥ --threshold)\n" +
			"and, with --logit, the logit. A network trained on a built-in dataset reads that dataset's\n" +
			"original file (compas-scores-two-years.csv, adult.data); any other network reads a CSV with a\n" +
			"header row. A --data or --out name ending in .parquet is a Parquet file, whatever the network\n" +
			"was trained on (read one row group at a time). Memory does not grow with the file. A missing\n" +
			"column, an unseen category, an empty or non-numeric cell stops it with an error naming the line\n" +
			"(Parquet: the row) and column; --out is then not written.\n\n" +
			"--with-propensity adds propensity, the calibrated P(a=1 | x) of the propensity model of the\n" +
			"network's split (RUN/splits/split-NNN/propensity.json beside RUN/networks/split-NNN/), the ê the\n" +
			"run's ATO used; --propensity-file names that file elsewhere. --keep-coded adds y_coded and a_coded,\n" +
			"the network's own 0/1 coding of the target and sensitive columns, so that\n" +
			"fp audit --logit logit --label y_coded --group a_coded --propensity propensity measures what\n" +
			"the records measure. For a network trained on more than two groups the propensity model gives\n" +
			"one column per group, propensity_<group>, and --keep-coded writes group_coded instead of a_coded:\n" +
			"the row's group, formed from its sensitive column(s) as training formed it (--group-map and the\n" +
			"values merged into other included); fp audit --logit logit --label y_coded --group group_coded\n" +
			"then compares the network's groups and reads the propensity columns.\n\n" +
			"A λ-conditioned network (fp train --conditioned; format fp-network/3, one file per split) is\n" +
			"scored at the trade-off weight --lambda L, which it then requires.\n\n" +
			"A network with group thresholds (fp train --method thresholds; format fp-network/4) decides with\n" +
			"each row's group, so --data must hold the sensitive column(s): it writes decision, P(ŷ = 1) under\n" +
			"its group's rule (randomized where the rule is), and label, decision ≥ 0.5; it refuses --threshold.\n" +
			"fp audit --decision decision then measures the decisions the records measure.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "model", Required: true, Usage: "network file (from a sweep's networks/ folder, or fp pick)"},
			lambdaFlag(),
			&cli.StringFlag{Name: "data", Required: true, Usage: "data file to score: CSV, or Parquet when the name ends in .parquet"},
			&cli.StringFlag{Name: "out", Usage: "output file: CSV, or Parquet when the name ends in .parquet (default: CSV on standard output)"},
			&cli.StringFlag{Name: "keep", Usage: "comma-separated columns of --data to copy to the output"},
			&cli.Float64Flag{Name: "threshold", Value: predict.DefaultThreshold, Usage: "label is 1 when score ≥ this"},
			&cli.BoolFlag{Name: "logit", Usage: "also write the logit"},
			&cli.BoolFlag{Name: "with-propensity", Usage: "also write propensity, the calibrated P(a=1 | x) of the propensity model of the network's split, found in its run folder (for more than two groups, propensity_<group> for each group)"},
			&cli.StringFlag{Name: "propensity-file", Usage: "the propensity model `FILE` (a run's splits/split-NNN/propensity.json) when it is not in the network's run folder; implies --with-propensity"},
			&cli.BoolFlag{Name: "keep-coded", Usage: "also write y_coded and a_coded, the network's 0/1 coding of the target and sensitive columns (for a network of more than two groups, group_coded, the row's group, instead of a_coded)"},
		},
		Action: runPredict,
	}
}

func runPredict(c *cli.Context) error {
	if err := runfolder.CheckOut("predict", "--out", c.String("out"),
		runfolder.Input{Flag: "--data", Path: c.String("data")}, runfolder.Input{Flag: "--model", Path: c.String("model")},
		runfolder.Input{Flag: "--propensity-file", Path: c.String("propensity-file")}); err != nil {
		return err
	}
	f, err := loadModel(c, "predict")
	if err != nil {
		return err
	}
	if f.UsesGroup() && c.IsSet("threshold") {
		return fmt.Errorf("predict: --threshold: %w", predict.ErrThresholdWithGroups)
	}
	opt := predict.Options{Threshold: c.Float64("threshold"), Logit: c.Bool("logit"), KeepCoded: c.Bool("keep-coded"),
		Note: func(line string) { fmt.Fprintln(c.App.ErrWriter, "fp: note: "+line) }}
	if c.Bool("with-propensity") || c.IsSet("propensity-file") {
		var note string
		if opt.Propensity, note, err = runfolder.PropensityFor(c.String("propensity-file"), c.String("model"), f); err != nil {
			return fmt.Errorf("predict: %w", err)
		}
		if note != "" {
			fmt.Fprintln(c.App.ErrWriter, "fp: "+note)
		}
	}
	if k := c.String("keep"); k != "" {
		for _, name := range strings.Split(k, ",") {
			opt.Keep = append(opt.Keep, strings.TrimSpace(name))
		}
	}
	data, out := c.String("data"), c.String("out")
	if out == "" {
		if _, err := predict.RunTo(f, data, c.App.Writer, opt); err != nil {
			return fmt.Errorf("predict: %w", err)
		}
		return nil
	}
	// An interrupt removes the temporary output: the process ends through
	// RunFileContext's return, not at the signal.
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	n, err := predict.RunFileContext(ctx, f, data, out, opt)
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("predict: interrupted after %d rows; %s was not written", n, out)
	}
	if err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	fmt.Fprintf(c.App.ErrWriter, "fp: %d rows scored into %s", n, out)
	if s := f.Schema; s != nil {
		fmt.Fprintf(c.App.ErrWriter, "; score is P(%s = %q)", printable.String(s.Target), s.TargetPositive)
	}
	fmt.Fprintln(c.App.ErrWriter)
	return nil
}
