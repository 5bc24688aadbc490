package records

import (
	"errors"
	"fmt"
	"strings"
)

// Selection is a candidate's metrics on its split's selection rows: the
// part of the test rows set aside to choose candidates on, so that the
// remaining test rows (Record.NTest) measure the chosen ones without the
// optimism of having chosen on them (docs/method.md §1.4, §9).
type Selection struct {
	SelRisk     float64 `json:"sel_risk"`
	SelAccuracy float64 `json:"sel_accuracy"`
	SelATO      float64 `json:"sel_ato"`
	SelDP       float64 `json:"sel_dp"`
	SelEO       float64 `json:"sel_eo"`
	SelEOpp     float64 `json:"sel_eopp"`
	NSel        int     `json:"n_sel"`
	// The degenerate flags and the constant predictor's risk on the
	// selection rows, so that a pick decided there screens there too
	// (absent in records written before they existed).
	SelSingleClass  bool     `json:"sel_single_class,omitempty"`
	SelNearConstant bool     `json:"sel_near_constant,omitempty"`
	SelConstRisk    *float64 `json:"sel_const_risk,omitempty"`
	SelConstError   *float64 `json:"sel_const_error,omitempty"`
	// SelMajorityShare is MajorityShare on the selection rows.
	SelMajorityShare *float64 `json:"sel_majority_share,omitempty"`
	// SelDecision holds the decision metrics on the selection rows; nil in
	// records written before they were recorded.
	*SelDecision
}

// SelNearSingleClass is Record.NearSingleClass on the selection rows.
func (s *Selection) SelNearSingleClass() bool {
	return nearSingleClass(s.SelMajorityShare, s.SelConstError)
}

// HasSelection reports whether the record carries selection metrics.
func (r *Record) HasSelection() bool { return r.Selection != nil }

// Value returns the named value on the selection rows: "risk",
// "accuracy", "error" (1 − accuracy) or a metric of Metrics.
func (s *Selection) Value(name string) (float64, error) {
	switch name {
	case "risk":
		return s.SelRisk, nil
	case "accuracy":
		return s.SelAccuracy, nil
	case AxisError:
		return 1 - s.SelAccuracy, nil
	case "ato":
		return s.SelATO, nil
	case "dp":
		return s.SelDP, nil
	case "eo":
		return s.SelEO, nil
	case "eopp":
		return s.SelEOpp, nil
	}
	if IsDecisionMetric(name) {
		if s.SelDecision == nil {
			return 0, fmt.Errorf("selection metric %s: %w", name, ErrNoDecision)
		}
		d := Decision{s.SelDPDiff, s.SelDPRatio, s.SelEODiff, s.SelEOppDiff}
		return d.value(name), nil
	}
	return 0, fmt.Errorf("value %q: want risk, accuracy, error or one of %s", name, strings.Join(Metrics, ", "))
}

// testValue returns the named value on the test rows: "risk", "accuracy",
// "error" (1 − accuracy) or a metric of Metrics.
func (r *Record) testValue(name string) (float64, error) {
	switch name {
	case "risk":
		return r.Risk, nil
	case "accuracy":
		return r.Accuracy, nil
	case AxisError:
		return 1 - r.Accuracy, nil
	}
	return r.Metric(name)
}

// Decide says on which rows' metrics the non-dominated candidates and a
// pick are decided; whatever decides, the metrics shown for the decision
// are those of the test rows. It is the one place that rule lives: every
// front, pick, comparison, figure and report asks it for a record's
// values.
type Decide string

// The rows a decision can be taken on.
const (
	// DecideTest decides on the test metrics, the rows whose metrics are
	// shown (the paper's protocol): the shown numbers flatter the choice.
	DecideTest Decide = "test"
	// DecideSelection decides on the selection metrics (sel_*) and shows
	// the test metrics, measured on rows the decision did not see.
	DecideSelection Decide = "selection"
)

// Decides lists the values ParseDecide accepts.
var Decides = []Decide{DecideSelection, DecideTest}

// ErrMixedSelection is wrapped by ResolveDecide's error for records of
// which some carry selection metrics and some do not.
var ErrMixedSelection = errors.New("some records have selection metrics and some do not")

// ResolveDecide returns the rule named by flag ("selection", "test", or ""
// for the default) for the records recs. The default is DecideSelection
// when every record carries selection metrics and DecideTest when none
// does. Deciding on selection rows needs every record to carry them, and
// records with and without them are refused unless the decision is on the
// test rows, which every record has.
func ResolveDecide(flag string, recs []Record) (Decide, error) {
	with := 0
	for i := range recs {
		if recs[i].HasSelection() {
			with++
		}
	}
	d, err := ParseDecide(flag)
	if err != nil || d == DecideTest {
		return d, err
	}
	switch {
	case with == len(recs) && len(recs) > 0:
		return DecideSelection, nil
	case with == 0 && d == "":
		return DecideTest, nil
	case with == 0:
		return "", errors.New("no record has selection metrics (the runs kept no selection rows: fp train --select-fraction); decide on test")
	}
	return "", fmt.Errorf("%w (%d of %d); decide on test, or compare runs that all kept selection rows", ErrMixedSelection, with, len(recs))
}

// ParseDecide checks a rule's name: "selection", "test", or "" (the
// default, which ResolveDecide settles from the records).
func ParseDecide(name string) (Decide, error) {
	switch d := Decide(name); d {
	case DecideSelection, DecideTest, "":
		return d, nil
	}
	return "", fmt.Errorf("decide on %q: want %s", name, decideNames())
}

// Value returns the named value of r ("risk", "accuracy", "error" or a
// metric of Metrics) that decides, and the one that is shown: the selection value
// and the test value under DecideSelection, the test value twice under
// DecideTest. A record without selection metrics under DecideSelection is
// an error (ResolveDecide refuses such sets up front).
func (d Decide) Value(r *Record, name string) (decide, show float64, err error) {
	show, err = r.testValue(name)
	if err != nil || d != DecideSelection {
		return show, show, err
	}
	if r.Selection == nil {
		return 0, 0, fmt.Errorf("candidate %s has no selection metrics", r.Key())
	}
	decide, err = r.Selection.Value(name)
	return decide, show, err
}

// Point returns r's (risk, metric) to decide on and to show: PointOn
// with AxisRisk.
func (d Decide) Point(r *Record, metric string) (decideRisk, decideMetric, showRisk, showMetric float64, err error) {
	return d.PointOn(r, AxisRisk, metric)
}

// Selects reports whether d decides on other rows than those shown.
func (d Decide) Selects() bool { return d == DecideSelection }

// Note says what decided and what is shown, for a table's heading: "" for
// DecideTest, whose shown metrics are the deciding ones.
func (d Decide) Note() string {
	if d.Selects() {
		return "chosen on selection rows, shown on test rows"
	}
	return ""
}

// String is the rule's name; "test" for the zero value.
func (d Decide) String() string {
	if d == "" {
		return string(DecideTest)
	}
	return string(d)
}

// DecideUsage describes the --decide-on flag of the commands that take it.
var DecideUsage = "the rows whose metrics choose the non-dominated candidates (and the pick): " +
	"selection (the sel_* metrics; the test metrics are shown) or test"

// decideNames is Decides as strings, for messages.
func decideNames() string {
	s := make([]string, len(Decides))
	for i, d := range Decides {
		s[i] = string(d)
	}
	return strings.Join(s, " or ")
}

// ResolveDecideBy is ResolveDecide for records grouped by (a Grouping's
// text, as --by gives it): records of several datasets not grouped by
// dataset are left to the refusal of such a mix, which says more, and
// decided on the test rows meanwhile unless flag names a rule.
func ResolveDecideBy(flag, by string, recs []Record) (Decide, error) {
	if !strings.Contains(by, "dataset") && len(ByData(recs)) > 1 && flag == "" {
		return DecideTest, nil
	}
	return ResolveDecide(flag, recs)
}
