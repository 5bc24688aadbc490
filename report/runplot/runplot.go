package runplot

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/report"
	"github.com/fpareto/fp/runfolder"
)

// Result is what a figure shows (fp plot's --json output).
type Result struct {
	Out    string         `json:"out"`
	Metric string         `json:"metric,omitempty"`
	Panels []report.Panel `json:"panels,omitempty"`
	// Split and Lambdas are those of a distribution figure.
	Split   *int      `json:"split,omitempty"`
	Lambdas []float64 `json:"lambdas,omitempty"`
	// Failed counts the failed candidates left out.
	Failed int `json:"failed"`
	// DecidedOn names the rows whose metrics decided a front figure's
	// non-dominated candidates: "test" or "selection".
	DecidedOn string `json:"decided_on,omitempty"`
}

// FrontPlot says what DrawFront draws.
type FrontPlot struct {
	Metric   string // ato, dp, eo or eopp
	By       string // grouping, e.g. "method,penalty"
	Out      string // "" for front-METRIC.png beside the first records path
	FreeAxes bool
	Cols     int
	LogY     bool // log-scaled unfairness axis
	Zoom     bool // leave out collapsed candidates
	// Decide is --decide-on: "selection", "test" or "" for the default
	// (records.ResolveDecide).
	Decide string
}

// DrawFront draws the front figure of the records at paths (records files
// or run folders), one panel per group of o.By, the panels in the order of
// the paths, then by name. Records of several datasets are refused unless
// o.By includes the dataset (records.OneDataPerGroup), so that no panel
// pools them. Warnings (torn lines, failed candidates left
// out) go to warn.
func DrawFront(paths []string, o FrontPlot, warn io.Writer) (*Result, error) {
	if !slices.Contains(records.Metrics, o.Metric) {
		return nil, fmt.Errorf("plot: --metric %q: want one of %s", o.Metric, strings.Join(records.Metrics, ", "))
	}
	by, err := records.ParseGrouping(o.By)
	if err != nil {
		return nil, fmt.Errorf("plot: --by: %w", err)
	}
	// Panels follow the order of the paths given (so the user chooses it),
	// then the group names.
	var recs []records.Record
	first := map[string]int{}
	failed := 0
	for i, p := range paths {
		rs, f, err := readSucceeded([]string{p}, warn)
		if err != nil {
			return nil, fmt.Errorf("plot: %w", err)
		}
		failed += f
		for j := range rs {
			k := by.Key(&rs[j])
			if _, seen := first[k]; !seen {
				first[k] = i
			}
		}
		recs = append(recs, rs...)
	}
	if err := check(paths, len(recs), failed, warn); err != nil {
		return nil, err
	}
	escape := "--by dataset," + o.By
	if by.Has("dataset") {
		escape = ""
	}
	data, err := records.OneDataPerGroup(recs, by, escape)
	if err != nil {
		return nil, fmt.Errorf("plot: %w", err)
	}
	// Panels are named by the dataset's name: two datasets of one name
	// would share them.
	if err := records.NamesApart(data); err != nil {
		return nil, fmt.Errorf("plot: %w", err)
	}
	decide, err := records.ResolveDecide(o.Decide, recs)
	if err != nil {
		return nil, fmt.Errorf("plot: --decide-on: %w", err)
	}
	out := o.Out
	if out == "" {
		out = Beside(paths[0], "front-"+o.Metric+".png")
	}
	panels, err := report.SaveRecordsFront(out, recs, report.RecordsFront{
		Metric: o.Metric, By: by, Order: first, FreeAxes: o.FreeAxes, Cols: o.Cols, LogY: o.LogY, Zoom: o.Zoom,
		Note: ATONote(recs, o.Metric), Decide: decide})
	if err != nil {
		return nil, fmt.Errorf("plot: %w", err)
	}
	return &Result{Out: out, Metric: o.Metric, Panels: panels, Failed: failed, DecidedOn: decide.String()}, nil
}

// RunFront draws the front figure of a finished run (its folder and its
// records) into the folder, one panel per method and penalty, the fronts
// decided on the metrics d names, and returns the file written.
func RunFront(dir string, recs []records.Record, metric string, d records.Decide) (string, error) {
	ok, _ := records.Succeeded(recs)
	if len(ok) == 0 {
		return "", fmt.Errorf("plot: no trained candidates in %s", dir)
	}
	out := filepath.Join(dir, "front-"+metric+".png")
	if _, err := report.SaveRecordsFront(out, ok, report.RecordsFront{Metric: metric, By: records.Grouping{"method", "penalty"},
		Note: ATONote(ok, metric), Decide: d}); err != nil {
		return "", fmt.Errorf("plot: %w", err)
	}
	return out, nil
}

// ATONote is the line a front figure of ATO carries under its title when
// some of recs' splits have an unreliable ATO (records.Record.ATOReliable
// false), counting splits by run and index; "" otherwise, and for the
// other metrics. It is short, to fit a one-panel figure: the commands'
// warnings say why and what to do.
func ATONote(recs []records.Record, metric string) string {
	if metric != "ato" {
		return ""
	}
	type split struct {
		run string
		m   int
	}
	all, bad := map[split]bool{}, map[split]bool{}
	for i := range recs {
		k := split{recs[i].Source, recs[i].Split}
		all[k] = true
		if recs[i].ATOUnreliable() {
			bad[k] = true
		}
	}
	if len(bad) == 0 {
		return ""
	}
	return fmt.Sprintf("ATO unreliable on %d of %d splits: poor overlap", len(bad), len(all))
}

// Dist says what DrawDist draws.
type Dist struct {
	Split    int
	SplitSet bool   // false: the lowest split present
	Lambdas  string // "" for four values spread over those present
	Out      string // "" for dist-split-M.png in the run folder
	Cols     int
}

// DrawDist draws the distribution figure of one run (a folder, or a records
// file inside one), recomputing the predictions from its stored networks.
// Warnings go to warn.
func DrawDist(path string, o Dist, warn io.Writer) (*Result, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("plot --dist: %w", err)
	}
	dir := path
	if !st.IsDir() {
		dir = filepath.Dir(path)
	}
	recs, failed, err := readSucceeded([]string{path}, warn)
	if err != nil {
		return nil, fmt.Errorf("plot: %w", err)
	}
	if err := check([]string{path}, len(recs), failed, warn); err != nil {
		return nil, err
	}
	split := -1
	if o.SplitSet {
		split = o.Split
	}
	choice, err := report.ChooseDist(recs, split, o.Lambdas)
	if err != nil {
		return nil, fmt.Errorf("plot --dist: %s: %w", path, err)
	}
	split = choice.Split
	var panels []report.Dist
	var lambdas []float64
	for _, r := range choice.Candidates {
		if r.Weights == "" {
			return nil, fmt.Errorf("plot --dist: candidate %s in %s has no stored network", r.Key(), path)
		}
		if _, err := os.Stat(filepath.Join(dir, r.Weights)); err != nil {
			return nil, fmt.Errorf("plot --dist: network of candidate %s is missing (%w); --dist recomputes predictions from the networks fp train stores beside the records", r.Key(), err)
		}
		p, err := runfolder.LoadPredictions(dir, r)
		if err != nil {
			return nil, fmt.Errorf("plot --dist: predictions of candidate %s: %w", r.Key(), err)
		}
		panel := report.DistPanel(r, p.P, p.Y, p.A)
		if len(p.Levels) > 2 {
			// One histogram per label and group, the groups named.
			panel.Levels, panel.A = p.Levels, make([]float64, len(p.Groups))
			for i, g := range p.Groups {
				panel.A[i] = float64(g)
			}
		}
		panels = append(panels, panel)
		lambdas = append(lambdas, r.Lambda)
	}
	res := &Result{Out: o.Out, Split: &split, Lambdas: lambdas, Failed: failed}
	if res.Out == "" {
		res.Out = filepath.Join(dir, fmt.Sprintf("dist-split-%d.png", split))
	}
	if err := report.SaveDist(res.Out, panels, report.DistOptions{Title: choice.Title, Cols: o.Cols}); err != nil {
		return nil, fmt.Errorf("plot --dist: %w", err)
	}
	return res, nil
}

// check reports failed candidates left out to warn and refuses to draw
// nothing.
func check(paths []string, ok, failed int, warn io.Writer) error {
	if failed > 0 {
		fmt.Fprintf(warn, "fp: %d failed candidates left out\n", failed)
	}
	if ok == 0 {
		return fmt.Errorf("plot: no trained candidates in %s (%d failed)", strings.Join(paths, ", "), failed)
	}
	return nil
}

// Beside returns the path of a file named name in the run folder path, or
// beside the records file path.
func Beside(path, name string) string {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return filepath.Join(path, name)
	}
	return filepath.Join(filepath.Dir(path), name)
}

// readSucceeded reads the records of paths, reports torn lines to warn, and
// returns the candidates that trained to the end and the number of failed
// ones.
func readSucceeded(paths []string, warn io.Writer) ([]records.Record, int, error) {
	all, warnings, err := runfolder.ReadAll(paths)
	if err != nil {
		return nil, 0, err
	}
	for _, w := range warnings {
		fmt.Fprintf(warn, "fp: warning: %v\n", w)
	}
	ok, failed := records.Succeeded(all)
	return ok, failed, nil
}

// CheckFlags refuses the flags of fp plot given (isSet) where they do not
// apply: those of the front (--metric, --by, --free-axes, --log, --zoom,
// --decide-on) with --dist, and those of --dist (--split, --lambdas)
// without it.
func CheckFlags(dist bool, isSet func(flag string) bool) error {
	if dist {
		for _, f := range []string{"metric", "by", "free-axes", "log", "zoom", "decide-on"} {
			if isSet(f) {
				return fmt.Errorf("--%s does not apply to --dist", f)
			}
		}
		return nil
	}
	for _, f := range []string{"split", "lambdas"} {
		if isSet(f) {
			return fmt.Errorf("--%s applies only to --dist", f)
		}
	}
	return nil
}
