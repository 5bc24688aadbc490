package experiments

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/fpareto/fp/compare"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// Outcome is a finished sweep: its counts, the comparison of its candidates
// and its front. Its JSON form is what fp train --json prints.
type Outcome struct {
	Out            string  `json:"out"`
	Candidates     int     `json:"candidates"`
	Trained        int     `json:"trained"`
	Resumed        int     `json:"resumed"`
	Failed         int     `json:"failed"`
	ElapsedSeconds float64 `json:"elapsed_seconds"`
	Metric         string  `json:"metric"`
	// Axis is the front's x axis: the test risk, or for a sweep of group
	// thresholds (whose probability is its base network's) the test error,
	// against the constraint's decision metric.
	Axis       string          `json:"axis"`
	Comparison *compare.Result `json:"comparison"`
	// Front are the records of the non-dominated candidates by test risk,
	// their Weights a path from the working directory.
	Front []records.Record `json:"front"`
	// DecidedOn names the rows whose metrics decided Front (and the
	// comparison's fronts): "test" or "selection" (records.Decide).
	DecidedOn string `json:"decided_on"`
	Figure    string `json:"figure,omitempty"` // the front figure, when one was drawn
	// Overlap is the run's overlap summary of each split; ATOWarning says
	// which splits' ATO is unreliable, why and what to do ("" when none
	// is; runfolder.ATOWarning).
	Overlap    []runfolder.RunOverlap `json:"overlap"`
	ATOWarning string                 `json:"ato_warning,omitempty"`

	Elapsed time.Duration `json:"-"`
}

// NewOutcome assembles the outcome of the sweep that sum describes from
// the successful candidates recs of its folder out, with the front in
// (risk, metric) decided on the selection rows when every record has
// selection metrics, else on the test rows (records.ResolveDecide).
func NewOutcome(sum Summary, out string, recs []records.Record, metric string) (*Outcome, error) {
	d, err := records.ResolveDecide("", recs)
	if err != nil {
		return nil, err
	}
	return NewOutcomeOn(sum, out, recs, metric, d)
}

// NewOutcomeOn is NewOutcome with the front and the comparison decided on
// the metrics d names; the metrics shown are the test ones.
func NewOutcomeOn(sum Summary, out string, recs []records.Record, metric string, d records.Decide) (*Outcome, error) {
	if !slices.Contains(records.Metrics, metric) {
		return nil, &FieldError{Field: "metric", Err: fmt.Errorf("%q: want one of %s", metric, strings.Join(records.Metrics, ", "))}
	}
	axis := records.AxisRisk
	if n := records.CountBaseProbability(recs); n > 0 && n == len(recs) {
		// A sweep of group thresholds has points only in the planes of its
		// decisions (records.Record.InPlane).
		axis = records.AxisError
		if !records.IsDecisionMetric(metric) {
			metric = records.MetricDPDiff
			if recs[0].Penalty == runfolder.ConstraintEO {
				metric = records.MetricEODiff
			}
		}
	}
	cmp, err := compare.Run(recs, compare.Options{Metrics: []string{metric}, Decide: d, Axis: axis})
	if err != nil {
		return nil, err
	}
	o := &Outcome{Out: out, Candidates: sum.Total, Trained: sum.Trained, Resumed: sum.Resumed, Failed: sum.Failed,
		ElapsedSeconds: sum.Elapsed.Seconds(), Metric: metric, Axis: axis, Comparison: cmp, Elapsed: sum.Elapsed, DecidedOn: d.String()}
	ptrs := make([]*records.Record, len(recs))
	for i := range recs {
		ptrs[i] = &recs[i]
	}
	front, err := compare.Front(ptrs, axis, metric, d)
	if err != nil {
		return nil, err
	}
	for _, i := range front {
		r := recs[i]
		r.Weights = filepath.Join(out, r.Weights)
		o.Front = append(o.Front, r)
	}
	if d.Selects() {
		// Shown by test risk, as the table says, not by the risk that chose.
		slices.SortStableFunc(o.Front, func(a, b records.Record) int { return cmpFloat(a.Risk, b.Risk) })
	}
	return o, nil
}

// axis is the front's x axis as its heading says it.
func (o *Outcome) axis() string {
	if o.Axis == records.AxisError {
		return "error"
	}
	return "risk"
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// WriteText prints the outcome: the counts, the comparison tables, the
// front's networks and the figure.
func (o *Outcome) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%d candidates in %s (%d trained now in %s, %d already recorded, %d failed)\n\n",
		o.Candidates, o.Out, o.Trained, o.Elapsed.Round(1e8), o.Resumed, o.Failed)
	if err := compare.WriteText(w, o.Comparison); err != nil {
		return err
	}
	if o.DecidedOn == string(records.DecideSelection) {
		fmt.Fprintf(w, "\nthe front: %d networks non-dominated on the selection rows, by test %s (chosen on selection rows, shown on test rows)\n", len(o.Front), o.axis())
	} else {
		fmt.Fprintf(w, "\nthe front: %d non-dominated networks, by test %s\n", len(o.Front), o.axis())
	}
	t := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(t, "split\tλ\trisk\taccuracy\tato\tdp\teo\teopp\tdp_diff\tdp_ratio\tnetwork\tnote\n")
	for _, r := range o.Front {
		note := r.Mark()
		diff, ratio := "–", "–"
		if r.HasDecision() {
			diff, ratio = fmt.Sprintf("%.3f", r.DPDiff), fmt.Sprintf("%.3f", r.DPRatio)
		}
		fmt.Fprintf(t, "%d\t%.4g\t%.4f\t%.3f\t%.4f\t%.4f\t%.4f\t%.4f\t%s\t%s\t%s\t%s\n", r.Split, r.Lambda, r.Risk, r.Accuracy,
			r.ATO, r.DP, r.EO, r.EOpp, diff, ratio, r.Weights, note)
	}
	if err := t.Flush(); err != nil {
		return err
	}
	if o.Figure != "" {
		fmt.Fprintf(w, "\nfigure: %s\n", o.Figure)
	}
	if o.ATOWarning != "" {
		fmt.Fprintf(w, "\nwarning: %s\n", o.ATOWarning)
	}
	return nil
}
