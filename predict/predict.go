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
}

// DefaultThreshold is the threshold of the records' accuracy.
const DefaultThreshold = 0.5

// ErrNoSchema is returned for network files that predate the raw input
// schema.
var ErrNoSchema = errors.New("the network file has no raw input schema (format fp-network/1); train it again with this fp to score raw rows")

// Run reads the rows of in (named file in errors), scores them with f and
// writes a CSV to out. It returns the number of rows scored. An error
// names the file, line and column; whatever was written to out before it
// is incomplete.
func Run(f *model.File, in io.Reader, file string, out io.Writer, opt Options) (int, error) {
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
	rr, err := datasets.NewRowReader(in, file, f.Schema.Dataset)
	if err != nil {
		return 0, err
	}
	enc, err := f.Schema.NewEncoder(rr.Header(), file)
	if err != nil {
		return 0, err
	}
	if enc.Dim() != sc.Dim() {
		return 0, fmt.Errorf("network file: the schema encodes %d inputs, the network takes %d", enc.Dim(), sc.Dim())
	}
	keep := make([]int, len(opt.Keep))
	for i, k := range opt.Keep {
		if keep[i] = slices.Index(rr.Header(), k); keep[i] < 0 {
			return 0, &datasets.ParseError{File: file, Line: 1, Err: fmt.Errorf("%w: no column %q to keep", datasets.ErrMissingColumn, k)}
		}
	}

	w := bufio.NewWriterSize(out, 1<<16)
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
	if _, err := w.Write(line); err != nil {
		return 0, err
	}
	x := make([]float64, enc.Dim())
	n := 0
	for {
		fields, err := rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return n, err
		}
		if err := enc.Encode(fields, rr.Line(), x); err != nil {
			return n, err
		}
		z := sc.Logit(x)
		p := model.Sigmoid(z)
		line = line[:0]
		for _, k := range keep {
			line = appendCell(line, fields[k])
			line = append(line, ',')
		}
		line = strconv.AppendFloat(line, p, 'g', -1, 64)
		if p >= opt.Threshold {
			line = append(line, ",1"...)
		} else {
			line = append(line, ",0"...)
		}
		if opt.Logit {
			line = append(line, ',')
			line = strconv.AppendFloat(line, z, 'g', -1, 64)
		}
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			return n, err
		}
		n++
	}
	return n, w.Flush()
}

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
