package compare

import (
	"slices"
	"testing"

	"github.com/fpareto/fp/records"
)

// Front keeps the non-dominated records of a plane, hand-worked: a group-
// thresholds candidate has a point in the (error, decision metric) planes
// only, and a decision on the selection rows reads their values.
func TestFront(t *testing.T) {
	mk := func(risk, acc, dpDiff, selAcc, selDPDiff float64, thresholds bool) records.Record {
		r := records.Record{Method: "cheb", Risk: risk, Accuracy: acc, DP: dpDiff / 10, Status: records.StatusOK,
			Decision:  &records.Decision{DPDiff: dpDiff},
			Selection: &records.Selection{SelRisk: risk, SelAccuracy: selAcc, SelDecision: &records.SelDecision{SelDPDiff: selDPDiff}}}
		if thresholds {
			r.Method, r.FamilyName, r.UsesSensitive = "thresholds", records.FamilyThresholds, true
		}
		return r
	}
	recs := []records.Record{
		mk(0.60, 0.70, 0.20, 0.70, 0.20, false), // 0: best error and risk
		mk(0.62, 0.66, 0.10, 0.60, 0.30, false), // 1: on the test front; dominated by 0 on the selection rows
		mk(0.65, 0.60, 0.15, 0.60, 0.15, false), // 2: dominated by 1 on the test rows
		mk(0.60, 0.68, 0.05, 0.68, 0.05, true),  // 3: thresholds, base risk 0.60: beats 1 in the error plane
	}
	ptrs := make([]*records.Record, len(recs))
	for i := range recs {
		ptrs[i] = &recs[i]
	}
	cases := []struct {
		axis, metric string
		decide       records.Decide
		want         []int
	}{
		{records.AxisRisk, records.MetricDPDiff, records.DecideTest, []int{0, 1}},
		{records.AxisRisk, records.MetricDP, records.DecideTest, []int{0, 1}},
		{records.AxisError, records.MetricDP, records.DecideTest, []int{0, 1}},
		{records.AxisError, records.MetricDPDiff, records.DecideTest, []int{0, 3}},
		{records.AxisError, records.MetricDPDiff, records.DecideSelection, []int{0, 3}},
		{records.AxisRisk, records.MetricDPDiff, records.DecideSelection, []int{0, 2}},
	}
	for _, tc := range cases {
		got, err := Front(ptrs, tc.axis, tc.metric, tc.decide)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("(%s, %s) on the %s rows: front %v, want %v", tc.axis, tc.metric, tc.decide, got, tc.want)
		}
	}
	old := recs[0]
	old.Decision = nil
	if _, err := Front([]*records.Record{&old}, records.AxisError, records.MetricDPDiff, records.DecideTest); err == nil {
		t.Error("a record without decision metrics: no error")
	}
}
