package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/choose"
	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/records"
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
			"The metrics are those of the test rows, which also served to choose: they flatter the choice.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "metric", Value: "ato", Usage: "unfairness metric: " + strings.Join(records.Metrics, ", ")},
			&cli.Float64Flag{Name: "max-unfairness", Usage: "highest acceptable value of --metric"},
			&cli.Float64Flag{Name: "max-risk", Usage: "highest acceptable risk"},
			&cli.Float64Flag{Name: "min-accuracy", Usage: "lowest acceptable accuracy"},
			&cli.BoolFlag{Name: "knee", Usage: "the front's point of highest trade-off"},
			&cli.BoolFlag{Name: jsonFlag, Usage: "print JSON"},
		},
		Action: runPick,
	}
}

// pickCandidate is a record with the network path resolved from the working
// directory.
type pickCandidate struct {
	rec     records.Record
	weights string
	dir     string // the folder of its records file
}

// pickBasis are the numbers a pick is made on. Records hold test metrics
// only, so picking uses them; when records carry metrics of a validation
// part, pickBasisOf is where they take over, with test metrics shown beside.
type pickBasis struct {
	basis                  string // "test"
	risk, unfair, accuracy float64
}

func pickBasisOf(c *pickCandidate, metric string) pickBasis {
	v, _ := c.rec.Metric(metric)
	return pickBasis{basis: "test", risk: c.rec.Risk, unfair: v, accuracy: c.rec.Accuracy}
}

// pickResult is fp pick's JSON output.
type pickResult struct {
	Run      string  `json:"run"`
	Split    int     `json:"split"`
	Lambda   float64 `json:"lambda"`
	Method   string  `json:"method"`
	Penalty  string  `json:"penalty"`
	Risk     float64 `json:"risk"`
	Accuracy float64 `json:"accuracy"`
	ATO      float64 `json:"ato"`
	DP       float64 `json:"dp"`
	EO       float64 `json:"eo"`
	EOpp     float64 `json:"eopp"`
	Weights  string  `json:"weights"`
}

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
	var reqs []string
	for _, f := range []string{"max-unfairness", "max-risk", "min-accuracy", "knee"} {
		if c.IsSet(f) {
			reqs = append(reqs, "--"+f)
		}
	}
	if len(reqs) != 1 {
		return fmt.Errorf("pick: give exactly one of --max-unfairness, --max-risk, --min-accuracy, --knee (got %d)", len(reqs))
	}
	// ReadAll checks what fp front checks: readable files, one configuration per folder.
	if _, err := readCandidates(c, "pick", paths); err != nil {
		return err
	}
	cands, err := readPickCandidates(paths)
	if err != nil {
		return fmt.Errorf("pick: %w", err)
	}
	if len(cands) == 0 {
		return fmt.Errorf("pick: every successful candidate in %s is collapsed (a constant predictor)", strings.Join(paths, ", "))
	}
	pts := make([]choose.Point, len(cands))
	for i := range cands {
		b := pickBasisOf(&cands[i], metric)
		pts[i] = choose.Point{Risk: b.risk, Unfairness: b.unfair, Accuracy: b.accuracy}
	}
	idx := choose.Front(pts)
	front := make([]choose.Point, len(idx))
	for k, i := range idx {
		front[k] = pts[i]
	}
	rule := choose.Rule{Kind: choose.Knee}
	switch {
	case c.IsSet("max-unfairness"):
		rule = choose.Rule{Kind: choose.MaxUnfairness, Bound: c.Float64("max-unfairness")}
	case c.IsSet("max-risk"):
		rule = choose.Rule{Kind: choose.MaxRisk, Bound: c.Float64("max-risk")}
	case c.IsSet("min-accuracy"):
		rule = choose.Rule{Kind: choose.MinAccuracy, Bound: c.Float64("min-accuracy")}
	}
	k, err := choose.Choose(front, rule)
	var none *choose.NoneError
	if errors.As(err, &none) {
		why := strings.Replace(none.Error(), "unfairness", metric, 1)
		if none.Closest < 0 {
			return fmt.Errorf("pick: %s", why)
		}
		closest := &cands[idx[none.Closest]]
		return fmt.Errorf("pick: %s; the closest is %s (%s)", why, describeCandidate(closest), metricsLine(closest, metric))
	}
	if err != nil {
		return fmt.Errorf("pick: %w", err)
	}
	chosen := &cands[idx[k]]
	res := pickResult{Run: chosen.dir, Split: chosen.rec.Split, Lambda: chosen.rec.Lambda, Method: chosen.rec.Method,
		Penalty: chosen.rec.Penalty, Risk: chosen.rec.Risk, Accuracy: chosen.rec.Accuracy, ATO: chosen.rec.ATO,
		DP: chosen.rec.DP, EO: chosen.rec.EO, EOpp: chosen.rec.EOpp, Weights: chosen.weights}
	if pickBasisOf(chosen, metric).basis == "test" {
		fmt.Fprintf(c.App.ErrWriter, "fp: note: the candidate was chosen on the test rows its metrics come from, "+
			"so they are optimistic; check it on fresh data (fp predict, then fp audit)\n")
	}
	if c.Bool(jsonFlag) {
		return writeJSON(c.App.Writer, res)
	}
	return printPick(c.App.Writer, chosen, metric, len(front), len(cands))
}

// readPickCandidates reads the successful, non-collapsed candidates of
// paths, resolving each network file against its records file's folder.
func readPickCandidates(paths []string) ([]pickCandidate, error) {
	var out []pickCandidate
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		files := []string{p}
		if st.IsDir() {
			top, _ := filepath.Glob(filepath.Join(p, "*"+records.Ext))
			sub, _ := filepath.Glob(filepath.Join(p, "*", "*"+records.Ext))
			files = append(top, sub...)
		}
		for _, f := range files {
			recs, err := records.Read(f)
			var torn *records.TornLineError
			if err != nil && !errors.As(err, &torn) {
				return nil, err
			}
			for _, r := range recs {
				if !r.OK() || r.Collapsed || r.Weights == "" {
					continue
				}
				dir := filepath.Dir(f)
				out = append(out, pickCandidate{rec: r, dir: dir, weights: filepath.Join(dir, r.Weights)})
			}
		}
	}
	return out, nil
}

func describeCandidate(k *pickCandidate) string {
	pen := k.rec.Penalty
	if pen == "" {
		pen = "-"
	}
	return fmt.Sprintf("%s/%s split %d λ = %g in %s", k.rec.Method, pen, k.rec.Split, k.rec.Lambda, k.dir)
}

func metricsLine(k *pickCandidate, metric string) string {
	v, _ := k.rec.Metric(metric)
	return fmt.Sprintf("risk %.6g, accuracy %.6g, %s %.6g", k.rec.Risk, k.rec.Accuracy, metric, v)
}

func printPick(w io.Writer, k *pickCandidate, metric string, nFront, n int) error {
	r := &k.rec
	fmt.Fprintf(w, "picked from the %d non-dominated of %d candidates (risk vs %s, chosen on %s metrics; test metrics shown):\n",
		nFront, n, metric, pickBasisOf(k, metric).basis)
	t := newTable(w)
	fmt.Fprintln(t, "run\tmethod\tpenalty\tsplit\tλ\trisk\taccuracy\tato\tdp\teo\teopp")
	fmt.Fprintf(t, "%s\t%s\t%s\t%d\t%g\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\n", k.dir, r.Method, r.Penalty, r.Split, r.Lambda,
		r.Risk, r.Accuracy, r.ATO, r.DP, r.EO, r.EOpp)
	if err := t.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "network: %s\n", k.weights)
	fmt.Fprintf(w, "score new rows with:\n  fp predict --model %s --data %s --out scores.csv\n", shellQuote(k.weights), shellQuote(dataHint(k.dir)))
	return nil
}

// dataHint names the file a candidate's network reads: the run's CSV, or
// the built-in dataset's original file.
func dataHint(dir string) string {
	cfg, err := experiments.ReadConfig(dir)
	switch {
	case err != nil:
		return "DATA.csv"
	case cfg.CSV != "":
		return cfg.CSV
	}
	if f := datasets.OriginalFile(cfg.Dataset); f != "" {
		return f
	}
	return "DATA.csv"
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
