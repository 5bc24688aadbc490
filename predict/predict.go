package predict

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/model"
)

// Options choose what is written for each row.
type Options struct {
	Keep      []string // source columns copied to the output, before the scores
	Threshold float64  // label is 1 when score ≥ Threshold
	Logit     bool     // also write the logit
	Parquet   bool     // write a Parquet file instead of a CSV
}

// DefaultThreshold is the threshold of the records' accuracy.
const DefaultThreshold = 0.5

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
	sc, err := f.NewScorer()
	if err != nil {
		return 0, err
	}
	file, header := src.File(), src.Header()
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
		z := sc.Logit(x)
		p := model.Sigmoid(z)
		for i, k := range keep {
			kept[i] = fields[k]
		}
		if err := w.write(kept, p, p >= opt.Threshold, z); err != nil {
			return n, &datasets.ParseError{File: file, Line: at.Line, Row: at.Row, Err: fmt.Errorf("writing the output: %w", err)}
		}
		n++
	}
	return n, w.close()
}

// rowWriter writes the scored rows in one output format.
type rowWriter interface {
	write(kept [][]byte, p float64, label bool, z float64) error
	close() error
}

// csvOut writes a CSV: the kept cells, score, label and the logit.
type csvOut struct {
	w     *bufio.Writer
	logit bool
	line  []byte
}

func newCSVOut(out io.Writer, opt Options) (*csvOut, error) {
	c := &csvOut{w: bufio.NewWriterSize(out, 1<<16), logit: opt.Logit}
	var line []byte
	for _, k := range opt.Keep {
		line = appendCell(line, []byte(k))
		line = append(line, ',')
	}
	line = append(line, "score,label"...)
	if opt.Logit {
		line = append(line, ",logit"...)
	}
	line = append(line, '\n')
	_, err := c.w.Write(line)
	return c, err
}

func (c *csvOut) write(kept [][]byte, p float64, label bool, z float64) error {
	line := c.line[:0]
	for _, v := range kept {
		line = appendCell(line, v)
		line = append(line, ',')
	}
	line = strconv.AppendFloat(line, p, 'g', -1, 64)
	if label {
		line = append(line, ",1"...)
	} else {
		line = append(line, ",0"...)
	}
	if c.logit {
		line = append(line, ',')
		line = strconv.AppendFloat(line, z, 'g', -1, 64)
	}
	line = append(line, '\n')
	c.line = line
	_, err := c.w.Write(line)
	return err
}

func (c *csvOut) close() error { return c.w.Flush() }

// parquetOut writes a Parquet file: the kept columns with the types they
// have in a Parquet input (strings from a text input), score (DOUBLE),
// label (INT32, 0 or 1) and the logit (DOUBLE).
type parquetOut struct {
	w     *datasets.ParquetWriter
	logit bool
	cells [][]byte
	num   []byte
}

func newParquetOut(out io.Writer, opt Options, keep []int, types []datasets.ColumnType) (*parquetOut, error) {
	var cols []datasets.ParquetColumn
	for i, k := range opt.Keep {
		cols = append(cols, datasets.ParquetColumn{Name: k, Type: types[keep[i]].Parquet})
	}
	cols = append(cols, datasets.ParquetColumn{Name: "score", Type: datasets.ParquetDouble},
		datasets.ParquetColumn{Name: "label", Type: datasets.ParquetInt32})
	if opt.Logit {
		cols = append(cols, datasets.ParquetColumn{Name: "logit", Type: datasets.ParquetDouble})
	}
	w, err := datasets.NewParquetWriter(out, cols)
	if err != nil {
		return nil, fmt.Errorf("--keep: %w", err)
	}
	return &parquetOut{w: w, logit: opt.Logit, cells: make([][]byte, len(cols))}, nil
}

func (o *parquetOut) write(kept [][]byte, p float64, label bool, z float64) error {
	n := copy(o.cells, kept)
	b := strconv.AppendFloat(o.num[:0], p, 'g', -1, 64)
	ps := len(b)
	if label {
		b = append(b, '1')
	} else {
		b = append(b, '0')
	}
	o.cells[n], o.cells[n+1] = b[:ps], b[ps:ps+1]
	if o.logit {
		zs := len(b)
		b = strconv.AppendFloat(b, z, 'g', -1, 64)
		o.cells[n+2] = b[zs:]
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
