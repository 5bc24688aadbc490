package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/fairness/audit"
	"github.com/fpareto/fp/propensity"
)

func init() { register(auditCommand()) }

func auditCommand() *cli.Command {
	return &cli.Command{
		Name:      "audit",
		Usage:     "the fairness metrics of any file of predictions",
		UsageText: "fp audit --data FILE (--score COL | --logit COL | --decision COL) --label COL --group COL[,COL…] [--threshold T] [--propensity COL] [--json]",
		Description: "Reads a CSV file with a header row (a Parquet file when the name ends in .parquet; with\n" +
			"--data -, a CSV from standard input) and one prediction per row: a score (a probability in\n" +
			"[0, 1]) or a logit, the true label and the sensitive group (each 0/1 or two distinct values,\n" +
			"coded as for fp train: 1, true or yes is 1, else the later value in sorted order). Prints risk,\n" +
			"accuracy, dp, eo and eopp (and ato when a propensity column P(group=1 | x) is given: overlap\n" +
			"weights from it, as in the records), the decision metrics dp_diff, dp_ratio, eo_diff and eopp_diff\n" +
			"(Fairlearn's demographic_parity_difference and _ratio, equalized_odds_difference and the\n" +
			"true-positive-rate gap), and per group the count, base rate P(y=1), mean score, and the accuracy,\n" +
			"selection rate, TPR and FPR of its decisions (score ≥ --threshold). --decision COL reads each row's\n" +
			"probability of a positive decision P(ŷ=1) instead, as a randomized classifier (Fairlearn's\n" +
			"ExponentiatedGradient, ThresholdOptimizer) gives it: accuracy and the decision metrics are then\n" +
			"expectations over the randomization; given alone it is the score too. Probabilities within 1e-12\n" +
			"of [0, 1] (the rounding of such mixtures) are clipped. On the output of fp predict --logit\n" +
			"--with-propensity --keep-coded, --logit logit --label y_coded --group a_coded --propensity\n" +
			"propensity measures exactly what the records measure.\n\n" +
			"More than two groups: when --group names a column of more than two values, or several columns\n" +
			"separated by commas (their intersection: each combination of values present is a group, named\n" +
			"\"v1 × v2\", in sorted order), dp, eo and eopp are the mean-variance indices over every group and\n" +
			"the per-group rows cover every group; groups of fewer than 30 rows are marked. When the file has\n" +
			"columns propensity_<group> (one per group, P(group | x), summing to 1 on each row), ato is the\n" +
			"largest difference between the groups' means under the generalised overlap weights\n" +
			"(docs/method.md §7). For a network of more than two groups, fp predict --logit --with-propensity\n" +
			"--keep-coded writes them with group_coded, the row's group as training formed it: --logit logit\n" +
			"--label y_coded --group group_coded measures what the records measure.\n\n" +
			"With propensities, fp audit also prints how the ato's overlap weights (floored as fp's own are)\n" +
			"spread within each group, its effective sample size and the largest share of its weight on one\n" +
			"row, and warns when the ato is unreliable by the rule fp train applies to the rows it measures\n" +
			"the ATO on (docs/method.md §4.3); --json carries overlap, ato_reliable and ato_unreliable_reason.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "data", Required: true, Usage: "the predictions `FILE`: CSV with a header row, or Parquet when the name ends in .parquet; - for standard input (CSV)"},
			&cli.StringFlag{Name: "score", Usage: "the `COLUMN` of predicted probabilities P(y=1)"},
			&cli.StringFlag{Name: "logit", Usage: "instead of --score: the `COLUMN` of logits z, P(y=1) = σ(z); the risk is then exact, as in the records"},
			&cli.StringFlag{Name: "label", Required: true, Usage: "the `COLUMN` of true labels"},
			&cli.StringFlag{Name: "group", Required: true, Usage: "the `COLUMN` of the sensitive attribute; several, separated by commas, for their intersection"},
			&cli.StringFlag{Name: "decision", Usage: "the `COLUMN` of decision probabilities P(ŷ=1) of a randomized (or 0/1 of a deterministic) classifier: accuracy and the decision metrics are taken from it"},
			&cli.Float64Flag{Name: "threshold", Value: fairness.DefaultThreshold, Usage: "a row is selected (ŷ = 1) when its score is ≥ `T`; as fp train --threshold (unused with --decision)"},
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
	if c.IsSet("score") && c.IsSet("logit") || !c.IsSet("score") && !c.IsSet("logit") && !c.IsSet("decision") {
		return fmt.Errorf("audit: give --score or --logit (one of them), or --decision")
	}
	if t := c.Float64("threshold"); !(t > 0 && t <= 1) {
		return fmt.Errorf("audit: --threshold %g: want a probability in (0, 1]", t)
	}
	if c.IsSet("threshold") && c.IsSet("decision") {
		return fmt.Errorf("audit: --threshold turns scores into decisions; with --decision the decisions are given")
	}
	opt := audit.Options{Threshold: c.Float64("threshold")}
	groups := strings.Split(c.String("group"), ",")
	data := c.String("data")
	// Standard input is read once, and a single grouping column may need
	// two readings (two values, else R groups).
	var stdin []byte
	if data == "-" {
		var err error
		if stdin, err = io.ReadAll(c.App.Reader); err != nil {
			return fmt.Errorf("audit: reading standard input: %w", err)
		}
	}
	cols := datasets.PredictionColumns{Score: c.String("score"), Logit: c.String("logit"), Label: c.String("label"),
		Propensity: c.String("propensity"), Decision: c.String("decision")}
	in, grouped, err := audit.Read(data, stdin, cols, groups)
	if pe := (*datasets.ParseError)(nil); errors.As(err, &pe) {
		return err // it names the file first
	} else if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	if grouped != nil {
		return auditGroups(c, grouped, opt)
	}
	res, err := audit.Compute(in, opt)
	if err != nil {
		return err
	}
	var ov propensity.Judgement
	if in.E != nil {
		if ov, err = propensity.JudgeTwoGroups(in.E, in.A, [2]string{in.Group.Negative, in.Group.Positive}); err != nil {
			return fmt.Errorf("audit %s: %w", in.File, err)
		}
	}
	if c.Bool(jsonFlag) {
		return writeJSON(c.App.Writer, struct {
			*audit.Result
			propensity.Judgement
		}{res, ov})
	}
	if err := audit.WriteText(c.App.Writer, in, res); err != nil {
		return err
	}
	ov.WriteText(c.App.Writer)
	return nil
}

// auditGroups audits in R groups: the groups are the values of the
// grouping columns, or their combinations.
func auditGroups(c *cli.Context, in *datasets.GroupedPredictions, opt audit.Options) error {
	res, err := audit.ComputeGroups(in, opt)
	if err != nil {
		return err
	}
	var ov propensity.Judgement
	if in.E != nil {
		if ov, err = propensity.Judge(in.E, in.Groups, in.G); err != nil {
			return fmt.Errorf("audit %s: %w", in.File, err)
		}
	}
	if c.Bool(jsonFlag) {
		return writeJSON(c.App.Writer, struct {
			*audit.GroupResult
			propensity.Judgement
		}{res, ov})
	}
	if err := audit.WriteGroupsText(c.App.Writer, in, res); err != nil {
		return err
	}
	ov.WriteText(c.App.Writer)
	return nil
}
