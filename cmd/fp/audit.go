package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/fairness"
)

func init() { register(auditCommand()) }

func auditCommand() *cli.Command {
	return &cli.Command{
		Name:      "audit",
		Usage:     "the fairness metrics of any file of predictions",
		UsageText: "fp audit --data FILE --score COL --label COL --group COL [--propensity COL] [--json]",
		Description: "Reads a CSV file with a header row and one prediction per row: a score (a probability in\n" +
			"[0, 1]), the true label and the sensitive group (each 0/1 or two distinct values, coded as\n" +
			"for fp train: 1, true or yes is 1, else the later value in sorted order). Prints risk,\n" +
			"accuracy, dp, eo and eopp (and ato when a propensity column P(group=1 | x) is given), and\n" +
			"per group the count, base rate P(y=1), mean score, accuracy and selection rate (score ≥ 0.5).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "data", Required: true, Usage: "the predictions `FILE` (CSV with a header row)"},
			&cli.StringFlag{Name: "score", Required: true, Usage: "the `COLUMN` of predicted probabilities P(y=1)"},
			&cli.StringFlag{Name: "label", Required: true, Usage: "the `COLUMN` of true labels"},
			&cli.StringFlag{Name: "group", Required: true, Usage: "the `COLUMN` of the sensitive attribute"},
			&cli.StringFlag{Name: "propensity", Usage: "the `COLUMN` of propensities P(group=1 | x), for the ato"},
			&cli.BoolFlag{Name: jsonFlag, Usage: "print JSON"},
		},
		Action: runAudit,
	}
}

// auditGroup is one row of the per-group table.
type auditGroup struct {
	Group         string  `json:"group"` // the value in the file
	A             int     `json:"a"`     // its code
	Count         int     `json:"count"`
	BaseRate      float64 `json:"base_rate"`
	MeanScore     float64 `json:"mean_score"`
	Accuracy      float64 `json:"accuracy"`
	SelectionRate float64 `json:"selection_rate"`
}

// auditResult is the JSON output of fp audit.
type auditResult struct {
	N             int          `json:"n"`
	Risk          float64      `json:"risk"`
	Accuracy      float64      `json:"accuracy"`
	ATO           *float64     `json:"ato,omitempty"`
	DP            float64      `json:"dp"`
	EO            float64      `json:"eo"`
	EOpp          float64      `json:"eopp"`
	LabelPositive string       `json:"label_positive"` // the label value coded 1
	GroupPositive string       `json:"group_positive"` // the group value coded 1
	ByGroup       []auditGroup `json:"by_group"`
}

func runAudit(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("audit: unexpected argument %q (the file is given with --data)", c.Args().First())
	}
	cols := auditColumns{
		score: c.String("score"), label: c.String("label"),
		group: c.String("group"), propensity: c.String("propensity"),
	}
	in, err := readPredictions(c.String("data"), cols)
	if err != nil {
		return err
	}
	res, err := audit(in)
	if err != nil {
		return err
	}
	if c.Bool(jsonFlag) {
		return writeJSON(c.App.Writer, res)
	}
	return printAudit(c.App.Writer, in, res)
}

// auditColumns names the columns fp audit reads.
type auditColumns struct{ score, label, group, propensity string }

// binaryValues codes a two-valued column.
type binaryValues struct {
	pos, neg string // the values coded 1 and 0 ("" when absent)
	plain    bool   // the values are the numbers 0 and 1 themselves
}

// predictions is what fp audit read from a file.
type predictions struct {
	file            string
	p, y, a, e      []float64
	label, group    binaryValues
	propensityCol   int // 1-based, for errors
	propensityName  string
	hasPropensities bool
}

// readPredictions reads and validates a predictions file. Every problem is a
// *datasets.ParseError naming the file, line and column.
func readPredictions(file string, cols auditColumns) (*predictions, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	defer f.Close()

	cr := csv.NewReader(f)
	cr.FieldsPerRecord = -1 // field counts are checked below, with a clearer message
	cr.ReuseRecord = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, &datasets.ParseError{File: file, Err: datasets.ErrEmptyFile}
	}
	if err != nil {
		return nil, csvParseError(file, err)
	}
	header = slices.Clone(header)
	header[0] = strings.TrimPrefix(header[0], "\ufeff") // spreadsheet programs write a byte-order mark
	for i := range header {
		header[i] = strings.TrimSpace(header[i])
	}
	find := func(name string) (int, error) {
		i := slices.Index(header, name)
		if i < 0 {
			return 0, &datasets.ParseError{File: file, Line: 1, Err: fmt.Errorf("%w: no column %q in the header (columns: %s)",
				datasets.ErrMissingColumn, name, strings.Join(header, ", "))}
		}
		if j := slices.Index(header[i+1:], name); j >= 0 {
			return 0, &datasets.ParseError{File: file, Line: 1, Column: i + j + 2, Name: name,
				Err: fmt.Errorf("duplicate column name (also column %d): which one is meant is ambiguous", i+1)}
		}
		return i, nil
	}
	var si, li, gi, ei int
	for _, x := range []struct {
		idx  *int
		name string
	}{{&si, cols.score}, {&li, cols.label}, {&gi, cols.group}, {&ei, cols.propensity}} {
		if x.name == "" {
			continue
		}
		if *x.idx, err = find(x.name); err != nil {
			return nil, err
		}
	}

	in := &predictions{file: file, hasPropensities: cols.propensity != "", propensityCol: ei + 1, propensityName: cols.propensity}
	labels := newBinaryColumn(file, cols.label, li)
	groups := newBinaryColumn(file, cols.group, gi)
	var ys, gs []int8 // indices into labels.values and groups.values
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvParseError(file, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(header) {
			return nil, &datasets.ParseError{File: file, Line: line, Err: fmt.Errorf("%w: expected %d fields as in the header, got %d",
				datasets.ErrFieldCount, len(header), len(rec))}
		}
		p, err := probability(file, line, si, cols.score, rec[si], "probability")
		if err != nil {
			return nil, err
		}
		in.p = append(in.p, p)
		if in.hasPropensities {
			e, err := probability(file, line, ei, cols.propensity, rec[ei], "propensity")
			if err != nil {
				return nil, err
			}
			in.e = append(in.e, e)
		}
		y, err := labels.add(line, rec[li])
		if err != nil {
			return nil, err
		}
		g, err := groups.add(line, rec[gi])
		if err != nil {
			return nil, err
		}
		ys, gs = append(ys, y), append(gs, g)
	}
	if len(in.p) == 0 {
		return nil, &datasets.ParseError{File: file, Err: fmt.Errorf("%w: the file has a header but no rows", datasets.ErrNoRows)}
	}
	if in.label, err = labels.code(false); err != nil {
		return nil, err
	}
	if in.group, err = groups.code(true); err != nil {
		return nil, err
	}
	in.y, in.a = make([]float64, len(ys)), make([]float64, len(gs))
	for i := range ys {
		if labels.values[ys[i]] == in.label.pos {
			in.y[i] = 1
		}
		if groups.values[gs[i]] == in.group.pos {
			in.a[i] = 1
		}
	}
	return in, nil
}

// probability parses a cell that must be a number in [0, 1]; what names it
// in messages ("probability", "propensity").
func probability(file string, line, col int, name, cell, what string) (float64, error) {
	s := strings.TrimSpace(cell)
	fail := func(err error) error {
		return &datasets.ParseError{File: file, Line: line, Column: col + 1, Name: name, Err: err}
	}
	if s == "" {
		return 0, fail(fmt.Errorf("%w: expected a %s in [0, 1]", datasets.ErrEmptyCell, what))
	}
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, fail(fmt.Errorf("%w, got %q (a %s in [0, 1])", datasets.ErrNotNumber, s, what))
	case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
		return 0, fail(fmt.Errorf("%w, got %q (a %s in [0, 1])", datasets.ErrNotFinite, s, what))
	case v < 0 || v > 1:
		return 0, fail(fmt.Errorf("%w: %s is outside [0, 1], expected a %s", datasets.ErrBadValue, s, what))
	}
	return v, nil
}

// binaryColumn collects the values of a label or group column.
type binaryColumn struct {
	file, name string
	col        int // 0-based
	values     []string
}

func newBinaryColumn(file, name string, col int) *binaryColumn {
	return &binaryColumn{file: file, name: name, col: col}
}

// add records a cell and returns the index of its value in b.values.
// Numbers are compared as numbers, so "1" and "1.0" are one value.
func (b *binaryColumn) add(line int, cell string) (int8, error) {
	s := strings.TrimSpace(cell)
	if s == "" {
		return 0, b.errAt(line, fmt.Errorf("%w: expected 0/1 or one of two values", datasets.ErrEmptyCell))
	}
	if v, err := strconv.ParseFloat(s, 64); err == nil && !math.IsNaN(v) && !math.IsInf(v, 0) {
		s = strconv.FormatFloat(v, 'g', -1, 64)
	}
	i := slices.Index(b.values, s)
	if i < 0 {
		if len(b.values) == 2 {
			return 0, b.errAt(line, fmt.Errorf("%w: a third value %q after %q and %q",
				datasets.ErrNotBinary, s, b.values[0], b.values[1]))
		}
		i = len(b.values)
		b.values = append(b.values, strings.Clone(s))
	}
	return int8(i), nil
}

func (b *binaryColumn) errAt(line int, err error) error {
	return &datasets.ParseError{File: b.file, Line: line, Column: b.col + 1, Name: b.name, Err: err}
}

// code chooses the value coded 1 as SPEC §1.3 does: 1, true or yes when
// present, else the later value in sorted order (numeric order when both
// are numbers). A label may have one value if it is 0 or 1; a group needs
// both.
func (b *binaryColumn) code(needBoth bool) (binaryValues, error) {
	vals := slices.Clone(b.values)
	if len(vals) == 1 {
		if needBoth {
			return binaryValues{}, &datasets.ParseError{File: b.file, Column: b.col + 1, Name: b.name,
				Err: fmt.Errorf("%w: every row has the value %q, but the fairness metrics compare two groups",
					datasets.ErrEmptyGroup, vals[0])}
		}
		if vals[0] == "0" || vals[0] == "1" {
			return binaryValues{pos: "1", neg: "0", plain: true}, nil
		}
		return binaryValues{}, &datasets.ParseError{File: b.file, Column: b.col + 1, Name: b.name,
			Err: fmt.Errorf("%w: every row has the value %q, so which value is 1 is unknown; expected 0/1",
				datasets.ErrNotBinary, vals[0])}
	}
	x0, err0 := strconv.ParseFloat(vals[0], 64)
	x1, err1 := strconv.ParseFloat(vals[1], 64)
	if (err0 == nil && err1 == nil && x1 < x0) || ((err0 != nil || err1 != nil) && vals[1] < vals[0]) {
		vals[0], vals[1] = vals[1], vals[0]
	}
	pos := vals[1]
	for _, want := range []string{"1", "true", "yes"} {
		if i := slices.IndexFunc(vals, func(v string) bool { return strings.EqualFold(v, want) }); i >= 0 {
			pos = vals[i]
			break
		}
	}
	neg := vals[0]
	if neg == pos {
		neg = vals[1]
	}
	return binaryValues{pos: pos, neg: neg, plain: pos == "1" && neg == "0"}, nil
}

// csvParseError turns an encoding/csv error into a *datasets.ParseError.
func csvParseError(file string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &datasets.ParseError{File: file, Line: pe.Line, Err: fmt.Errorf("character %d: %w", pe.Column, pe.Err)}
	}
	return &datasets.ParseError{File: file, Err: err}
}

// audit computes the metrics of the predictions.
func audit(in *predictions) (*auditResult, error) {
	if in.hasPropensities {
		// The overlap weight is 1−e in group 1 and e in group 0: a group
		// whose propensities all sit at that bound has no weight, and the
		// ato is undefined.
		var w [2]float64
		for i, e := range in.e {
			if in.a[i] == 1 {
				w[1] += 1 - e
			} else {
				w[0] += e
			}
		}
		for a, bound := range []string{"0", "1"} {
			if w[a] == 0 {
				value := []string{in.group.neg, in.group.pos}[a]
				return nil, &datasets.ParseError{File: in.file, Column: in.propensityCol, Name: in.propensityName,
					Err: fmt.Errorf("%w: every row of group %q (a=%d) has propensity %s, so its overlap weights are all 0 and the ato is undefined",
						datasets.ErrBadValue, value, a, bound)}
			}
		}
	}
	m, err := fairness.Evaluate(in.p, in.y, in.a, in.e)
	if err != nil {
		return nil, fmt.Errorf("audit %s: %w", in.file, err)
	}
	res := &auditResult{N: m.N, Risk: m.Risk, Accuracy: m.Accuracy, DP: m.DP, EO: m.EO, EOpp: m.EOpp,
		LabelPositive: in.label.pos, GroupPositive: in.group.pos}
	if m.HasATO {
		res.ATO = &m.ATO
	}
	for a, name := range []string{in.group.neg, in.group.pos} {
		g := auditGroup{Group: name, A: a}
		var pos, score, correct, selected float64
		for i := range in.p {
			if in.a[i] != float64(a) {
				continue
			}
			g.Count++
			pos += in.y[i]
			score += in.p[i]
			pred := 0.0
			if in.p[i] >= 0.5 {
				pred = 1
			}
			selected += pred
			if pred == in.y[i] {
				correct++
			}
		}
		n := float64(g.Count)
		g.BaseRate, g.MeanScore, g.Accuracy, g.SelectionRate = pos/n, score/n, correct/n, selected/n
		res.ByGroup = append(res.ByGroup, g)
	}
	return res, nil
}

func printAudit(w io.Writer, in *predictions, res *auditResult) error {
	coded := false
	for _, x := range []struct {
		what string
		v    binaryValues
	}{{"label", in.label}, {"group", in.group}} {
		if !x.v.plain && x.v.neg != "" {
			fmt.Fprintf(w, "%s: %q coded as 1, %q as 0\n", x.what, x.v.pos, x.v.neg)
			coded = true
		}
	}
	if coded {
		fmt.Fprintln(w)
	}
	t := newTable(w)
	fmt.Fprintf(t, "n\t%d\n", res.N)
	fmt.Fprintf(t, "risk\t%.6g\n", res.Risk)
	fmt.Fprintf(t, "accuracy\t%.6g\n", res.Accuracy)
	if res.ATO != nil {
		fmt.Fprintf(t, "ato\t%.6g\n", *res.ATO)
	}
	fmt.Fprintf(t, "dp\t%.6g\n", res.DP)
	fmt.Fprintf(t, "eo\t%.6g\n", res.EO)
	fmt.Fprintf(t, "eopp\t%.6g\n", res.EOpp)
	if err := t.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	t = newTable(w)
	fmt.Fprintln(t, "group\ta\tcount\tbase_rate\tmean_score\taccuracy\tselection_rate")
	for _, g := range res.ByGroup {
		fmt.Fprintf(t, "%s\t%d\t%d\t%.4f\t%.4f\t%.4f\t%.4f\n", g.Group, g.A, g.Count, g.BaseRate, g.MeanScore, g.Accuracy, g.SelectionRate)
	}
	return t.Flush()
}
