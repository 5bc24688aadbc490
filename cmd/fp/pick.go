package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/certify"
	"github.com/fpareto/fp/choose"
	"github.com/fpareto/fp/internal/cliusage"
	"github.com/fpareto/fp/intervals"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

func init() { register(pickCommand()) }

func pickCommand() *cli.Command {
	return &cli.Command{
		Name:      "pick",
		Usage:     "choose one network of the pooled front by a stated requirement",
		ArgsUsage: "FILE_OR_DIR...",
		Description: "Pools the successful candidates of the named sweeps, leaves out the degenerate ones (constant\n" +
			"or near-constant predictors, those predicting one class for every test row or almost every row\n" +
			"alike (docs/method.md §7, majority_share), and those whose test risk is no better than the constant\n" +
			"predictor's at the training base rate; --allow-degenerate keeps\n" +
			"all but the constant ones), keeps the non-dominated ones in (risk, --metric) — with --axis error in\n" +
			"(1 − accuracy, --metric), where a decision metric admits group-thresholds candidates (docs/method.md\n" +
			"§13.1), and \"risk\" below reads error — and picks one by exactly\n" +
			"one requirement:\n" +
			"  --max-unfairness U  the lowest risk among those with metric ≤ U\n" +
			"  --max-risk R        the lowest metric among those with risk ≤ R\n" +
			"  --min-accuracy A    the lowest metric among those with accuracy ≥ A\n" +
			"  --min-ratio R       the lowest risk among those with dp_ratio ≥ R (--metric dp-ratio; the\n" +
			"                      four-fifths rule is R = 0.8)\n" +
			"  --knee              the point of highest trade-off (pymoo's HighTradeoff, both axes\n" +
			"                      min–max normalised over the front)\n" +
			"It prints the candidate, its metrics with their 95% intervals (a bootstrap of its test rows, re-scored\n" +
			"by its network; --ci-resamples 0 leaves them out), its network file and the fp predict command that uses it.\n" +
			"When no candidate meets the requirement it exits with an error naming the closest one; when no point\n" +
			"stands out as the knee, --knee takes the best-balanced one (the smallest larger coordinate on the\n" +
			"min–max normalised front) and says so. The table marks with ! a shown value that breaks the requirement.\n" +
			"It then says how many points of the front it picked from can be told apart from their neighbours at\n" +
			"95% (a paired bootstrap of their difference on the deciding rows where two neighbours share a split,\n" +
			"their two intervals otherwise).\n" +
			"--confidence C certifies the requirement: the candidates are tested in a fixed order along λ with\n" +
			"one-sided bootstrap bounds at level C from the rows that decide, and the pick is made among those\n" +
			"certified, so that the chance any certified candidate breaks the requirement on the population the\n" +
			"rows were drawn from is at most 1 − C (for the trained networks as they are: not after retraining,\n" +
			"nor on a shifted population). When none is certified it says so, names the closest candidate and\n" +
			"about how many deciding rows it would need, and exits with status 1 (--json prints the certificate).\n" +
			"The front and the pick are decided on the selection rows' metrics when the runs kept selection\n" +
			"rows (fp train --select-fraction) and the metrics shown are those of the test rows, which the\n" +
			"choice did not see; decided on the test rows (--decide-on test, or runs without selection rows)\n" +
			"the shown metrics also served to choose, and flatter the choice.\n" +
			"Sweeps of different datasets (see data_id in docs/training.md) are refused: pick from one dataset's runs.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "metric", Value: "ato", Usage: "unfairness metric: " + strings.Join(records.Metrics, ", ")},
			&cli.StringFlag{Name: "axis", Value: records.AxisRisk, Usage: "the front's x axis: risk (test log-loss) or error (1 − accuracy; --max-risk does not apply)"},
		}, append(ruleFlags(nil),
			&cli.Float64Flag{Name: "confidence", Usage: "certify the requirement at confidence `C` (above 0.5, e.g. 0.9): pick among the candidates whose requirement holds with probability ≥ C over the sampling of the rows that decide (docs/method.md §8.7); not with --knee"},
			&cli.BoolFlag{Name: "print-path", Usage: "print only the network file's path, e.g. net=$(fp pick runs/demo --knee --print-path)"},
			&cli.BoolFlag{Name: "allow-degenerate", Usage: "keep single-class, almost single-class, near-constant and no-better-than-constant candidates"},
			decideFlag(),
			&cli.IntFlag{Name: "split", Usage: "pick among the candidates of split `M` only"},
			ciResamplesFlag(),
			&cli.BoolFlag{Name: jsonFlag, Usage: "print JSON"},
		)...),
		Action: runPick,
	}
}

func runPick(c *cli.Context) error {
	paths, err := cliusage.ArgsAndFlags(c)
	if err != nil {
		return fmt.Errorf("pick: %w", err)
	}
	if len(paths) == 0 {
		return fmt.Errorf("pick: name at least one records file or sweep directory")
	}
	metric, err := choose.MetricOf(c.String("metric"), c.IsSet)
	if err != nil {
		return fmt.Errorf("pick: %w", err)
	}
	rules, _ := choose.RulesOf(c.IsSet, c.Float64)
	if c.Bool("print-path") && c.Bool(jsonFlag) {
		return fmt.Errorf("pick: give --print-path or --json, not both")
	}
	if len(rules) != 1 {
		return fmt.Errorf("pick: give exactly one of %s (got %d)", choose.RuleFlagNames, len(rules))
	}
	nres, err := ciResamples(c, "pick")
	if err != nil {
		return err
	}
	certifying := c.IsSet("confidence")
	if certifying && rules[0].Kind == choose.Knee {
		return fmt.Errorf("pick: --confidence certifies a stated requirement and --knee states none: give --max-unfairness, --max-risk, --min-accuracy or --min-ratio")
	}
	read, err := readSweeps(c, "pick", paths)
	if err != nil {
		return err
	}
	recs := slices.Clone(read.OK) // --split narrows these, not the overlap report's
	axis, err := choose.CheckAxis(c.String("axis"), rules[0])
	if err != nil {
		return fmt.Errorf("pick: --axis %s: %w", c.String("axis"), err)
	}
	cands, err := choose.CandidatesOn(read.All, axis, metric)
	if err != nil {
		return fmt.Errorf("pick: %w", err)
	}
	if c.IsSet("split") {
		m := c.Int("split")
		recs, cands = choose.OfSplit(recs, cands, m)
		if len(recs) == 0 {
			return fmt.Errorf("pick: --split %d: no successful candidate of split %d in %s", m, m, strings.Join(paths, ", "))
		}
	}
	decide, err := decideOn(c, "pick", recs)
	if err != nil {
		return err
	}
	if len(cands) == 0 {
		return fmt.Errorf("pick: %w", choose.NoCandidates(recs, strings.Join(paths, ", "), axis, metric))
	}
	allow := c.Bool("allow-degenerate")
	var cert *certify.Certificate
	var res *choose.Picked
	if certifying {
		var cr *certify.Result
		cr, err = certify.Pick(cands, metric, rules[0], certify.Options{Confidence: c.Float64("confidence"),
			Resamples: max(nres, intervals.DefaultResamples), Decide: decide, AllowDegenerate: allow, Axis: axis})
		if errors.Is(err, certify.ErrNotCertified) {
			if c.Bool(jsonFlag) {
				if werr := writeJSON(c.App.Writer, cr.Certificate); werr != nil {
					return werr
				}
			}
			return fmt.Errorf("pick: %s", cr.Text())
		}
		if err != nil {
			return fmt.Errorf("pick: %w", err)
		}
		cert, res = &cr.Certificate, cr.Picked
	} else {
		res, err = choose.Pick(cands, metric, rules[0], choose.Options{AllowDegenerate: allow, Decide: decide, Axis: axis})
	}
	var all *choose.LeftOutError
	if errors.As(err, &all) {
		return fmt.Errorf("pick: %s", all.In(paths, allow))
	}
	var pe *choose.PickError
	if errors.As(err, &pe) {
		noteLeftOut(c, pe.LeftOut, len(cands), allow)
	}
	if err != nil {
		return fmt.Errorf("pick: %w", err)
	}
	noteLeftOut(c, res.LeftOut, len(cands), allow)
	for _, n := range res.Notes() {
		fmt.Fprintf(c.App.ErrWriter, "fp: note: %s\n", n)
	}
	ov := readOverlapReport(c, read)
	if metric == "ato" {
		ov.Warn(c.App.ErrWriter)
	}
	var ci *intervals.CI
	var dist *intervals.Distinguishability
	if nres > 0 && !c.Bool("print-path") {
		var notes []string
		if ci, dist, notes, err = intervals.ForPick(cands, &res.Shown, res.Among, axis, metric, decide, nres); err != nil {
			return fmt.Errorf("pick: %w", err)
		}
		for _, n := range notes {
			fmt.Fprintf(c.App.ErrWriter, "fp: note: %s\n", n)
		}
	}
	if c.Bool(jsonFlag) {
		return writeJSON(c.App.Writer, struct {
			pickedCI
			runfolder.OverlapReport
			*certify.Certificate
			Distinguishable *intervals.Distinguishability `json:"distinguishable,omitempty"`
		}{pickedCI{Picked: res, CI: ci}, ov, cert, dist})
	}
	if c.Bool("print-path") {
		if n := res.PathNote(); n != "" {
			fmt.Fprintf(c.App.ErrWriter, "fp: note: %s\n", n)
		}
		_, err := fmt.Fprintln(c.App.Writer, res.Weights)
		return err
	}
	if err := choose.WriteText(c.App.Writer, res); err != nil {
		return err
	}
	if cert != nil {
		fmt.Fprintln(c.App.Writer, cert.Text())
	}
	if err := intervals.WriteText(c.App.Writer, ci, &res.Shown); err != nil {
		return err
	}
	if dist != nil {
		fmt.Fprintf(c.App.Writer, "the front it was picked from: %s\n", dist)
	}
	return choose.WritePredictHint(c.App.Writer, &res.Shown)
}

// noteLeftOut says on standard error how many of the n candidates the pick
// left out, and why.
func noteLeftOut(c *cli.Context, l choose.LeftOut, n int, allow bool) {
	if note := l.NoteAllowing(n, allow); note != "" {
		fmt.Fprintf(c.App.ErrWriter, "fp: note: %s\n", note)
	}
}

// ciResamplesFlag is the flag that sets the bootstrap resamples of the
// intervals; 0 leaves them out.
func ciResamplesFlag() cli.Flag {
	return &cli.IntFlag{Name: "ci-resamples", Value: intervals.DefaultResamples,
		Usage: "bootstrap resamples of the test rows behind each shown candidate's 95% intervals (0: no intervals)"}
}

// ciResamples is the value of --ci-resamples, checked.
func ciResamples(c *cli.Context, cmd string) (int, error) {
	n := c.Int("ci-resamples")
	if n < 0 || n == 1 {
		return 0, fmt.Errorf("%s: --ci-resamples %d: want 0 (no intervals) or at least 2", cmd, n)
	}
	return n, nil
}

// pickedCI is fp pick's outcome with the chosen candidate's intervals; its
// JSON form carries the keys of both (CI's keys are absent when CI is nil:
// intervals not asked for).
type pickedCI struct {
	*choose.Picked
	*intervals.CI
}
