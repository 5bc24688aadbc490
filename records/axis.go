package records

import (
	"errors"
	"fmt"
	"strings"
)

// The x axes of a front's plane (fp front and fp compare --axis): the
// candidate's test log-loss, or its test error 1 − accuracy. Both are
// minimised.
const (
	AxisRisk  = "risk"
	AxisError = "error"
)

// Axes lists the x axes, the default first.
var Axes = []string{AxisRisk, AxisError}

// ParseAxis checks an axis name; "" is AxisRisk.
func ParseAxis(name string) (string, error) {
	switch name {
	case "":
		return AxisRisk, nil
	case AxisRisk, AxisError:
		return name, nil
	}
	return "", fmt.Errorf("axis %q: want %s", name, strings.Join(Axes, " or "))
}

// ErrNoConstant is wrapped by ConstantOn's error for a record written
// before fp recorded its constant predictor's value on that axis.
var ErrNoConstant = errors.New("written before fp recorded")

// ConstantOn returns, on the axis (AxisRisk or AxisError), the test value
// of the constant predictor at the split's training base rate: const_risk,
// or const_error (the error of predicting the training majority class).
// A record that does not carry it gives an error wrapping ErrNoConstant
// that names the key; the caller names the file.
func (r *Record) ConstantOn(axis string) (float64, error) {
	v, key := r.ConstRisk, "const_risk"
	if axis == AxisError {
		v, key = r.ConstError, "const_error"
	}
	if v == nil {
		return 0, fmt.Errorf("%w %s", ErrNoConstant, key)
	}
	return *v, nil
}

// PointOn returns r's (axis value, metric) to decide on and to show, the
// axis value being its risk or its error 1 − accuracy (AxisRisk,
// AxisError), on the rows d says.
func (d Decide) PointOn(r *Record, axis, metric string) (decideX, decideMetric, showX, showMetric float64, err error) {
	if decideX, showX, err = d.Value(r, axis); err != nil {
		return
	}
	decideMetric, showMetric, err = d.Value(r, metric)
	return
}
