package datasets

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// PredictionColumns name the columns of a predictions file.
type PredictionColumns struct {
	Score      string // predicted probabilities P(y=1) in [0, 1]; or
	Logit      string // logits z with P(y=1) = σ(z); exactly one of Score and Logit
	Label      string // the true labels: two values
	Group      string // the sensitive attribute: two values
	Propensity string // optional: propensities P(group=1 | x) in [0, 1]
	// Decision is optional: each row's probability of a positive decision
	// P(ŷ = 1), as a randomized classifier gives it (0 or 1 for a
	// deterministic one). Given alone, without Score or Logit, it stands
	// for the score too.
	Decision string
}

// ProbabilityTolerance is how far outside [0, 1] a probability (a score, a
// decision probability or a propensity) may fall in a file and still be
// read, clipped to [0, 1]: mixtures of classifiers, such as Fairlearn's
// ExponentiatedGradient, sum weighted probabilities whose rounding gives
// values like 1.0000000000000018. Anything further out is refused.
const ProbabilityTolerance = 1e-12

// Coding says which value of a two-valued column is coded 1.
type Coding struct {
	Positive string // the value coded 1
	Negative string // the value coded 0; "" when no row holds it
}

// Plain reports whether the values are the numbers 1 and 0 themselves, so
// that the coding needs no mention.
func (c Coding) Plain() bool { return c.Positive == "1" && (c.Negative == "0" || c.Negative == "") }

// Predictions are the rows of a predictions file, coded 0/1.
type Predictions struct {
	File string
	P    []float64 // probabilities; nil when read from logits
	Z    []float64 // logits; nil when read from probabilities
	D    []float64 // decision probabilities P(ŷ = 1); nil without a decision column
	Y, A []float64 // labels and groups, 0 or 1
	E    []float64 // propensities; nil without a propensity column

	Label, Group Coding
}

// ReadPredictions reads a CSV file with a header row (or a Parquet file,
// when the name ends in .parquet) and one prediction per row: a probability (or a logit), the true label and the sensitive group,
// and optionally the propensity of group 1. Other columns are ignored.
//
// The label and the group are coded as LoadCSV codes a target: numbers are
// compared as numbers (so "1" and "1.0" are one value), and the value coded
// 1 is "1", "true" or "yes" (in any case) when present, else the later of
// the two values in sorted order. A label may hold one value only if it is
// 0 or 1; the group needs both values, and with propensities each group
// needs a positive overlap weight (a propensity below 1 in group 1, above 0
// in group 0), else the ATO is undefined.
//
// Every problem is a *ParseError naming the file, line and column.
func ReadPredictions(path string, cols PredictionColumns) (*Predictions, error) {
	names, err := cols.names()
	if err != nil {
		return nil, err
	}
	t, err := readFile(path, names)
	if err != nil {
		return nil, err
	}
	return predictionsOf(t, path, names, cols)
}

// ReadPredictionsFrom reads a CSV file of predictions from r, as
// ReadPredictions reads a file; name stands for it in errors ("standard
// input").
func ReadPredictionsFrom(r io.Reader, name string, cols PredictionColumns) (*Predictions, error) {
	names, err := cols.names()
	if err != nil {
		return nil, err
	}
	t, err := readCSV(r, name, names)
	if err != nil {
		return nil, err
	}
	return predictionsOf(t, name, names, cols)
}

// names lists the columns named, checking that the required ones are.
func (cols PredictionColumns) names() ([]string, error) {
	if err := scoreColumns(cols.Score, cols.Logit, cols.Decision); err != nil {
		return nil, err
	}
	if cols.Label == "" || cols.Group == "" {
		return nil, errors.New("predictions: name the label and the group columns")
	}
	names := []string{cols.Score, cols.Logit, cols.Decision, cols.Label, cols.Group, cols.Propensity}
	return slices.DeleteFunc(names, func(s string) bool { return s == "" }), nil
}

// predictionsOf codes the columns of the table t read from path.
func predictionsOf(t *table, path string, names []string, cols PredictionColumns) (*Predictions, error) {
	var err error
	for _, name := range names {
		if i := slices.Index(t.header, name); slices.Contains(t.header[i+1:], name) {
			j := i + 1 + slices.Index(t.header[i+1:], name)
			return nil, errorAt(path, t.headerAt, j, name,
				fmt.Errorf("duplicate column name (also column %d): which one is meant is ambiguous", i+1))
		}
	}

	pr := &Predictions{File: path}
	if pr.P, pr.Z, pr.D, err = t.scores(cols.Score, cols.Logit, cols.Decision); err != nil {
		return nil, err
	}
	if cols.Propensity != "" {
		if pr.E, err = t.floats(t.column(cols.Propensity), "propensity", true); err != nil {
			return nil, err
		}
	}
	if pr.Y, pr.Label, err = t.binary(t.column(cols.Label), false); err != nil {
		return nil, err
	}
	if pr.A, pr.Group, err = t.binary(t.column(cols.Group), true); err != nil {
		return nil, err
	}
	if pr.E != nil {
		if err := pr.checkOverlap(t.column(cols.Propensity)); err != nil {
			return nil, err
		}
	}
	return pr, nil
}

// floats parses column c: finite numbers, in [0, 1] when unit is set; what
// names the values in messages.
func (t *table) floats(c *column, what string, unit bool) ([]float64, error) {
	if c.kind.Kind == TextValue {
		return nil, t.errColumn(c, fmt.Errorf("%w: %s, expected numbers (a %s: INT32, INT64, FLOAT or DOUBLE)",
			ErrBadType, c.kind.describe(), what))
	}
	vals, errs := numbers(c)
	for k, v := range vals {
		if errs[k] == nil && unit && (v < -ProbabilityTolerance || v > 1+ProbabilityTolerance) {
			errs[k] = fmt.Errorf("%w: %s is outside [0, 1], expected a %s", ErrBadValue, c.levels[k], what)
		} else if errs[k] == nil && unit {
			vals[k] = min(max(v, 0), 1)
		} else if errs[k] != nil {
			errs[k] = fmt.Errorf("%w (a %s)", errs[k], what)
		}
	}
	out := make([]float64, t.rows())
	for i, k := range c.codes {
		if errs[k] != nil {
			return nil, t.errAt(i, c, errs[k])
		}
		out[i] = vals[k]
	}
	return out, nil
}

// binary codes a two-valued column 0/1; needBoth refuses a column with one
// value.
func (t *table) binary(c *column, needBoth bool) ([]float64, Coding, error) {
	// Numbers are written in one form, so that "1" and "1.0" are one value.
	norm := make([]string, len(c.levels))
	for k, s := range c.levels {
		norm[k] = s
		if v, ok, err := number(s); ok && err == nil {
			norm[k] = strconv.FormatFloat(v, 'g', -1, 64)
		}
	}
	var vals []string
	for i, k := range c.codes {
		s := norm[k]
		switch {
		case s == "":
			return nil, Coding{}, t.errAt(i, c, fmt.Errorf("%w: expected 0/1 or one of two values", ErrEmptyCell))
		case slices.Contains(vals, s):
		case len(vals) == 2:
			return nil, Coding{}, t.errAt(i, c, fmt.Errorf("%w: a third value %q after %q and %q", ErrNotBinary, s, vals[0], vals[1]))
		default:
			vals = append(vals, s)
		}
	}
	var code Coding
	switch {
	case len(vals) == 2:
		sortValues(vals)
		code.Positive = positiveValue(vals)
		code.Negative = vals[0]
		if code.Negative == code.Positive {
			code.Negative = vals[1]
		}
	case needBoth:
		return nil, Coding{}, t.errColumn(c, fmt.Errorf("%w: every row has the value %q, but the fairness metrics compare two groups",
			ErrEmptyGroup, vals[0]))
	case vals[0] == "0" || vals[0] == "1":
		code = Coding{Positive: "1", Negative: "0"}
	default:
		return nil, Coding{}, t.errColumn(c, fmt.Errorf("%w: every row has the value %q, so which value is 1 is unknown; expected 0/1",
			ErrNotBinary, vals[0]))
	}
	out := make([]float64, t.rows())
	for i, k := range c.codes {
		if norm[k] == code.Positive {
			out[i] = 1
		}
	}
	return out, code, nil
}

// checkOverlap refuses propensities that leave a group without overlap
// weight: 1−e in group 1 and e in group 0.
func (pr *Predictions) checkOverlap(c *column) error {
	var w [2]float64
	for i, e := range pr.E {
		if pr.A[i] == 1 {
			w[1] += 1 - e
		} else {
			w[0] += e
		}
	}
	for a, bound := range []string{"0", "1"} {
		if w[a] == 0 {
			value := []string{pr.Group.Negative, pr.Group.Positive}[a]
			return &ParseError{File: pr.File, Column: c.field, Name: c.name,
				Err: fmt.Errorf("%w: every row of group %q (a=%d) has propensity %s, so its overlap weights are all 0 and the ato is undefined",
					ErrBadValue, value, a, bound)}
		}
	}
	return nil
}

// CodingNote describes the coding of the label and the group when it is not
// plain 0/1, e.g. `label: "yes" coded as 1, "no" as 0`; one line each.
func (pr *Predictions) CodingNote() string {
	var b strings.Builder
	for _, x := range []struct {
		what string
		c    Coding
	}{{"label", pr.Label}, {"group", pr.Group}} {
		if !x.c.Plain() && x.c.Negative != "" {
			fmt.Fprintf(&b, "%s: %q coded as 1, %q as 0\n", x.what, x.c.Positive, x.c.Negative)
		}
	}
	return b.String()
}

// scoreColumns checks the columns of a file's predictions: a score or a
// logit (not both), or a decision column alone.
func scoreColumns(score, logit, decision string) error {
	switch {
	case score != "" && logit != "":
		return errors.New("predictions: name a column of scores or of logits, not both")
	case score == "" && logit == "" && decision == "":
		return errors.New("predictions: name a column of scores, of logits or of decision probabilities")
	}
	return nil
}

// scores reads the prediction columns: probabilities p (or logits z) and
// decision probabilities d when a decision column is named. A decision
// column alone stands for the score too (p = d).
func (t *table) scores(score, logit, decision string) (p, z, d []float64, err error) {
	if decision != "" {
		if d, err = t.floats(t.column(decision), "decision probability P(ŷ = 1)", true); err != nil {
			return nil, nil, nil, err
		}
	}
	switch {
	case score != "":
		p, err = t.floats(t.column(score), "probability", true)
	case logit != "":
		z, err = t.floats(t.column(logit), "logit", false)
	default:
		p = d
	}
	return p, z, d, err
}
