package datasets

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"

	"github.com/fpareto/fp/internal/printable"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// ParquetReader streams the rows of a Parquet file one row group at a time:
// memory holds the pages being read, never a whole column or the whole file.
// Its cells follow the type mapping in the package documentation.
type ParquetReader struct {
	file   string
	pf     *parquet.File
	header []string
	types  []ColumnType
	cells  []cellFormat // by header field
	leafTo []int        // leaf column index → header field, −1 for a leaf not read

	g    int          // next row group
	rows parquet.Rows // rows of the current row group, nil between groups
	buf  []parquet.Row
	i, n int // next row of buf, rows in buf
	row  int // 1-based number of the last row returned

	text   []byte   // the current row's cells, end to end
	ends   []int    // end of each field's cell in text
	fields [][]byte // slices of text

	ra   io.ReaderAt // the file, whose page headers fill checks
	size int64

	closer io.Closer
}

// cellFormat says how a column's values become text.
type cellFormat struct {
	kind  uint8 // one of the fmt* constants
	scale int   // digits after the point of a DECIMAL
}

const (
	fmtSkip uint8 = iota // an unsupported column: its cells are empty
	fmtBool
	fmtInt
	fmtUint
	fmtDecimal
	fmtFloat
	fmtDouble
	fmtText
)

// rowBatch is how many rows the reader decodes at a time.
const rowBatch = 512

// OpenParquet opens the Parquet file at path as a row source.
func OpenParquet(path string) (*ParquetReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	r, err := NewParquetReader(f, st.Size(), path)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.closer = f
	return r, nil
}

// NewParquetReader reads the footer of the Parquet file of the given size in
// r; file names r in errors. The columns are the top-level fields of the
// file's schema.
func NewParquetReader(r io.ReaderAt, size int64, file string) (pr *ParquetReader, err error) {
	// A malformed footer can make the library panic; it is bad input, so it
	// becomes an error.
	defer func() {
		if p := recover(); p != nil {
			pr, err = nil, &ParseError{File: file, Err: fmt.Errorf("not a valid Parquet file: %v", p)}
		}
	}()
	if err := checkParquetFooter(r, size); err != nil {
		return nil, &ParseError{File: file, Err: fmt.Errorf("not a valid Parquet file: %w", err)}
	}
	pf, err := parquet.OpenFile(r, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true),
		parquet.ReadBufferSize(64<<10))
	if err != nil {
		return nil, &ParseError{File: file, Err: fmt.Errorf("not a Parquet file: %w", err)}
	}
	pr = &ParquetReader{file: file, pf: pf, buf: make([]parquet.Row, rowBatch), ra: r, size: size}
	pr.leafTo = make([]int, len(pf.Schema().Columns()))
	for i := range pr.leafTo {
		pr.leafTo[i] = -1
	}
	for j, c := range pf.Root().Columns() {
		typ, cf := parquetType(c)
		pr.header = append(pr.header, c.Name())
		pr.types = append(pr.types, typ)
		pr.cells = append(pr.cells, cf)
		if cf.kind != fmtSkip {
			pr.leafTo[c.Index()] = j
		}
	}
	if len(pr.header) == 0 {
		return nil, &ParseError{File: file, Err: fmt.Errorf("%w: the Parquet schema has no columns", ErrEmptyFile)}
	}
	pr.fields = make([][]byte, len(pr.header))
	pr.ends = make([]int, len(pr.header))
	return pr, nil
}

// parquetType maps a top-level column of a Parquet schema to the type fp
// reads it as, and says how its values become text.
func parquetType(c *parquet.Column) (ColumnType, cellFormat) {
	if !c.Leaf() {
		return ColumnType{Kind: Unsupported, Name: "nested (group)", Parquet: ParquetString}, cellFormat{}
	}
	t := c.Type()
	name := t.Kind().String()
	lt := t.LogicalType()
	if lt != nil && lt.Value != nil {
		name += " (" + lt.String() + ")"
	}
	if c.Repeated() {
		return ColumnType{Kind: Unsupported, Name: "repeated " + name, Parquet: ParquetString}, cellFormat{}
	}
	var (
		dec      *format.DecimalType
		unsigned bool
	)
	if lt != nil {
		switch v := lt.Value.(type) {
		case *format.DecimalType:
			dec = v
		case *format.IntType:
			unsigned = !v.IsSigned
		}
	}
	num := func(f cellFormat, p ParquetType) (ColumnType, cellFormat) {
		return ColumnType{Kind: NumberValue, Name: name, Parquet: p}, f
	}
	// A DECIMAL's scale says how many digits of its unscaled integer follow
	// the point; the footer may claim any, and a cell is written with that
	// many digits. The Parquet format allows 0 ≤ scale ≤ precision, and at
	// most 9 digits in an INT32, 18 in an INT64: any other is not read.
	if dec != nil {
		most := int32(18)
		if t.Kind() == parquet.Int32 {
			most = 9
		}
		if dec.Precision < 1 || dec.Precision > most || dec.Scale < 0 || dec.Scale > dec.Precision {
			return ColumnType{Kind: Unsupported, Name: name, Parquet: ParquetString}, cellFormat{}
		}
	}
	switch k := t.Kind(); {
	case k == parquet.Boolean:
		return ColumnType{Kind: TextValue, Name: name, Parquet: ParquetBoolean}, cellFormat{kind: fmtBool}
	case (k == parquet.Int32 || k == parquet.Int64) && dec != nil:
		return num(cellFormat{kind: fmtDecimal, scale: int(dec.Scale)}, ParquetString)
	case k == parquet.Int32 && unsigned:
		return num(cellFormat{kind: fmtUint}, ParquetInt64)
	case k == parquet.Int64 && unsigned:
		return num(cellFormat{kind: fmtUint}, ParquetString)
	case k == parquet.Int32:
		return num(cellFormat{kind: fmtInt}, ParquetInt32)
	case k == parquet.Int64:
		return num(cellFormat{kind: fmtInt}, ParquetInt64)
	case k == parquet.Float:
		return num(cellFormat{kind: fmtFloat}, ParquetFloat)
	case k == parquet.Double:
		return num(cellFormat{kind: fmtDouble}, ParquetDouble)
	case k == parquet.ByteArray && dec == nil:
		return ColumnType{Kind: TextValue, Name: name, Parquet: ParquetString}, cellFormat{kind: fmtText}
	}
	return ColumnType{Kind: Unsupported, Name: name, Parquet: ParquetString}, cellFormat{}
}

// File is the name the reader reports in errors.
func (r *ParquetReader) File() string { return r.file }

// Header lists the names of the file's top-level columns.
func (r *ParquetReader) Header() []string { return r.header }

// Types gives each column's type.
func (r *ParquetReader) Types() []ColumnType { return r.types }

// Pos is the 1-based number of the last row Next returned.
func (r *ParquetReader) Pos() Position { return Position{Row: r.row} }

// RowGroup is the 1-based number of the row group the last row came from.
func (r *ParquetReader) RowGroup() int { return r.g }

// NumRows is the number of rows the file's footer declares.
func (r *ParquetReader) NumRows() int64 { return r.pf.NumRows() }

// Close closes the file OpenParquet opened.
func (r *ParquetReader) Close() error {
	if r.rows != nil {
		r.rows.Close()
		r.rows = nil
	}
	if r.closer == nil {
		return nil
	}
	err := r.closer.Close()
	r.closer = nil
	return err
}

// Next returns the cells of the next row, or io.EOF after the last: a null
// is an empty cell, numbers are written as the package documentation
// says, strings are trimmed of surrounding white space.
func (r *ParquetReader) Next() (fields [][]byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			fields, err = nil, &ParseError{File: r.file, Row: r.row + 1, Err: fmt.Errorf("not a valid Parquet file: %v", p)}
		}
	}()
	for r.i == r.n {
		if err := r.fill(); err != nil {
			return nil, err
		}
	}
	row := r.buf[r.i]
	r.i++
	r.row++
	r.text = r.text[:0]
	last := -1
	for _, v := range row {
		j := r.leafTo[v.Column()]
		if j < 0 {
			continue
		}
		// Top-level leaves come in header order, one value each.
		for k := last + 1; k < j; k++ {
			r.ends[k] = len(r.text)
		}
		last = j
		if !v.IsNull() {
			r.text = r.appendCell(r.text, v, r.cells[j])
		}
		r.ends[j] = len(r.text)
	}
	for k := last + 1; k < len(r.ends); k++ {
		r.ends[k] = len(r.text)
	}
	from := 0
	for j, end := range r.ends {
		r.fields[j] = r.text[from:end:end]
		from = end
	}
	return r.fields, nil
}

// fill decodes the next batch of rows, moving on to the next row group at
// the end of one.
func (r *ParquetReader) fill() error {
	if r.rows == nil {
		groups := r.pf.RowGroups()
		if r.g == len(groups) {
			return io.EOF
		}
		if err := r.checkPages(r.g); err != nil {
			return &ParseError{File: r.file, Row: r.row + 1, Err: fmt.Errorf("not a valid Parquet file: row group %d: %w", r.g+1, err)}
		}
		r.rows = groups[r.g].Rows()
		r.g++
	}
	n, err := r.rows.ReadRows(r.buf)
	r.i, r.n = 0, n
	if err == io.EOF {
		err = r.rows.Close()
		r.rows = nil
	}
	if err != nil {
		return &ParseError{File: r.file, Row: r.row + 1, Err: fmt.Errorf("reading row group %d: %w", r.g, err)}
	}
	return nil
}

// checkPages checks the page headers of every column chunk of row group g
// (checkParquetPages) before the library allocates what they declare.
func (r *ParquetReader) checkPages(g int) error {
	groups := r.pf.Metadata().RowGroups
	if g >= len(groups) {
		return nil
	}
	for _, c := range groups[g].Columns {
		m := &c.MetaData
		// The library's LZ4_RAW decoder retries a block that fails with an
		// output buffer twice as large, without end: one damaged page makes
		// it allocate until memory runs out. Such columns are refused.
		if m.Codec == format.Lz4Raw {
			return fmt.Errorf("column %s: compressed with LZ4_RAW, which fp does not read (its decoder does not stop on damaged data); write the file with Snappy, Gzip or Zstd compression, e.g. pyarrow's compression=\"snappy\"",
				printable.String(strings.Join(m.PathInSchema, ".")))
		}
		start := m.DataPageOffset
		if d := m.DictionaryPageOffset; d > 0 && d < start {
			start = d
		}
		if err := checkParquetPages(r.ra, r.size, start, m.TotalCompressedSize); err != nil {
			return fmt.Errorf("column %s: %w", printable.String(strings.Join(m.PathInSchema, ".")), err)
		}
	}
	return nil
}

// appendCell appends the text of a non-null value.
func (r *ParquetReader) appendCell(b []byte, v parquet.Value, f cellFormat) []byte {
	switch f.kind {
	case fmtBool:
		return strconv.AppendBool(b, v.Boolean())
	case fmtInt:
		return strconv.AppendInt(b, v.Int64(), 10)
	case fmtUint:
		if v.Kind() == parquet.Int32 {
			return strconv.AppendUint(b, uint64(uint32(v.Int32())), 10)
		}
		return strconv.AppendUint(b, uint64(v.Int64()), 10)
	case fmtDecimal:
		return appendDecimal(b, v.Int64(), f.scale)
	case fmtFloat:
		// The shortest decimal that reads back to the same float32: what a
		// CSV writer writes, so the value is the one a CSV copy holds.
		return strconv.AppendFloat(b, float64(v.Float()), 'g', -1, 32)
	case fmtDouble:
		return strconv.AppendFloat(b, v.Double(), 'g', -1, 64)
	case fmtText:
		return append(b, bytes.TrimSpace(v.ByteArray())...)
	}
	return b
}

// appendDecimal writes the unscaled value u of a DECIMAL with the given
// scale exactly, e.g. 12345 with scale 2 as 123.45.
func appendDecimal(b []byte, u int64, scale int) []byte {
	if scale <= 0 {
		b = strconv.AppendInt(b, u, 10)
		for range -scale {
			b = append(b, '0')
		}
		return b
	}
	mag := uint64(u)
	if u < 0 {
		b = append(b, '-')
		mag = -mag
	}
	digits := strconv.AppendUint(nil, mag, 10)
	for len(digits) <= scale {
		digits = append([]byte{'0'}, digits...)
	}
	b = append(b, digits[:len(digits)-scale]...)
	b = append(b, '.')
	return append(b, digits[len(digits)-scale:]...)
}

// ParquetType is the type of a column fp writes to a Parquet file.
type ParquetType uint8

// The Parquet types fp writes. Every column is optional: an empty cell is
// a null.
const (
	ParquetString  ParquetType = iota // BYTE_ARRAY (STRING)
	ParquetBoolean                    // BOOLEAN: true or false
	ParquetInt32                      // INT32
	ParquetInt64                      // INT64
	ParquetFloat                      // FLOAT
	ParquetDouble                     // DOUBLE
)

// ParquetColumn is a column of a Parquet file fp writes.
type ParquetColumn struct {
	Name string
	Type ParquetType
}

// ParquetWriter writes rows of text cells to a Parquet file, converting
// each cell to its column's type, in row groups of at most
// ParquetRowGroupRows rows.
type ParquetWriter struct {
	w    *parquet.GenericWriter[any]
	cols []ParquetColumn
	row  parquet.Row
	one  []parquet.Row
}

// ParquetRowGroupRows is the most rows a row group written by fp holds;
// readers such as fp predict stream a file one row group at a time.
const ParquetRowGroupRows = 64 << 10

// NewParquetWriter starts a Parquet file with the given columns, in order,
// on out; Close finishes it.
func NewParquetWriter(out io.Writer, cols []ParquetColumn) (*ParquetWriter, error) {
	fields := make([]parquet.Field, len(cols))
	group := parquet.Group{}
	for i, c := range cols {
		if _, dup := group[c.Name]; dup {
			return nil, fmt.Errorf("parquet: column %q listed twice", c.Name)
		}
		var n parquet.Node
		switch c.Type {
		case ParquetString:
			n = parquet.String()
		case ParquetBoolean:
			n = parquet.Leaf(parquet.BooleanType)
		case ParquetInt32:
			n = parquet.Leaf(parquet.Int32Type)
		case ParquetInt64:
			n = parquet.Leaf(parquet.Int64Type)
		case ParquetFloat:
			n = parquet.Leaf(parquet.FloatType)
		case ParquetDouble:
			n = parquet.Leaf(parquet.DoubleType)
		default:
			return nil, fmt.Errorf("parquet: column %q: unknown type %d", c.Name, c.Type)
		}
		n = parquet.Optional(n)
		group[c.Name] = n
		fields[i] = namedField{Node: n, name: c.Name}
	}
	schema := parquet.NewSchema("fp", orderedGroup{Group: group, fields: fields})
	w := parquet.NewGenericWriter[any](out, schema, parquet.MaxRowsPerRowGroup(ParquetRowGroupRows),
		parquet.Compression(&parquet.Snappy), parquet.CreatedBy("fp", "", ""))
	return &ParquetWriter{w: w, cols: cols, row: make(parquet.Row, len(cols)), one: make([]parquet.Row, 1)}, nil
}

// Write writes one row, a cell per column: an empty cell is a null, any
// other is converted to the column's type (an error names the column when
// it cannot be).
func (w *ParquetWriter) Write(cells [][]byte) error {
	if len(cells) != len(w.cols) {
		return fmt.Errorf("parquet: %d cells for %d columns", len(cells), len(w.cols))
	}
	for j, c := range w.cols {
		s := cells[j]
		if len(s) == 0 {
			w.row[j] = parquet.NullValue().Level(0, 0, j)
			continue
		}
		var v parquet.Value
		var err error
		switch c.Type {
		case ParquetString:
			v = parquet.ByteArrayValue(s)
		case ParquetBoolean:
			var b bool
			b, err = strconv.ParseBool(string(s))
			v = parquet.BooleanValue(b)
		case ParquetInt32:
			var i int64
			i, err = strconv.ParseInt(string(s), 10, 32)
			v = parquet.Int32Value(int32(i))
		case ParquetInt64:
			var i int64
			i, err = strconv.ParseInt(string(s), 10, 64)
			v = parquet.Int64Value(i)
		case ParquetFloat:
			var f float64
			f, err = strconv.ParseFloat(string(s), 32)
			v = parquet.FloatValue(float32(f))
		case ParquetDouble:
			var f float64
			f, err = strconv.ParseFloat(string(s), 64)
			v = parquet.DoubleValue(f)
		}
		if err != nil {
			var ne *strconv.NumError
			if errors.As(err, &ne) {
				err = ne.Err
			}
			return fmt.Errorf("column %q: %q does not fit its Parquet type (%s): %w", c.Name, s, c.Type, err)
		}
		w.row[j] = v.Level(0, 1, j)
	}
	w.one[0] = w.row
	_, err := w.w.WriteRows(w.one)
	return err
}

// Close writes the last row group and the footer; it does not close out.
func (w *ParquetWriter) Close() error { return w.w.Close() }

func (t ParquetType) String() string {
	switch t {
	case ParquetString:
		return "BYTE_ARRAY (STRING)"
	case ParquetBoolean:
		return "BOOLEAN"
	case ParquetInt32:
		return "INT32"
	case ParquetInt64:
		return "INT64"
	case ParquetFloat:
		return "FLOAT"
	case ParquetDouble:
		return "DOUBLE"
	}
	return fmt.Sprintf("ParquetType(%d)", uint8(t))
}

// orderedGroup is a Parquet group whose fields keep the order they were
// given in (parquet.Group sorts them by name).
type orderedGroup struct {
	parquet.Group
	fields []parquet.Field
}

func (g orderedGroup) Fields() []parquet.Field { return g.fields }

type namedField struct {
	parquet.Node
	name string
}

func (f namedField) Name() string { return f.name }

// Value is for writing Go structs, which fp never does.
func (f namedField) Value(reflect.Value) reflect.Value { return reflect.Value{} }
