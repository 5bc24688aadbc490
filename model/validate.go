package model

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/fpareto/fp/datasets"
)

// FieldError is a network file whose member Field (its JSON name, with the
// layer or position where it helps: "weights[2]", "sd[4]") cannot be used
// as it is: missing, of the wrong shape or not a finite number.
type FieldError struct {
	Field   string
	Problem string
}

func (e *FieldError) Error() string { return fmt.Sprintf("field %q: %s", e.Field, e.Problem) }

// ErrDamaged marks the errors of Load that come from a file's content
// rather than from its format: the file was damaged or edited after fp
// wrote it, and only a copy or training the network again mends it.
var ErrDamaged = errors.New("the file is damaged or was edited: restore it from a copy or train the network again")

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Problem: fmt.Sprintf(format, args...)}
}

// validate checks every member of f the scorer, the exporter and the
// readers of its schema and card use, before any of them does: the
// architecture against the weights' and biases' shapes and every weight
// finite (Params.Validate, the one home of that rule, which bounds every
// size by the lengths the file holds before allocating from it), the
// standardization (features, mean and sd: all of them, with one entry per
// input, or none, as in a propensity model's network fed standardized
// inputs) with no negative sd, the schema's columns and its coding of y and
// a, and the card's groups. It returns the MLP f holds.
func (f *File) validate() (*Params, error) {
	a, err := ParseArch(f.Arch)
	if err != nil {
		return nil, fieldErr("arch", "%v", err)
	}
	p := &Params{Arch: a, Dim: f.Dim, W: f.Weights, B: f.Biases}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := f.validateInputs(); err != nil {
		return nil, err
	}
	if err := f.validateSchema(); err != nil {
		return nil, err
	}
	if err := f.validateCard(); err != nil {
		return nil, err
	}
	return p, nil
}

// validateInputs checks the inputs' names and standardization: features,
// where present, one name per input; mean and sd both present with one
// entry per input, or both absent (a network fed standardized inputs, as
// a propensity model's), and present wherever features or a schema say the
// network reads raw rows.
func (f *File) validateInputs() error {
	if f.Features != nil && len(f.Features) != f.Dim {
		return fieldErr("features", "%d names, want %d (dim), one per input", len(f.Features), f.Dim)
	}
	if f.Mean == nil && f.SD == nil && f.Features == nil && f.Schema == nil {
		return nil
	}
	for _, m := range []struct {
		name string
		v    []float64
	}{{"mean", f.Mean}, {"sd", f.SD}} {
		if m.v == nil {
			return fieldErr(m.name, "missing: want %d numbers, the standardization of each input", f.Dim)
		}
		if len(m.v) != f.Dim {
			return fieldErr(m.name, "%d numbers, want %d (dim), one per input", len(m.v), f.Dim)
		}
		if err := finite(m.name, m.v); err != nil {
			return err
		}
	}
	for j, v := range f.SD {
		if v < 0 {
			return fieldErr(fmt.Sprintf("sd[%d]", j), "%v: a standard deviation is never negative", v)
		}
	}
	return nil
}

// validateSchema checks what predict reads of the raw input schema.
func (f *File) validateSchema() error {
	s := f.Schema
	if s == nil {
		return nil
	}
	if err := s.Validate(); err != nil {
		return fieldErr("schema", "%v", err)
	}
	for _, c := range s.Columns {
		if c.Name == "" {
			return fieldErr("schema", "a column without a name")
		}
		seen := make(map[string]bool, len(c.Levels))
		for _, l := range c.Levels {
			if seen[l] {
				return fieldErr("schema", "column %q lists the level %q twice", c.Name, l)
			}
			seen[l] = true
		}
		if c.Dropped != "" && !seen[c.Dropped] {
			return fieldErr("schema", "column %q drops the level %q, which it does not list", c.Name, c.Dropped)
		}
	}
	for _, m := range [][2]string{{"target", s.Target}, {"target_positive", s.TargetPositive}, {"sensitive", s.Sensitive}, {"sensitive_positive", s.SensitivePositive}} {
		if m[1] == "" {
			return fieldErr("schema."+m[0], "missing")
		}
	}
	if got := s.Features(); !slices.Equal(got, f.Features) {
		return fieldErr("features", "the schema encodes %d features, which are not the %d the network lists", len(got), len(f.Features))
	}
	return nil
}

// validateCard checks the card's numbers and, for a network of R > 2
// groups, that its groups can be formed from raw rows again.
func (f *File) validateCard() error {
	c := f.Card
	if c == nil {
		return nil
	}
	if math.IsNaN(c.Lambda) || math.IsInf(c.Lambda, 0) {
		return fieldErr("card.lambda", "%v, want a number in [0, 1]", c.Lambda)
	}
	if len(c.Levels) == 0 && len(c.GroupColumns) == 0 && len(c.GroupMap) == 0 {
		return nil
	}
	if _, err := datasets.NewGroupRule(c.Levels, c.GroupColumns, c.GroupMap); err != nil {
		return fieldErr("card.levels", "%v", err)
	}
	return nil
}

// finite reports the first value of v that is not a finite number.
func finite(field string, v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fieldErr(fmt.Sprintf("%s[%d]", field, i), "%v, want a finite number", x)
		}
	}
	return nil
}
