package records

import (
	"errors"
	"math"
	"testing"
)

// The error axis is 1 − accuracy on the rows that decide or show, and its
// constant predictor const_error; the risk axis, risk and const_risk.
func TestAxes(t *testing.T) {
	cr, ce := 0.69, 0.45
	r := Record{Risk: 0.6, Accuracy: 0.7, ConstRisk: &cr, ConstError: &ce,
		Selection: &Selection{SelRisk: 0.62, SelAccuracy: 0.66, SelATO: 0.1}, ATO: 0.2}
	for _, tc := range []struct {
		d                Decide
		axis             string
		dx, sx, constant float64
	}{
		{DecideTest, AxisRisk, 0.6, 0.6, 0.69},
		{DecideTest, AxisError, 0.3, 0.3, 0.45},
		{DecideSelection, AxisRisk, 0.62, 0.6, 0.69},
		{DecideSelection, AxisError, 1 - 0.66, 0.3, 0.45},
	} {
		dx, dm, sx, sm, err := tc.d.PointOn(&r, tc.axis, MetricATO)
		if err != nil || math.Abs(dx-tc.dx) > 1e-15 || math.Abs(sx-tc.sx) > 1e-15 || sm != 0.2 {
			t.Errorf("%s %s: decide (%g, %g), show (%g, %g), %v; want x %g, %g", tc.d, tc.axis, dx, dm, sx, sm, err, tc.dx, tc.sx)
		}
		if c, err := r.ConstantOn(tc.axis); err != nil || c != tc.constant {
			t.Errorf("%s: constant %g, %v; want %g", tc.axis, c, err, tc.constant)
		}
	}
	old := Record{Risk: 0.6}
	for _, axis := range Axes {
		if _, err := old.ConstantOn(axis); !errors.Is(err, ErrNoConstant) {
			t.Errorf("%s of a record without constants: err = %v", axis, err)
		}
	}
	for in, want := range map[string]string{"": AxisRisk, "risk": AxisRisk, "error": AxisError, "accuracy": ""} {
		if got, err := ParseAxis(in); got != want || (err != nil) != (want == "") {
			t.Errorf("ParseAxis(%q) = %q, %v", in, got, err)
		}
	}
}
