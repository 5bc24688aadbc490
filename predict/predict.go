package predict

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
)

// Options choose what is written for each row.
type Options struct {
	Keep      []string // source columns copied to the output, before the scores
	Threshold float64  // label is 1 when score ≥ Threshold
	Logit     bool     // also write the logit
	Parquet   bool     // write a Parquet file instead of a CSV

	// Propensity, when set, adds the column propensity: the calibrated
	// propensity ê = P(a=1 | x) of each row under that model; for a model
	// of R ≥ 3 groups (Propensity.Levels) one column per group instead,
	// propensity_<level> (datasets.PropensityPrefix), as fp audit --group
	// reads them.
	Propensity *Propensity
	// KeepCoded adds the columns y_coded and a_coded: the network's own
	// 0/1 coding of the row's target and sensitive value (the schema's),
	// so that an audit measures what the records measured. For a network
	// of R > 2 groups (its card's Levels) group_coded replaces a_coded:
	// the row's group, formed from its raw values of the card's
	// GroupColumns as training formed it (datasets.GroupRule), so that
	// fp audit --group group_coded compares the network's groups.
	KeepCoded bool

	// Note, when set, is told of what the reading of the rows made of the
	// file beyond its columns, one line each (datasets.IndexNote: an
	// unnamed first column left out, as training leaves it).
	Note func(line string)

	groupCoded bool // KeepCoded writes group_coded rather than a_coded
	decision   bool // the network has group thresholds: decision is written
}

// Propensity is a split's calibrated propensity model made to score raw
// rows: a network file that carries its schema and standardization, and
// the temperature (runfolder.ReadPropensityFile reads one).
type Propensity struct {
	File *model.File
	T    float64
	// Levels name the groups of a model of R ≥ 3 groups, in code order;
	// Groups then gives the calibrated propensities of n rows encoded by
	// File.Schema (not standardized), row-major n×R
	// (runfolder.PropensityFile.PredictGroups), and File holds no
	// network model.Scorer reads.
	Levels []string
	Groups func(x []float64, n int) ([]float64, error)
}

// scored is what is written for one row besides the kept cells.
type scored struct {
	p, z  float64
	d     float64 // P(ŷ = 1) of a network with group thresholds
	label bool
	e     float64   // propensity
	es    []float64 // the propensities of R ≥ 3 groups
	y, a  float64   // coded target and sensitive value
	group string    // the group, for a network of R > 2 groups
}

// DefaultThreshold is the threshold of the records' accuracy and decision
// metrics unless fp train --threshold gave another.
const DefaultThreshold = fairness.DefaultThreshold

// ErrThresholdWithGroups refuses a decision threshold for a network that
// decides with group thresholds.
var ErrThresholdWithGroups = errors.New("the network decides with thresholds of its own for each group (format fp-network/4, docs/method.md §13.1): leave out the threshold; its label is decision ≥ 0.5")

// ErrNoSchema is returned for network files that predate the raw input
// schema.
var ErrNoSchema = errors.New("the network file has no raw input schema (format fp-network/1); train it again with this fp to score raw rows")

// Run reads the rows of in, a text file read as the network's training
// data was (named file in errors), scores them with f and writes them to
// out as Score does. It returns the number of rows scored.
func Run(f *model.File, in io.Reader, file string, out io.Writer, opt Options) (int, error) {
	if f.Schema == nil {
		return 0, ErrNoSchema
	}
	rr, err := datasets.NewRowReader(in, file, f.Schema.Dataset)
	if err != nil {
		return 0, err
	}
	return Score(f, rr, out, opt)
}

// RunTo scores the rows of the file data (Parquet when its name ends in
// .parquet, else text read as the network's training data was) with f and
// writes them to out as Score does.
func RunTo(f *model.File, data string, out io.Writer, opt Options) (int, error) {
	if f.Schema == nil {
		return 0, ErrNoSchema
	}
	src, err := datasets.OpenRows(data, f.Schema.Dataset)
	if err != nil {
		return 0, err
	}
	defer src.Close()
	return Score(f, src, out, opt)
}

// Score reads the rows of src, scores them with f and writes a CSV (or,
// with opt.Parquet, a Parquet file) to out. It returns the number of rows
// scored. An error names the file, row and column; whatever was written to
// out before it is incomplete.
func Score(f *model.File, src datasets.RowSource, out io.Writer, opt Options) (int, error) {
	if f.Schema == nil {
		return 0, ErrNoSchema
	}
	if !(opt.Threshold >= 0 && opt.Threshold <= 1) {
		return 0, fmt.Errorf("threshold %g: want a probability in [0, 1]", opt.Threshold)
	}
	if f.UsesGroup() && opt.Threshold != DefaultThreshold {
		return 0, ErrThresholdWithGroups
	}
	sc, err := f.NewScorer()
	if err != nil {
		return 0, err
	}
	file, header := src.File(), src.Header()
	if note, ok := datasets.IndexNote(file, header); ok && opt.Note != nil {
		opt.Note(note)
	}
	enc, err := f.Schema.NewEncoder(src)
	if err != nil {
		return 0, err
	}
	if enc.Dim() != sc.Dim() {
		return 0, fmt.Errorf("network file: the schema encodes %d inputs, the network takes %d", enc.Dim(), sc.Dim())
	}
	keep := make([]int, len(opt.Keep))
	for i, k := range opt.Keep {
		if keep[i] = slices.Index(header, k); keep[i] < 0 {
			return 0, &datasets.ParseError{File: file, Line: src.Pos().Line, Err: fmt.Errorf("%w: no column %q to keep", datasets.ErrMissingColumn, k)}
		}
		if typ := src.Types()[keep[i]]; typ.Kind == datasets.Unsupported {
			return 0, &datasets.ParseError{File: file, Line: src.Pos().Line, Column: keep[i] + 1, Name: k,
				Err: fmt.Errorf("%w: a column of type %s, which fp cannot read, cannot be kept", datasets.ErrBadType, typ.Name)}
		}
	}
	var pe *propensityEncoder
	if opt.Propensity != nil {
		if pe, err = newPropensityEncoder(f, opt.Propensity, src, enc); err != nil {
			return 0, err
		}
	}
	var gd *groupDecider
	if f.UsesGroup() {
		if gd, err = newGroupDecider(f, header, file, src.Pos()); err != nil {
			return 0, err
		}
		opt.decision = true
	}
	coded := [2]int{-1, -1} // header positions of the target and sensitive columns
	var gc *groupCoder
	if opt.KeepCoded && f.Card != nil && len(f.Card.Levels) > 2 {
		if gc, err = newGroupCoder(f, header, file, src.Pos(), "for --keep-coded"); err != nil {
			return 0, err
		}
		opt.groupCoded = true
	}
	if opt.KeepCoded {
		names := []string{f.Schema.Target, f.Schema.Sensitive}
		if gc != nil {
			names = names[:1] // the group columns are gc's
		}
		for i, name := range names {
			if coded[i] = slices.Index(header, name); coded[i] < 0 {
				role := []string{"target", "sensitive"}[i]
				return 0, &datasets.ParseError{File: file, Line: src.Pos().Line, Err: fmt.Errorf("%w: no column %q, the network's %s, for --keep-coded", datasets.ErrMissingColumn, name, role)}
			}
		}
	}
	var w rowWriter
	if opt.Parquet {
		w, err = newParquetOut(out, opt, keep, src.Types())
	} else {
		w, err = newCSVOut(out, opt)
	}
	if err != nil {
		return 0, err
	}
	x := make([]float64, enc.Dim())
	kept := make([][]byte, len(keep))
	n := 0
	for {
		fields, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return n, err
		}
		at := src.Pos()
		if err := enc.Encode(fields, at, x); err != nil {
			return n, err
		}
		var r scored
		r.z = sc.Logit(x)
		r.p = model.Sigmoid(r.z)
		r.label = r.p >= opt.Threshold
		if gd != nil {
			if r.d, err = gd.decide(r.p, fields, file, at); err != nil {
				return n, err
			}
			r.label = r.d >= 0.5
		}
		if pe != nil {
			if pe.groups != nil {
				if r.es, err = pe.scoreGroups(fields, at, x); err != nil {
					return n, err
				}
			} else if r.e, err = pe.score(fields, at, x); err != nil {
				return n, err
			}
		}
		if gc != nil {
			if r.y, err = codeTarget(f.Schema, fields, coded[0], file, at); err != nil {
				return n, err
			}
			if r.group, err = gc.group(fields, file, at); err != nil {
				return n, err
			}
		} else if opt.KeepCoded {
			if r.y, r.a, err = codeRow(f.Schema, fields, coded, file, at); err != nil {
				return n, err
			}
		}
		for i, k := range keep {
			kept[i] = fields[k]
		}
		if err := w.write(kept, r); err != nil {
			return n, &datasets.ParseError{File: file, Line: at.Line, Row: at.Row, Err: fmt.Errorf("writing the output: %w", err)}
		}
		n++
	}
	return n, w.close()
}

// propensityEncoder scores raw rows with a propensity model.
type propensityEncoder struct {
	sc     *model.Scorer
	groups func(x []float64, n int) ([]float64, error) // a model of R ≥ 3 groups; sc is nil

	enc *datasets.Encoder // nil: the network's encoding serves
	x   []float64
	T   float64
}

func newPropensityEncoder(net *model.File, pm *Propensity, src datasets.RowSource, netEnc *datasets.Encoder) (*propensityEncoder, error) {
	if pm.File == nil || pm.File.Schema == nil {
		return nil, errors.New("propensity model: no raw input schema to encode rows with")
	}
	if !(pm.T > 0) || math.IsInf(pm.T, 1) {
		return nil, fmt.Errorf("propensity model: temperature %v, want a finite value > 0", pm.T)
	}
	var sc *model.Scorer
	dim := pm.File.Dim
	if pm.Groups == nil {
		var err error
		if sc, err = pm.File.NewScorer(); err != nil {
			return nil, fmt.Errorf("propensity model: %w", err)
		}
		dim = sc.Dim()
	}
	pe := &propensityEncoder{sc: sc, groups: pm.Groups, T: pm.T}
	var err error
	if !reflect.DeepEqual(pm.File.Schema, net.Schema) {
		// Its own encoding: a propensity model need not read the columns
		// the network reads.
		if pe.enc, err = pm.File.Schema.NewEncoder(src); err != nil {
			return nil, fmt.Errorf("propensity model: %w", err)
		}
		if pe.enc.Dim() != dim {
			return nil, fmt.Errorf("propensity model: the schema encodes %d inputs, the network takes %d", pe.enc.Dim(), dim)
		}
		pe.x = make([]float64, pe.enc.Dim())
	} else if netEnc.Dim() != dim {
		return nil, fmt.Errorf("propensity model: the schema encodes %d inputs, the network takes %d", netEnc.Dim(), dim)
	}
	return pe, nil
}

// score returns the calibrated propensity of the row whose fields are
// given; x is the row as the network's schema encodes it.
func (pe *propensityEncoder) score(fields [][]byte, at datasets.Position, x []float64) (float64, error) {
	if pe.enc != nil {
		if err := pe.enc.Encode(fields, at, pe.x); err != nil {
			return 0, err
		}
		x = pe.x
	}
	return model.CalibratedPropensity(pe.sc.Logit(x), pe.T), nil
}

// scoreGroups is score for a model of R ≥ 3 groups: the row's R calibrated
// propensities.
func (pe *propensityEncoder) scoreGroups(fields [][]byte, at datasets.Position, x []float64) ([]float64, error) {
	if pe.enc != nil {
		if err := pe.enc.Encode(fields, at, pe.x); err != nil {
			return nil, err
		}
		x = pe.x
	}
	return pe.groups(x, 1)
}

// codeRow codes the row's target and sensitive value as the schema says,
// from the fields at the header positions pos.
func codeRow(s *datasets.Schema, fields [][]byte, pos [2]int, file string, at datasets.Position) (y, a float64, err error) {
	if y, err = codeTarget(s, fields, pos[0], file, at); err != nil {
		return 0, 0, err
	}
	if a, err = s.CodeSensitive(string(fields[pos[1]])); err != nil {
		return 0, 0, &datasets.ParseError{File: file, Line: at.Line, Row: at.Row, Column: pos[1] + 1, Name: s.Sensitive, Err: err}
	}
	return y, a, nil
}

// codeTarget codes the row's target as the schema says, from the field at
// the header position pos.
func codeTarget(s *datasets.Schema, fields [][]byte, pos int, file string, at datasets.Position) (float64, error) {
	y, err := s.CodeTarget(string(fields[pos]))
	if err != nil {
		return 0, &datasets.ParseError{File: file, Line: at.Line, Row: at.Row, Column: pos + 1, Name: s.Target, Err: err}
	}
	return y, nil
}

// groupCoder forms each row's group for a network of R > 2 groups from
// the row's values of the group columns.
type groupCoder struct {
	rule *datasets.GroupRule
	pos  []int // header position of each group column
	vals []string
}

// newGroupCoder finds the network's group columns in header (at: where the
// header is, for errors).
func newGroupCoder(f *model.File, header []string, file string, at datasets.Position, why string) (*groupCoder, error) {
	rule, err := datasets.NewGroupRule(f.Card.Levels, f.Card.GroupColumns, f.Card.GroupMap)
	if err != nil {
		return nil, fmt.Errorf("network file: its card's groups: %w", err)
	}
	gc := &groupCoder{rule: rule, pos: make([]int, len(f.Card.GroupColumns)), vals: make([]string, len(f.Card.GroupColumns))}
	for j, name := range f.Card.GroupColumns {
		if gc.pos[j] = slices.Index(header, name); gc.pos[j] < 0 {
			return nil, &datasets.ParseError{File: file, Line: at.Line, Err: fmt.Errorf("%w: no column %q, a column of the network's groups, %s", datasets.ErrMissingColumn, name, why)}
		}
	}
	return gc, nil
}

// group returns the row's group, an error naming the row and column when
// it has none.
func (gc *groupCoder) group(fields [][]byte, file string, at datasets.Position) (string, error) {
	for j, p := range gc.pos {
		gc.vals[j] = string(fields[p])
	}
	g, err := gc.rule.Group(gc.vals)
	if err != nil {
		// The first column the row's values were read from names where.
		return "", &datasets.ParseError{File: file, Line: at.Line, Row: at.Row, Column: gc.pos[0] + 1, Name: gc.rule.Columns()[0], Err: err}
	}
	return g, nil
}

// groupDecider decides rows with a network's group thresholds: it finds
// each row's group (the sensitive column coded by the schema, or for R > 2
// groups the card's group rule) and applies the group's rule to the
// probability.
type groupDecider struct {
	gt  *model.GroupThresholds
	gc  *groupCoder // R > 2 groups
	pos int         // the sensitive column, for two groups
	s   *datasets.Schema
}

func newGroupDecider(f *model.File, header []string, file string, at datasets.Position) (*groupDecider, error) {
	gd := &groupDecider{gt: f.GroupThresholds, s: f.Schema}
	if f.Card != nil && len(f.Card.Levels) > 2 {
		gc, err := newGroupCoder(f, header, file, at, "which this network's decisions read (group thresholds, docs/method.md §13.1): give a file with the column")
		if err != nil {
			return nil, err
		}
		gd.gc = gc
		return gd, nil
	}
	if gd.pos = slices.Index(header, f.Schema.Sensitive); gd.pos < 0 {
		return nil, &datasets.ParseError{File: file, Line: at.Line, Err: fmt.Errorf("%w: no column %q, the sensitive attribute: this network decides with each row's group (group thresholds, docs/method.md §13.1); give a file with the column", datasets.ErrMissingColumn, f.Schema.Sensitive)}
	}
	return gd, nil
}

// decide is P(ŷ = 1) of the row of probability p whose fields are given.
func (gd *groupDecider) decide(p float64, fields [][]byte, file string, at datasets.Position) (float64, error) {
	var g int
	if gd.gc != nil {
		name, err := gd.gc.group(fields, file, at)
		if err != nil {
			return 0, err
		}
		if g = slices.Index(gd.gt.Levels, name); g < 0 {
			return 0, &datasets.ParseError{File: file, Line: at.Line, Row: at.Row, Err: fmt.Errorf("group %q has no threshold (the network's groups: %s)", name, strings.Join(gd.gt.Levels, ", "))}
		}
	} else {
		a, err := gd.s.CodeSensitive(string(fields[gd.pos]))
		if err != nil {
			return 0, &datasets.ParseError{File: file, Line: at.Line, Row: at.Row, Column: gd.pos + 1, Name: gd.s.Sensitive, Err: err}
		}
		g = int(a)
	}
	return gd.gt.Decide(p, g)
}

// rowWriter writes the scored rows in one output format.
type rowWriter interface {
	write(kept [][]byte, r scored) error
	close() error
}

// extraColumns names the columns written after score and label, in order.
func extraColumns(opt Options) []string {
	var out []string
	if opt.decision {
		out = append(out, "decision")
	}
	if opt.Logit {
		out = append(out, "logit")
	}
	if p := opt.Propensity; p != nil && p.Groups != nil {
		for _, l := range p.Levels {
			out = append(out, datasets.PropensityPrefix+l)
		}
	} else if p != nil {
		out = append(out, "propensity")
	}
	if opt.KeepCoded && opt.groupCoded {
		out = append(out, "y_coded", "group_coded")
	} else if opt.KeepCoded {
		out = append(out, "y_coded", "a_coded")
	}
	return out
}

// appendExtras appends the values of extraColumns for r to b, as text,
// each preceded by a comma; ends receives the end of each value in b. A
// group's name is written as a CSV cell when csv is set, else as it is.
func appendExtras(b []byte, r scored, opt Options, ends []int, csv bool) ([]byte, []int) {
	if opt.decision {
		b = strconv.AppendFloat(append(b, ','), r.d, 'g', -1, 64)
		ends = append(ends, len(b))
	}
	if opt.Logit {
		b = strconv.AppendFloat(append(b, ','), r.z, 'g', -1, 64)
		ends = append(ends, len(b))
	}
	if p := opt.Propensity; p != nil && p.Groups != nil {
		for _, e := range r.es {
			b = strconv.AppendFloat(append(b, ','), e, 'g', -1, 64)
			ends = append(ends, len(b))
		}
	} else if p != nil {
		b = strconv.AppendFloat(append(b, ','), r.e, 'g', -1, 64)
		ends = append(ends, len(b))
	}
	if opt.KeepCoded {
		b = append(b, ',', '0'+byte(r.y))
		ends = append(ends, len(b))
		switch {
		case opt.groupCoded && csv:
			b = appendCell(append(b, ','), []byte(r.group))
		case opt.groupCoded:
			b = append(append(b, ','), r.group...)
		default:
			b = append(b, ',', '0'+byte(r.a))
		}
		ends = append(ends, len(b))
	}
	return b, ends
}

// csvOut writes a CSV: the kept cells, score, label and the extra
// columns (extraColumns).
type csvOut struct {
	w    *bufio.Writer
	opt  Options
	line []byte
	ends []int
}

func newCSVOut(out io.Writer, opt Options) (*csvOut, error) {
	c := &csvOut{w: bufio.NewWriterSize(out, 1<<16), opt: opt}
	var line []byte
	for _, k := range opt.Keep {
		line = appendCell(line, []byte(k))
		line = append(line, ',')
	}
	line = append(line, "score,label"...)
	for _, name := range extraColumns(opt) {
		line = appendCell(append(line, ','), []byte(name))
	}
	line = append(line, '\n')
	_, err := c.w.Write(line)
	return c, err
}

func (c *csvOut) write(kept [][]byte, r scored) error {
	line := c.line[:0]
	for _, v := range kept {
		line = appendCell(line, v)
		line = append(line, ',')
	}
	line = strconv.AppendFloat(line, r.p, 'g', -1, 64)
	if r.label {
		line = append(line, ",1"...)
	} else {
		line = append(line, ",0"...)
	}
	line, c.ends = appendExtras(line, r, c.opt, c.ends[:0], true)
	line = append(line, '\n')
	c.line = line
	_, err := c.w.Write(line)
	return err
}

func (c *csvOut) close() error { return c.w.Flush() }

// parquetOut writes a Parquet file: the kept columns with the types they
// have in a Parquet input (strings from a text input), score (DOUBLE),
// label (INT32, 0 or 1), the logit and the propensity (DOUBLE), y_coded
// and a_coded (INT32, 0 or 1) or group_coded (STRING).
type parquetOut struct {
	w     *datasets.ParquetWriter
	opt   Options
	cells [][]byte
	num   []byte
	ends  []int
}

func newParquetOut(out io.Writer, opt Options, keep []int, types []datasets.ColumnType) (*parquetOut, error) {
	var cols []datasets.ParquetColumn
	for i, k := range opt.Keep {
		cols = append(cols, datasets.ParquetColumn{Name: k, Type: types[keep[i]].Parquet})
	}
	cols = append(cols, datasets.ParquetColumn{Name: "score", Type: datasets.ParquetDouble},
		datasets.ParquetColumn{Name: "label", Type: datasets.ParquetInt32})
	for _, name := range extraColumns(opt) {
		typ := datasets.ParquetDouble
		switch name {
		case "y_coded", "a_coded":
			typ = datasets.ParquetInt32
		case "group_coded":
			typ = datasets.ParquetString
		}
		cols = append(cols, datasets.ParquetColumn{Name: name, Type: typ})
	}
	w, err := datasets.NewParquetWriter(out, cols)
	if err != nil {
		return nil, fmt.Errorf("--keep: %w", err)
	}
	return &parquetOut{w: w, opt: opt, cells: make([][]byte, len(cols))}, nil
}

func (o *parquetOut) write(kept [][]byte, r scored) error {
	n := copy(o.cells, kept)
	b := strconv.AppendFloat(o.num[:0], r.p, 'g', -1, 64)
	ps := len(b)
	if r.label {
		b = append(b, '1')
	} else {
		b = append(b, '0')
	}
	o.cells[n], o.cells[n+1] = b[:ps], b[ps:ps+1]
	start := len(b)
	b, o.ends = appendExtras(b, r, o.opt, o.ends[:0], false)
	for i, end := range o.ends {
		o.cells[n+2+i] = b[start+1 : end] // past the comma
		start = end
	}
	o.num = b
	return o.w.Write(o.cells)
}

func (o *parquetOut) close() error { return o.w.Close() }

// appendCell appends v as a CSV field, quoted when it has to be.
func appendCell(dst, v []byte) []byte {
	if !bytes.ContainsAny(v, ",\"\r\n") {
		return append(dst, v...)
	}
	dst = append(dst, '"')
	for _, c := range v {
		if c == '"' {
			dst = append(dst, '"')
		}
		dst = append(dst, c)
	}
	return append(dst, '"')
}
