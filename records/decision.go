package records

import (
	"errors"
	"fmt"
	"slices"
)

// Decision is a candidate's decision metrics (docs/method.md §7.2): the
// rates of its decisions ŷ = 1{p ≥ threshold} across the groups, as
// Fairlearn defines them. Unlike dp, eo and eopp (mean-variance indices of
// the score distributions, at most 0.25), they are differences and ratios
// of rates.
type Decision struct {
	DPDiff   float64 `json:"dp_diff"`   // largest minus smallest selection rate
	DPRatio  float64 `json:"dp_ratio"`  // smallest over largest selection rate (1 when all are equal)
	EODiff   float64 `json:"eo_diff"`   // the larger of the TPR gap and the FPR gap
	EOppDiff float64 `json:"eopp_diff"` // the TPR gap
}

// SelDecision is Decision on the selection rows.
type SelDecision struct {
	SelDPDiff   float64 `json:"sel_dp_diff"`
	SelDPRatio  float64 `json:"sel_dp_ratio"`
	SelEODiff   float64 `json:"sel_eo_diff"`
	SelEOppDiff float64 `json:"sel_eopp_diff"`
}

// The names of the metrics (as --metric takes them). A front minimises
// each; for MetricDPRatio that is 1 − dp_ratio (Metric returns it so).
const (
	MetricATO      = "ato"
	MetricDP       = "dp"
	MetricEO       = "eo"
	MetricEOpp     = "eopp"
	MetricDPDiff   = "dp-diff"
	MetricDPRatio  = "dp-ratio"
	MetricEODiff   = "eo-diff"
	MetricEOppDiff = "eopp-diff"
)

// ScoreMetrics are the metrics of the scores every record carries: the ATO
// and the mean-variance indices.
var ScoreMetrics = []string{MetricATO, MetricDP, MetricEO, MetricEOpp}

// DecisionMetrics are the metrics of decisions, which records carry since
// they were introduced (HasDecision).
var DecisionMetrics = []string{MetricDPDiff, MetricDPRatio, MetricEODiff, MetricEOppDiff}

// Metrics lists every metric name Metric accepts.
var Metrics = append(append([]string{}, ScoreMetrics...), DecisionMetrics...)

// IsDecisionMetric reports whether name is one of DecisionMetrics.
func IsDecisionMetric(name string) bool { return slices.Contains(DecisionMetrics, name) }

// ErrNoDecision is wrapped by the error of a decision metric asked of a
// record written before records carried them.
var ErrNoDecision = errors.New("written before fp recorded decision metrics")

// HasDecision reports whether the record carries the decision metrics.
func (r *Record) HasDecision() bool { return r.Decision != nil }

// HasSelDecision reports whether the record carries the decision metrics
// of its selection rows.
func (r *Record) HasSelDecision() bool { return r.Selection != nil && r.Selection.SelDecision != nil }

// MetricsOf is the metrics every successful record of recs carries:
// ScoreMetrics, and DecisionMetrics when each has them. Tables that show
// every metric by default show these.
func MetricsOf(recs []Record) []string {
	for i := range recs {
		if recs[i].OK() && !recs[i].HasDecision() {
			return ScoreMetrics
		}
	}
	return Metrics
}

// decisionValue returns a decision metric of d as a front minimises it.
func (d *Decision) value(name string) float64 {
	switch name {
	case MetricDPDiff:
		return d.DPDiff
	case MetricDPRatio:
		return 1 - d.DPRatio
	case MetricEODiff:
		return d.EODiff
	}
	return d.EOppDiff
}

// Shown is a metric's value v as Metric returns it, turned back into the
// quantity a person reads: dp-ratio's 1 − dp_ratio as dp_ratio. label
// names it as records' keys do.
func Shown(name string, v float64) (label string, shown float64) {
	if name == MetricDPRatio {
		return "dp_ratio", 1 - v
	}
	return name, v
}

// MetricLabel is a metric's name as figures and pages print it: ATO, DP,
// EO, EOpp, DP diff, 1 − DP ratio (the quantity fronts minimise), EO diff,
// EOpp diff.
func MetricLabel(name string) string {
	switch name {
	case MetricATO:
		return "ATO"
	case MetricDP:
		return "DP"
	case MetricEO:
		return "EO"
	case MetricEOpp:
		return "EOpp"
	case MetricDPDiff:
		return "DP diff"
	case MetricDPRatio:
		return "1 − DP ratio"
	case MetricEODiff:
		return "EO diff"
	case MetricEOppDiff:
		return "EOpp diff"
	}
	return name
}

// MetricHeading is how tables head a metric's column: its name, and for
// dp-ratio "1 − dp_ratio", the quantity fronts minimise.
func MetricHeading(name string) string {
	if name == MetricDPRatio {
		return "1 − dp_ratio"
	}
	return name
}

func noDecision(r *Record, name string) error {
	return fmt.Errorf("metric %s of candidate %s: %w; to get them, train the same sweep into a new folder: fp train --config RUN/config.json --out NEW",
		name, r.Key(), ErrNoDecision)
}
