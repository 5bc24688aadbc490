package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/choose"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

func init() { register(pickCommand()) }

func pickCommand() *cli.Command {
	return &cli.Command{
		Name:      "pick",
		Usage:     "choose one network of the pooled front by a stated requirement",
		ArgsUsage: "FILE_OR_DIR...",
		Description: "Pools the successful, non-collapsed candidates of the named sweeps, keeps the non-dominated\n" +
			"ones in (risk, --metric) and picks one by exactly one requirement:\n" +
			"  --max-unfairness U  the lowest risk among those with metric ≤ U\n" +
			"  --max-risk R        the lowest metric among those with risk ≤ R\n" +
			"  --min-accuracy A    the lowest metric among those with accuracy ≥ A\n" +
			"  --knee              the point of highest trade-off (pymoo's HighTradeoff, both axes\n" +
			"                      min–max normalised over the front)\n" +
			"It prints the candidate, its metrics, its network file and the fp predict command that uses it.\n" +
			"When no candidate meets the requirement it exits with an error naming the closest one.\n" +
			"The front and the pick are decided on the selection rows' metrics when the runs kept selection\n" +
			"rows (fp train --select-fraction) and the metrics shown are those of the test rows, which the\n" +
			"choice did not see; decided on the test rows (--decide-on test, or runs without selection rows)\n" +
			"the shown metrics also served to choose, and flatter the choice.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "metric", Value: "ato", Usage: "unfairness metric: " + strings.Join(records.Metrics, ", ")},
			&cli.Float64Flag{Name: "max-unfairness", Usage: "highest acceptable value of --metric"},
			&cli.Float64Flag{Name: "max-risk", Usage: "highest acceptable risk"},
			&cli.Float64Flag{Name: "min-accuracy", Usage: "lowest acceptable accuracy"},
			&cli.BoolFlag{Name: "knee", Usage: "the front's point of highest trade-off"},
			decideFlag(),
			&cli.IntFlag{Name: "split", Usage: "pick among the candidates of split `M` only"},
			&cli.BoolFlag{Name: jsonFlag, Usage: "print JSON"},
		},
		Action: runPick,
	}
}

// pickRules are the requirement flags and the rule each sets.
var pickRules = []struct {
	flag string
	kind choose.Kind
}{{"max-unfairness", choose.MaxUnfairness}, {"max-risk", choose.MaxRisk}, {"min-accuracy", choose.MinAccuracy}, {"knee", choose.Knee}}

func runPick(c *cli.Context) error {
	paths, err := argsAndFlags(c)
	if err != nil {
		return fmt.Errorf("pick: %w", err)
	}
	if len(paths) == 0 {
		return fmt.Errorf("pick: name at least one records file or sweep directory")
	}
	metric := c.String("metric")
	if !slices.Contains(records.Metrics, metric) {
		return fmt.Errorf("pick: --metric %q: want one of %s", metric, strings.Join(records.Metrics, ", "))
	}
	var rules []choose.Rule
	for _, r := range pickRules {
		if c.IsSet(r.flag) {
			rules = append(rules, choose.Rule{Kind: r.kind, Bound: c.Float64(r.flag)})
		}
	}
	if len(rules) != 1 {
		return fmt.Errorf("pick: give exactly one of --max-unfairness, --max-risk, --min-accuracy, --knee (got %d)", len(rules))
	}
	// ReadAll checks what fp front checks: readable files, one configuration per folder.
	recs, err := readCandidates(c, "pick", paths)
	if err != nil {
		return err
	}
	cands, err := choose.ReadCandidates(paths)
	if err != nil {
		return fmt.Errorf("pick: %w", err)
	}
	if c.IsSet("split") {
		m := c.Int("split")
		recs = slices.DeleteFunc(recs, func(r records.Record) bool { return r.Split != m })
		cands = slices.DeleteFunc(cands, func(k choose.Candidate) bool { return k.Record.Split != m })
		if len(recs) == 0 {
			return fmt.Errorf("pick: --split %d: no successful candidate of split %d in %s", m, m, strings.Join(paths, ", "))
		}
	}
	decide, err := decideOn(c, "pick", recs)
	if err != nil {
		return err
	}
	if len(cands) == 0 {
		return fmt.Errorf("pick: every successful candidate in %s is collapsed (a constant predictor)", strings.Join(paths, ", "))
	}
	res, err := choose.PickOn(cands, metric, rules[0], decide)
	if err != nil {
		return fmt.Errorf("pick: %w", err)
	}
	if res.Basis == "test" {
		fmt.Fprintf(c.App.ErrWriter, "fp: note: the candidate was chosen on the test rows its metrics come from, "+
			"so they are optimistic; check it on fresh data (fp predict, then fp audit)\n")
	}
	if c.Bool(jsonFlag) {
		return writeJSON(c.App.Writer, res)
	}
	if err := choose.WriteText(c.App.Writer, res); err != nil {
		return err
	}
	data := runfolder.DataFile(res.Run)
	if data == "" {
		data = "DATA.csv"
	}
	_, err = fmt.Fprintf(c.App.Writer, "score new rows with:\n  fp predict --model %s --data %s --out scores.csv\n", shellQuote(res.Weights), shellQuote(data))
	return err
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == '+' || r == '=' || r == ':' ||
			(r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
