package htmlreport

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/fpareto/fp/choose"
	"github.com/fpareto/fp/compare"
	"github.com/fpareto/fp/intervals"
	"github.com/fpareto/fp/propensity"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// Options control what Build puts on the page. The zero value is usable.
type Options struct {
	// Title heads the page; default "fp report: " and the datasets.
	Title string
	// Bins is the number of histogram bins on [0, 1]; default 20.
	Bins int
	// Predict returns the command that applies the network at path (as the
	// report names it) of the candidate rec to new data, given its run's
	// configuration (nil when the run has no config.json). nil, or ""
	// returned, shows the command as not available.
	Predict func(network string, rec *records.Record, cfg *runfolder.Config) string
	// Defaults are fp train's defaults as its flags state them
	// (experiments.CommandDefaults, ρ and the λ draw included): the
	// command that reproduces a run from its config.json (TrainCommand)
	// names the settings that differ from them. nil leaves that command
	// out, as it could not say which settings fp train fills in.
	Defaults *runfolder.Config
	// Resamples is the number of bootstrap resamples of the paired
	// comparisons; default 10,000, as fp compare.
	Resamples int
	// CIResamples, when positive, gives every non-dominated candidate 95%
	// intervals from that many bootstrap resamples of its test rows
	// (package intervals), drawn as error bars; 0 draws none. Only the
	// non-dominated candidates get them, which keeps the build fast.
	CIResamples int
	// ByDataset accepts runs of several datasets (records.ByData), each
	// shown in panels, a front and a comparison of its own. Without it
	// they are refused, as fp compare refuses them.
	ByDataset bool
	// Decide is fp report's --decide-on: "selection", "test", or "" for
	// the default (records.ResolveDecide over every successful record).
	Decide string
	// FrontRule is fp report's --front-rule, the rule that scales the
	// comparison's hypervolumes (pareto.Rule); "" is pareto.DefaultRule.
	// Records that lack what the rule needs are compared under
	// pareto.RuleMinMax when the rule was left to its default, with a
	// warning on the page, and refused (a warning in place of the
	// comparison) when it was named.
	FrontRule string
	// Rule is the requirement whose pick the page marks on every front:
	// the candidate fp pick would return by it (choose.Pick, decided as
	// the page decides); the zero value marks the knee. A minimum ratio
	// marks the front of dp-ratio only. RuleFlags is the rule as fp pick
	// takes it ("--max-risk 0.62"), for the command the page shows.
	Rule      choose.Rule
	RuleFlags string
}

// palette is the Okabe–Ito palette, distinguishable with the common forms
// of colour-blindness; yellow comes last as it is faint on white.
var palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"}

// metricNames are the metrics as printed.
var metricNames = func() map[string]string {
	m := map[string]string{}
	for _, name := range records.Metrics {
		m[name] = records.MetricLabel(name)
	}
	return m
}()

// Build reads the records of every path (a run folder as written by fp
// train, or a records file inside one) and assembles the page. Score
// distributions are recomputed from the stored networks of the candidates
// on a front; missing networks or configuration are noted on the page, not
// errors. Unreadable records are errors.
func Build(paths []string, opt Options) (*Page, error) {
	if len(paths) == 0 {
		return nil, errors.New("report: no run folder or records file given")
	}
	if opt.Bins <= 0 {
		opt.Bins = 20
	}
	p := &Page{Title: opt.Title, Data: Data{Metrics: records.Metrics, MetricNames: metricNames, Bins: opt.Bins,
		Candidates: []Candidate{}}}
	groups, datasets, configs := map[string]int{}, map[string]int{}, map[string]bool{}
	var sources []*source
	var noConfig, noNetworks []string
	var read [][]records.Record
	for _, path := range paths {
		all, warns, err := runfolder.ReadAll([]string{path})
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		for _, w := range warns {
			p.Warnings = append(p.Warnings, w.Error())
		}
		if len(all) == 0 {
			return nil, fmt.Errorf("report: no candidates in %s", path)
		}
		read = append(read, all)
	}
	var pooled []records.Record
	for _, all := range read {
		pooled = append(pooled, all...)
	}
	p.ATOWarnings = atoBanners(paths, pooled)
	// The page shows the metrics every record carries: records written
	// before the decision metrics have the score metrics only.
	p.Data.Metrics = records.MetricsOf(pooled)
	by := records.Grouping{records.DefaultGrouping}
	if opt.ByDataset {
		by = records.Grouping{"dataset", records.DefaultGrouping}
	}
	data, err := records.OneDataPerGroup(pooled, by, "--by dataset")
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	datasetOf := map[string]string{} // recordID → its dataset's label
	for _, d := range data {
		for i := range d.Records {
			datasetOf[recordID(&d.Records[i])] = d.Label
		}
	}
	datasetLabel := func(r *records.Record) string { return datasetOf[recordID(r)] }
	labels := runLabels(data)
	var succeeded []records.Record
	for _, all := range read {
		ok, _ := records.Succeeded(all)
		succeeded = append(succeeded, ok...)
	}
	// The decision metrics are shown when every candidate carries them,
	// each also in its (error, decision metric) plane, where every family
	// competes (group thresholds included, records.Record.InPlane).
	p.Data.Metrics = records.MetricsOf(succeeded)
	for _, m := range p.Data.Metrics {
		if records.IsDecisionMetric(m) {
			p.DecisionMetrics = append(p.DecisionMetrics, m)
		}
	}
	if len(p.DecisionMetrics) == 0 {
		p.DecisionNote = noDecisionNote(paths, read)
	}
	decide, err := records.ResolveDecide(opt.Decide, succeeded)
	if err != nil {
		return nil, fmt.Errorf("report: --decide-on: %w", err)
	}
	p.DecidedOn = decide.String()
	if decide.Selects() {
		p.Data.DecidedOn = p.DecidedOn
	}
	for ri, path := range paths {
		st, err := os.Stat(path)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		dir := path
		if !st.IsDir() {
			dir = filepath.Dir(path)
		}
		all := read[ri]
		run := Run{Path: path, Dataset: datasetLabel(&all[0]), Method: labels.of(&all[0]), Config: all[0].Config, Networks: true}
		invs, err := runfolder.ReadInvocations(dir)
		if err != nil {
			p.Warnings = append(p.Warnings, err.Error())
		}
		run.WallSeconds = runfolder.WallTime(invs).Seconds()
		if len(invs) > 0 {
			for _, w := range invs[len(invs)-1].ColumnWarnings {
				if !slices.Contains(p.ColumnWarnings, w) {
					p.ColumnWarnings = append(p.ColumnWarnings, w)
				}
			}
		}
		run.Commands = typedCommands(invs)
		if cfg, err := runfolder.ReadConfig(dir); err != nil {
			if len(run.Commands) == 0 {
				noConfig = append(noConfig, path)
			}
		} else if opt.Defaults != nil {
			run.Command = TrainCommand(cfg, *opt.Defaults, dir)
		}
		src := &source{dir: dir}
		consts := map[int]bool{}
		for i := range all {
			r := &all[i]
			configs[r.Config] = true
			index(datasets, datasetLabel(r)) // named even when all its candidates failed
			if !consts[r.Split] {
				consts[r.Split] = true
				p.Constants = append(p.Constants, SplitConstants{Run: ri, Split: r.Split, RMin: r.RMin, RMax: r.RMax, UMin: r.UMin, UMax: r.UMax})
			}
			if !r.OK() {
				run.Failed++
				continue
			}
			run.Done++
			run.TrainSeconds += r.TrainSeconds
			if r.Conditioned {
				run.Conditioned = true
			}
			if r.EvalOnly {
				run.EvalOnly++
			}
			c := Candidate{ID: len(p.Data.Candidates), Run: ri, Split: r.Split, Lambda: Num(r.Lambda),
				Risk: Num(r.Risk), Acc: Num(r.Accuracy), Collapsed: r.Collapsed, SingleClass: r.SingleClass,
				NoBetter: r.NoBetterThanConstant(), UsesSensitive: r.UsesSensitive, BaseProbability: r.ProbabilityIsBase()}
			if r.HasOverlap() {
				poor, _ := recordOverlap(r).Poor()
				c.PoorOverlap = &poor
			}
			if r.ATOUnreliable() {
				c.ATOUnreliable = r.ATOUnreliableReason
			}
			if r.Collapsed {
				run.Collapsed++
			}
			if r.SingleClass {
				run.SingleClass++
			}
			if c.NoBetter {
				run.NoBetter++
			}
			if r.Method == runfolder.MethodAdversarial {
				c.Symbol = "β"
			}
			// Every value a plane drawn decides on or shows, checked here,
			// where the file can be named.
			names := append([]string{records.AxisRisk}, p.Data.Metrics...)
			if len(p.DecisionMetrics) > 0 {
				names = append(names, records.AxisError)
			}
			for _, name := range names {
				_, v, err := decide.Value(r, name)
				if err != nil {
					return nil, fmt.Errorf("report: %s: %w", path, err)
				}
				if name != records.AxisRisk && name != records.AxisError {
					c.Metrics = append(c.Metrics, Num(v))
				}
			}
			c.rec = r
			c.Group = index(groups, labels.of(r))
			c.Dataset = index(datasets, datasetLabel(r))
			if r.Weights != "" {
				c.Network = filepath.Join(dir, r.Weights)
				if _, err := os.Stat(c.Network); errors.Is(err, fs.ErrNotExist) {
					run.Networks = false
				}
			} else {
				run.Networks = false
			}
			p.Data.Candidates = append(p.Data.Candidates, c)
			src.recs = append(src.recs, *r)
			src.ids = append(src.ids, c.ID)
		}
		if !run.Networks {
			noNetworks = append(noNetworks, path)
		}
		p.Propensity = append(p.Propensity, propensityRows(ri, dir, consts)...)
		p.Runs = append(p.Runs, run)
		sources = append(sources, src)
		p.Data.Runs = append(p.Data.Runs, path)
	}
	if len(noConfig) > 0 {
		p.Warnings = append(p.Warnings, fmt.Sprintf("No readable %s beside %s: the command that reproduces the run is not shown.",
			runfolder.ConfigFile, strings.Join(noConfig, ", ")))
	}
	if len(noNetworks) > 0 {
		p.Warnings = append(p.Warnings, fmt.Sprintf("The networks of %s are not all present: their score distributions are not shown.",
			strings.Join(noNetworks, ", ")))
	}
	p.Data.Groups = make([]Group, len(groups))
	for label, i := range groups {
		p.Data.Groups[i] = Group{Label: label, Color: palette[i%len(palette)]}
	}
	for i := range p.Data.Candidates { // a group is one run: one family
		c := &p.Data.Candidates[i]
		p.Data.Groups[c.Group].Family = c.rec.Family()
	}
	p.Data.Datasets = make([]string, len(datasets))
	for label, i := range datasets {
		p.Data.Datasets[i] = label
	}
	if err := markFronts(p.Data.Candidates, len(datasets), p.Data.Metrics, p.DecisionMetrics, decide); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}

	// Summary.
	s := &p.Summary
	s.Datasets = p.Data.Datasets
	if p.Title == "" {
		p.Title = "fp report: " + strings.Join(s.Datasets, ", ")
	}
	s.Configurations = len(configs)
	allWall := true
	for _, r := range p.Runs {
		allWall = allWall && r.WallSeconds > 0
		s.WallSeconds += r.WallSeconds
		s.Done += r.Done
		s.Failed += r.Failed
		s.Collapsed += r.Collapsed
		s.SingleClass += r.SingleClass
		s.NoBetter += r.NoBetter
		s.TrainSeconds += r.TrainSeconds
	}
	s.Candidates = s.Done + s.Failed
	if !allWall {
		s.WallSeconds = 0 // a sum over some runs only would mislead
	}

	// Per candidate: the predict command and, on a front, the score
	// distributions and the intervals.
	var ciNotes []string
	for si, src := range sources {
		var cfg *runfolder.Config
		if c, err := runfolder.ReadConfig(src.dir); err == nil {
			cfg = &c
		}
		for k := range src.recs {
			c := &p.Data.Candidates[src.ids[k]]
			if opt.Predict != nil && c.Network != "" {
				c.Predict = opt.Predict(c.Network, &src.recs[k], cfg)
			}
			switch {
			case len(c.Front) == 0 && len(c.ErrorFront) == 0:
				c.DistNote = "Score distributions are kept for non-dominated candidates only."
			case c.Network == "":
				c.DistNote = "The record names no network file."
			case !p.Runs[si].Networks && !exists(c.Network):
				c.DistNote = "The network file " + c.Network + " is absent, so the score distributions cannot be recomputed."
			default:
				pred, err := src.predictions()
				if err != nil {
					c.DistNote = "Score distributions not available: " + err.Error()
					continue
				}
				pr, err := pred.Predictions(&src.recs[k])
				if err != nil {
					c.DistNote = "Score distributions not available: " + err.Error()
					continue
				}
				c.Dist = histograms(pr, opt.Bins)
			}
		}
	}

	if opt.CIResamples > 0 {
		for _, src := range sources {
			for _, note := range src.intervals(p.Data.Candidates, opt.CIResamples, p.Data.Metrics) {
				if !slices.Contains(ciNotes, note) {
					ciNotes = append(ciNotes, note)
				}
			}
		}
	}
	p.Warnings = append(p.Warnings, ciNotes...)
	p.Intervals = slices.ContainsFunc(p.Data.Candidates, func(c Candidate) bool { return c.CI != nil })
	p.Fronts = frontSummaries(p, sources, decide, opt)

	cmps, err := comparisons(data, opt.Resamples, decide, opt.FrontRule, &p.Warnings)
	if err != nil {
		p.Warnings = append(p.Warnings, err.Error())
	}
	p.Comparisons = cmps
	p.Banners = banners(p)
	return p, nil
}

// source is one run folder of the page: its successful records and what
// recomputes their predictions, made when first needed.
type source struct {
	dir  string
	recs []records.Record // succeeded ones, aligned with ids
	ids  []int
	pred *runfolder.PredictionSource
	perr error
}

// predictions returns the folder's prediction source, loading its data
// on the first call.
func (s *source) predictions() (*runfolder.PredictionSource, error) {
	if s.pred == nil && s.perr == nil {
		s.pred, s.perr = runfolder.NewPredictionSource(s.dir)
	}
	return s.pred, s.perr
}

// intervals gives the folder's candidates on a front their intervals from
// resamples bootstrap resamples (only those: the others would cost the
// build time for intervals nobody sees) and returns the notes of those it
// could not give. A group-thresholds candidate's are those of its rules'
// decisions (intervals.Folder), held fixed as the rows are resampled.
func (s *source) intervals(cands []Candidate, resamples int, metrics []string) (notes []string) {
	var recs []*records.Record
	var ids []int
	for k, id := range s.ids {
		if c := &cands[id]; len(c.Front) > 0 || len(c.ErrorFront) > 0 {
			recs, ids = append(recs, &s.recs[k]), append(ids, id)
		}
	}
	if len(recs) == 0 {
		return nil
	}
	pred, _ := s.predictions() // a failure to load is Open's to report
	f, err := intervals.Open(s.dir, pred, resamples)
	if err != nil {
		return []string{err.Error()}
	}
	for k, ci := range f.ForAll(recs) {
		for _, n := range []string{ci.Note, ci.Caution} {
			if n != "" && !slices.Contains(notes, n) {
				notes = append(notes, n)
			}
		}
		if !ci.Given() {
			continue
		}
		c := &cands[ids[k]]
		c.CI = &CandidateCI{Risk: span(ci.Risk), Acc: span(ci.Accuracy)}
		for _, m := range metrics {
			c.CI.Metrics = append(c.CI.Metrics, span(ci.Metric(m)))
			c.CI.Est = append(c.CI.Est, corrected(&ci, m))
		}
	}
	f.Save()
	return notes
}

// corrected is the unbiased estimate of metric m that its interval is
// built around, NaN where the interval is of the recorded value.
func corrected(ci *intervals.CI, m string) Num {
	if v, ok := ci.Corrected(m); ok {
		return Num(v)
	}
	return Num(math.NaN())
}

// span is an interval as the script reads it; nil (null) when there is
// none.
func span(iv *intervals.Interval) []Num {
	if iv == nil {
		return nil
	}
	return []Num{Num(iv[0]), Num(iv[1])}
}

// recordOverlap is the overlap summary a record carries.
func recordOverlap(r *records.Record) propensity.Overlap {
	return propensity.Overlap{Temperature: r.PropTemperature, Quantiles: r.PropQ, Extreme: r.PropExtreme,
		ESS1: r.ESS1, ESS0: r.ESS0, N1: r.PropN1, N0: r.PropN0}
}

// propensityRows reads what the run folder stores of each split's
// propensity model: its overlap diagnostics (overlap.json: temperature,
// quantiles of ê, the share of extreme scores, the effective sample size of
// each group's overlap weights) or, for runs written before those were
// stored, its calibration temperature alone. A temperature at the bound of
// its range means the model's logits separate the groups.
func propensityRows(run int, dir string, splits map[int]bool) []PropensityRow {
	ms := make([]int, 0, len(splits))
	for m := range splits {
		ms = append(ms, m)
	}
	sort.Ints(ms)
	overlaps := map[int]runfolder.SplitOverlap{}
	if ovs, err := runfolder.ReadOverlaps(dir); err == nil {
		for _, o := range ovs {
			overlaps[o.Split] = o
		}
	}
	var out []PropensityRow
	for _, m := range ms {
		if o, ok := overlaps[m]; ok && o.Groups != nil {
			out = append(out, groupPropensityRow(run, m, o))
			continue
		}
		if o, ok := overlaps[m]; ok {
			row := PropensityRow{Run: run, Split: m, Items: []NamedValue{
				{"calibration temperature", o.Temperature},
				{"share of rows extreme (ê under 1/50 of a group's share)", o.Extreme},
				{"ESS a=1 / rows", ratio(o.ESS1, o.N1)},
				{"ESS a=0 / rows", ratio(o.ESS0, o.N0)},
			}}
			for k, l := range propensity.QuantileLevels {
				if (l == 0.01 || l == 0.5 || l == 0.99) && k < len(o.Quantiles) {
					row.Items = append(row.Items, NamedValue{fmt.Sprintf("ê at quantile %g", l), o.Quantiles[k]})
				}
			}
			if t := o.Test; t != nil {
				row.Items = append(row.Items,
					NamedValue{"test rows: ESS a=1 / rows", ratio(t.ESS1, t.N1)},
					NamedValue{"test rows: ESS a=0 / rows", ratio(t.ESS0, t.N0)},
					NamedValue{"test rows: largest share of a group's weight on one row", max(t.MaxShare1, t.MaxShare0)})
			}
			row.warn(o)
			out = append(out, row)
			continue
		}
		T, ok := runfolder.PropensityTemperature(dir, m)
		if !ok {
			continue
		}
		row := PropensityRow{Run: run, Split: m, Items: []NamedValue{{"calibration temperature", T}}}
		if T <= propensity.MinT || T >= propensity.MaxT {
			row.Warning = "temperature at the bound of its range: the propensity logits separate the groups, overlap is poor"
		}
		out = append(out, row)
	}
	return out
}

// groupPropensityRow is propensityRows' row of a split whose sensitive
// attribute is in R > 2 groups: each group's effective sample size on the
// training and the test rows (docs/method.md §4.4) instead of a = 1 and
// a = 0's.
func groupPropensityRow(run, m int, o runfolder.SplitOverlap) PropensityRow {
	row := PropensityRow{Run: run, Split: m, Items: []NamedValue{
		{"calibration temperature", o.Temperature},
		{"share of rows extreme (some ê_r under 1/50 of group r's share)", o.Extreme},
	}}
	for _, g := range o.Groups.Groups {
		row.Items = append(row.Items, NamedValue{fmt.Sprintf("ESS %s / rows", g.Level), ratio(g.ESS, g.N)})
	}
	if t := o.TestGroups; t != nil {
		var share float64
		for _, g := range t.Groups {
			row.Items = append(row.Items, NamedValue{fmt.Sprintf("test rows: ESS %s / rows", g.Level), ratio(g.ESS, g.N)})
			share = max(share, g.MaxShare)
		}
		row.Items = append(row.Items, NamedValue{"test rows: largest share of a group's weight on one row", share})
	}
	row.warn(o)
	return row
}

// warn sets the row's warning from the split's overlap advice and ATO
// advice, and when either is given, what is behind it: the columns that
// predict the sensitive attribute, or groups too small to estimate.
func (row *PropensityRow) warn(o runfolder.SplitOverlap) {
	// The cause is the same for either warning: an ATO judged unreliable
	// on the test rows because a group is too small is not put down to a
	// column.
	if o.Advice() != "" || o.ATOAdvice() != "" {
		row.Proxy, row.Small = o.ProxyCause(), o.SmallAdvice()
		if row.Proxy {
			row.Predictors = o.Predictors
		}
	}
	var warn []string
	for _, a := range []string{o.Advice(), o.ATOAdvice()} {
		if a != "" {
			warn = append(warn, a)
		}
	}
	row.Warning = strings.Join(warn, ". ")
}

func ratio(a float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return a / float64(n)
}

// markFronts sets, for every plane drawn, the candidates of each dataset
// that are non-dominated in it, by the rule fp compare measures
// (compare.Front): Front in the (risk, metric) planes; ErrorFront in the
// (error, decision metric) planes, among every candidate of the dataset,
// and OwnErrorFront there among the candidates of its own group (run), the
// front fp compare --axis error compares for that group.
func markFronts(cands []Candidate, nDatasets int, metrics, decision []string, decide records.Decide) error {
	mark := func(idx []int, axis, metric string, set func(c *Candidate, mi int)) error {
		recs := make([]*records.Record, len(idx))
		for k, i := range idx {
			recs[k] = cands[i].rec
		}
		front, err := compare.Front(recs, axis, metric, decide)
		if err != nil {
			return err
		}
		mi := slices.Index(metrics, metric)
		for _, k := range front {
			set(&cands[idx[k]], mi)
		}
		return nil
	}
	for d := range nDatasets {
		var idx []int
		byGroup := map[int][]int{}
		for i := range cands {
			if cands[i].Dataset == d {
				idx = append(idx, i)
				byGroup[cands[i].Group] = append(byGroup[cands[i].Group], i)
			}
		}
		for _, m := range metrics {
			if err := mark(idx, records.AxisRisk, m, func(c *Candidate, mi int) { c.Front = append(c.Front, mi) }); err != nil {
				return err
			}
		}
		for _, m := range decision {
			if err := mark(idx, records.AxisError, m, func(c *Candidate, mi int) { c.ErrorFront = append(c.ErrorFront, mi) }); err != nil {
				return err
			}
			for _, g := range byGroup {
				if err := mark(g, records.AxisError, m, func(c *Candidate, mi int) { c.OwnErrorFront = append(c.OwnErrorFront, mi) }); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// noDecisionNote says why the page has no (error, decision metric) panels:
// the runs (of paths, whose records are read) some of whose successful
// records were written before fp recorded the decision metrics.
func noDecisionNote(paths []string, read [][]records.Record) string {
	var old []string
	for i, all := range read {
		if slices.ContainsFunc(all, func(r records.Record) bool { return r.OK() && !r.HasDecision() }) {
			old = append(old, paths[i])
		}
	}
	return fmt.Sprintf("No (test error, decision metric) panels: the records of %s were written before fp recorded the decision metrics "+
		"(dp_diff, dp_ratio, eo_diff, eopp_diff); to get them, train the same sweep into a new folder: fp train --config RUN/config.json --out NEW.",
		strings.Join(old, ", "))
}

// histograms bins the predictions of each (y, a) cell.
func histograms(pr *runfolder.Predictions, bins int) []Hist {
	var out []Hist
	for _, y := range []int{0, 1} {
		for _, a := range []int{0, 1} {
			h := Hist{Y: y, A: a, Density: make([]Num, bins)}
			counts := make([]float64, bins)
			for i, v := range pr.P {
				if int(pr.Y[i]) != y || int(pr.A[i]) != a || !(v >= 0 && v <= 1) {
					continue
				}
				counts[min(int(v*float64(bins)), bins-1)]++
				h.N++
			}
			for b := range counts {
				if h.N > 0 {
					h.Density[b] = Num(counts[b] * float64(bins) / float64(h.N))
				}
			}
			out = append(out, h)
		}
	}
	return out
}

func index(m map[string]int, k string) int {
	i, ok := m[k]
	if !ok {
		i = len(m)
		m[k] = i
	}
	return i
}

func exists(path string) bool { _, err := os.Stat(path); return err == nil }
