package datasets

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
)

// pqCol is a column of a Parquet file written by a test: its node and a
// value maker for each row (nil: a null).
type pqCol struct {
	name string
	node parquet.Node
	vals []any
}

// writeParquet writes cols as a Parquet file, rowsPerGroup rows to a row
// group (0: one group), with parquet-go itself rather than fp's writer.
func writeParquet(t testing.TB, path string, rowsPerGroup int, cols ...pqCol) {
	t.Helper()
	group := parquet.Group{}
	fields := make([]parquet.Field, len(cols))
	for j, c := range cols {
		n := parquet.Optional(c.node)
		group[c.name] = n
		fields[j] = namedField{Node: n, name: c.name}
	}
	schema := parquet.NewSchema("test", orderedGroup{Group: group, fields: fields})
	var buf bytes.Buffer
	opts := []parquet.WriterOption{schema}
	if rowsPerGroup > 0 {
		opts = append(opts, parquet.MaxRowsPerRowGroup(int64(rowsPerGroup)))
	}
	w := parquet.NewGenericWriter[any](&buf, opts...)
	for i := range cols[0].vals {
		row := make(parquet.Row, len(cols))
		for j, c := range cols {
			if c.vals[i] == nil {
				row[j] = parquet.NullValue().Level(0, 0, j)
				continue
			}
			var v parquet.Value
			switch x := c.vals[i].(type) {
			case deprecated.Int96:
				v = parquet.Int96Value(x)
			case [4]byte:
				v = parquet.FixedLenByteArrayValue(x[:])
			default:
				v = parquet.ValueOf(x)
			}
			row[j] = v.Level(0, 1, j)
		}
		if _, err := w.WriteRows([]parquet.Row{row}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// everyType has a column of every type fp reads, and two it cannot, each
// with a null in row 3.
func everyType() []pqCol {
	return []pqCol{
		{"i32", parquet.Leaf(parquet.Int32Type), []any{int32(-7), int32(0), nil, int32(2147483647)}},
		{"i64", parquet.Leaf(parquet.Int64Type), []any{int64(-9007199254740993), int64(1), nil, int64(42)}},
		{"u32", parquet.Uint(32), []any{int32(-1), int32(3), nil, int32(0)}},
		{"dec", parquet.Decimal(2, 9, parquet.Int32Type), []any{int32(12345), int32(-5), nil, int32(100)}},
		{"f32", parquet.Leaf(parquet.FloatType), []any{float32(0.1), float32(-2.5), nil, float32(3)}},
		{"f64", parquet.Leaf(parquet.DoubleType), []any{0.1, 1e300, nil, math.Copysign(0, -1)}},
		{"date", parquet.Date(), []any{int32(19000), int32(0), nil, int32(-1)}},
		{"flag", parquet.Leaf(parquet.BooleanType), []any{true, false, nil, true}},
		{"name", parquet.String(), []any{" Ann ", "", nil, "42"}},
		{"blob", parquet.Leaf(parquet.ByteArrayType), []any{[]byte("x"), []byte("y,z"), nil, []byte(`"q"`)}},
		{"old", parquet.Leaf(parquet.Int96Type), []any{deprecated.Int96{1, 2, 3}, deprecated.Int96{}, nil, deprecated.Int96{}}},
		{"fixed", parquet.Leaf(parquet.FixedLenByteArrayType(4)), []any{[4]byte{1}, [4]byte{}, nil, [4]byte{}}},
	}
}

// A Parquet file of every type reads as the package documentation says:
// numbers as their shortest decimal form, booleans as true/false, strings
// trimmed, nulls (and empty strings) as empty cells.
func TestParquetReaderTypes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "every.parquet")
	writeParquet(t, path, 0, everyType()...)
	src, err := OpenRows(path, "")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	wantHeader := []string{"i32", "i64", "u32", "dec", "f32", "f64", "date", "flag", "name", "blob", "old", "fixed"}
	if !reflect.DeepEqual(src.Header(), wantHeader) {
		t.Fatalf("header %q, want %q", src.Header(), wantHeader)
	}
	var kinds []ValueKind
	for _, typ := range src.Types() {
		kinds = append(kinds, typ.Kind)
	}
	N, T, U := NumberValue, TextValue, Unsupported
	if want := []ValueKind{N, N, N, N, N, N, N, T, T, T, U, U}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("kinds %v, want %v", kinds, want)
	}
	if n := src.Types()[8].Name; n != "BYTE_ARRAY (STRING)" {
		t.Errorf("the string column's type is named %q", n)
	}
	want := [][]string{
		{"-7", "-9007199254740993", "4294967295", "123.45", "0.1", "0.1", "19000", "true", "Ann", "x", "", ""},
		{"0", "1", "3", "-0.05", "-2.5", "1e+300", "0", "false", "", "y,z", "", ""},
		{"", "", "", "", "", "", "", "", "", "", "", ""},
		{"2147483647", "42", "0", "1.00", "3", "-0", "-1", "true", "42", `"q"`, "", ""},
	}
	for i, w := range want {
		fields, err := src.Next()
		if err != nil {
			t.Fatalf("row %d: %v", i+1, err)
		}
		var got []string
		for _, f := range fields {
			got = append(got, string(f))
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("row %d: %q\nwant     %q", i+1, got, w)
		}
		if p := src.Pos(); p != (Position{Row: i + 1}) {
			t.Errorf("row %d: position %+v", i+1, p)
		}
	}
	if _, err := src.Next(); err != io.EOF {
		t.Errorf("after the last row: %v, want io.EOF", err)
	}
}

// Loading a Parquet file codes it as the CSV of the same values is coded,
// except that a string column stays categorical even when its values are
// numbers, and nulls are empty cells that --drop-missing drops.
func TestLoadParquet(t *testing.T) {
	dir := t.TempDir()
	pq := filepath.Join(dir, "d.parquet")
	writeParquet(t, pq, 2,
		pqCol{"x", parquet.Leaf(parquet.DoubleType), []any{1.5, 2.0, nil, 4.0, 5.0, 6.0}},
		pqCol{"n", parquet.Leaf(parquet.Int64Type), []any{int64(1), int64(2), int64(3), int64(4), int64(5), int64(6)}},
		pqCol{"code", parquet.String(), []any{"10", "20", "10", "20", "10", "20"}},
		pqCol{"flag", parquet.Leaf(parquet.BooleanType), []any{true, false, false, true, true, false}},
		pqCol{"y", parquet.Leaf(parquet.BooleanType), []any{true, false, true, false, true, false}},
		pqCol{"g", parquet.String(), []any{"f", "m", "f", "m", "m", "f"}},
	)
	_, err := LoadCSV(pq, CSVOptions{Target: "y", Sensitive: "g"})
	if !errors.Is(err, ErrEmptyCell) || err.Error() != pq+`, row 3, column 1 (x): empty cell: expected a value (--drop-missing drops rows with empty cells)` {
		t.Fatalf("null without --drop-missing: %v", err)
	}
	d, err := LoadCSV(pq, CSVOptions{Target: "y", Sensitive: "g", DropMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	wantCols := []string{"x", "n", "code=10", "code=20", "flag=false", "flag=true"}
	if !reflect.DeepEqual(d.Columns, wantCols) || d.Dropped != 1 || d.N != 5 {
		t.Fatalf("columns %q, %d rows, %d dropped", d.Columns, d.N, d.Dropped)
	}
	if d.LabelPositive != "true" || d.GroupPositive != "m" || d.Name != "d.parquet" {
		t.Errorf("coding %q, %q; name %q", d.LabelPositive, d.GroupPositive, d.Name)
	}

	// The same values as a CSV: the numeric-looking code is numeric there.
	csv := filepath.Join(dir, "d.csv")
	os.WriteFile(csv, []byte("x,n,code,flag,y,g\n1.5,1,10,true,true,f\n2,2,20,false,false,m\n,3,10,false,true,f\n4,4,20,true,false,m\n5,5,10,true,true,m\n6,6,20,false,false,f\n"), 0o644)
	c, err := LoadCSV(csv, CSVOptions{Target: "y", Sensitive: "g", DropMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"x", "n", "code", "flag=false", "flag=true"}; !reflect.DeepEqual(c.Columns, want) {
		t.Fatalf("CSV columns %q", c.Columns)
	}
	if !reflect.DeepEqual(c.Y, d.Y) || !reflect.DeepEqual(c.A, d.A) {
		t.Errorf("labels or groups differ: %v %v / %v %v", c.Y, c.A, d.Y, d.A)
	}
	for i := range d.N {
		if d.X[i*d.Dim] != c.X[i*c.Dim] || d.X[i*d.Dim+1] != c.X[i*c.Dim+1] {
			t.Errorf("row %d: numeric values differ", i)
		}
	}
}

// Bad Parquet input ends in one line naming the file, the row (not a line)
// and the column, and what was expected.
func TestParquetErrors(t *testing.T) {
	dir := t.TempDir()
	y := pqCol{"y", parquet.Leaf(parquet.Int32Type), []any{int32(0), int32(1), int32(0), int32(1)}}
	g := pqCol{"g", parquet.String(), []any{"a", "b", "b", "a"}}
	cases := []struct {
		name string
		cols []pqCol
		opt  CSVOptions
		kind error
		want string
	}{
		{"NaN", []pqCol{{"x", parquet.Leaf(parquet.DoubleType), []any{1.0, 2.0, math.NaN(), 4.0}}, y, g}, basic,
			ErrNotFinite, `, row 3, column 1 (x): expected a finite number, got "NaN"`},
		{"infinity", []pqCol{{"x", parquet.Leaf(parquet.FloatType), []any{float32(1), float32(math.Inf(-1)), float32(3), float32(4)}}, y, g}, basic,
			ErrNotFinite, `, row 2, column 1 (x): expected a finite number, got "-Inf"`},
		{"null target", []pqCol{{"x", parquet.Leaf(parquet.Int64Type), []any{int64(1), int64(2), int64(3), int64(4)}},
			{"y", parquet.Leaf(parquet.Int32Type), []any{int32(0), nil, int32(0), int32(1)}}, g}, basic,
			ErrEmptyCell, `, row 2, column 2 (y): empty cell`},
		{"unsupported type", []pqCol{{"t", parquet.Leaf(parquet.Int96Type), []any{deprecated.Int96{}, deprecated.Int96{}, deprecated.Int96{}, deprecated.Int96{}}}, y, g}, basic,
			ErrBadType, `, column 1 (t): wrong column type: a column of type INT96, expected numbers (INT32, INT64, FLOAT, DOUBLE), strings or booleans`},
		{"missing target", []pqCol{{"x", parquet.Leaf(parquet.Int64Type), []any{int64(1), int64(2), int64(3), int64(4)}}, y, g},
			CSVOptions{Target: "label", Sensitive: "g"}, ErrMissingColumn, `: column not found: no target column "label" in the header (columns: "x", "y", "g")`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".parquet")
			writeParquet(t, path, 0, tc.cols...)
			_, err := LoadCSV(path, tc.opt)
			if !errors.Is(err, tc.kind) {
				t.Fatalf("err = %v, want %v", err, tc.kind)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, path+tc.want) || strings.Contains(msg, "\n") || strings.Contains(msg, "line") {
				t.Errorf("message %q\nwant     %q", msg, path+tc.want)
			}
		})
	}

	// Not Parquet at all, or cut short: one line naming the file.
	for name, data := range map[string][]byte{
		"text.parquet":      []byte("x,y,g\n1,0,a\n"),
		"empty.parquet":     nil,
		"truncated.parquet": truncatedParquet(t, dir),
	} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, data, 0o644)
		_, err := LoadCSV(path, basic)
		if err == nil || !strings.HasPrefix(err.Error(), path+": ") && !strings.HasPrefix(err.Error(), path+", row ") ||
			strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

// truncatedParquet is a valid Parquet file with bytes cut from its middle.
func truncatedParquet(t *testing.T, dir string) []byte {
	path := filepath.Join(dir, "whole.parquet")
	vals := make([]any, 1000)
	for i := range vals {
		vals[i] = float64(i)
	}
	writeParquet(t, path, 0, pqCol{"x", parquet.Leaf(parquet.DoubleType), vals})
	b, _ := os.ReadFile(path)
	return append(b[:100:100], b[len(b)-200:]...)
}

// A string column where a network reads numbers is refused when the file
// is opened, naming the column and both types.
func TestEncoderChecksParquetTypes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rows.parquet")
	writeParquet(t, path, 0,
		pqCol{"age", parquet.String(), []any{"30"}},
		pqCol{"colour", parquet.String(), []any{"red"}},
	)
	s := &Schema{Columns: []SourceColumn{{Name: "colour", Kind: KindCategorical, Levels: []string{"red"}}, {Name: "age", Kind: KindNumeric}}}
	src, err := OpenRows(path, "")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	_, err = s.NewEncoder(src)
	want := path + ", column 1 (age): wrong column type: a column of type BYTE_ARRAY (STRING), expected numbers (INT32, INT64, FLOAT or DOUBLE): the network reads it as numeric"
	if !errors.Is(err, ErrBadType) || err.Error() != want {
		t.Errorf("err = %v\nwant  %s", err, want)
	}
}

// recordingReaderAt notes the furthest byte read before the footer.
type recordingReaderAt struct {
	r      io.ReaderAt
	footer int64
	mu     sync.Mutex
	max    int64
}

func (r *recordingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	r.mu.Lock()
	if off < r.footer {
		r.max = max(r.max, min(off+int64(len(p)), r.footer))
	}
	r.mu.Unlock()
	return r.r.ReadAt(p, off)
}

// The reader streams: until the last row of a row group is returned it has
// read nothing of the next row group, so memory holds one row group's pages
// at most, never a whole column.
func TestParquetReaderStreamsRowGroups(t *testing.T) {
	const perGroup, groups = 1000, 4
	var x, s []any
	for i := range perGroup * groups {
		x = append(x, float64(i)*1.25)
		s = append(s, strings.Repeat("v", i%7))
	}
	path := filepath.Join(t.TempDir(), "groups.parquet")
	writeParquet(t, path, perGroup, pqCol{"x", parquet.Leaf(parquet.DoubleType), x}, pqCol{"s", parquet.String(), s})
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pf, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	md := pf.Metadata()
	if len(md.RowGroups) != groups {
		t.Fatalf("%d row groups written, want %d", len(md.RowGroups), groups)
	}
	start := func(g int) int64 { // first byte of row group g
		first := int64(math.MaxInt64)
		for _, c := range md.RowGroups[g].Columns {
			off := c.MetaData.DataPageOffset
			if c.MetaData.DictionaryPageOffset > 0 {
				off = min(off, c.MetaData.DictionaryPageOffset)
			}
			first = min(first, off)
		}
		return first
	}
	footer := int64(len(b)) - 8 - int64(uint32(b[len(b)-8])|uint32(b[len(b)-7])<<8|uint32(b[len(b)-6])<<16|uint32(b[len(b)-5])<<24)
	rec := &recordingReaderAt{r: bytes.NewReader(b), footer: footer}
	r, err := NewParquetReader(rec, int64(len(b)), path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range perGroup * groups {
		fields, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		g := i / perGroup
		if r.RowGroup() != g+1 {
			t.Fatalf("row %d from row group %d, want %d", i+1, r.RowGroup(), g+1)
		}
		if i%perGroup == perGroup-1 && g+1 < groups && rec.max > start(g+1) {
			t.Fatalf("after the last row of row group %d, bytes up to %d were read; row group %d starts at %d",
				g+1, rec.max, g+2, start(g+1))
		}
		if want := strings.Repeat("v", i%7); string(fields[1]) != want {
			t.Fatalf("row %d: %q, want %q", i+1, fields[1], want)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after the last row: %v", err)
	}
}

// What fp writes reads back cell for cell, with each column's type.
func TestParquetWriterRoundTrip(t *testing.T) {
	cols := []ParquetColumn{{"s", ParquetString}, {"b", ParquetBoolean}, {"i", ParquetInt32},
		{"l", ParquetInt64}, {"f", ParquetFloat}, {"d", ParquetDouble}}
	rows := [][]string{
		{"a,b", "true", "-2147483648", "9007199254740993", "0.1", "0.30000000000000004"},
		{"", "", "", "", "", ""},
		{"x", "false", "7", "-1", "1e+30", "5e-324"},
	}
	var buf bytes.Buffer
	w, err := NewParquetWriter(&buf, cols)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		cells := make([][]byte, len(row))
		for j, c := range row {
			cells[j] = []byte(c)
		}
		if err := w.Write(cells); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := NewParquetReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "out.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"s", "b", "i", "l", "f", "d"}; !reflect.DeepEqual(r.Header(), want) {
		t.Errorf("header %q: the columns' order is lost", r.Header())
	}
	for j, typ := range r.Types() {
		if typ.Parquet != cols[j].Type {
			t.Errorf("column %s reads back as %v", cols[j].Name, typ.Parquet)
		}
	}
	for i, want := range rows {
		fields, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		for j, f := range fields {
			if string(f) != want[j] {
				t.Errorf("row %d, column %s: %q, want %q", i+1, cols[j].Name, f, want[j])
			}
		}
	}

	// A cell its column's type cannot hold is an error naming the column.
	w, _ = NewParquetWriter(io.Discard, cols[2:3])
	if err := w.Write([][]byte{[]byte("2147483648")}); err == nil || !strings.Contains(err.Error(), `column "i"`) {
		t.Errorf("an INT32 overflow: err = %v", err)
	}
	if _, err := NewParquetWriter(io.Discard, []ParquetColumn{{"a", ParquetDouble}, {"a", ParquetString}}); err == nil {
		t.Error("a column listed twice is accepted")
	}
}

// A DECIMAL whose scale or precision the Parquet format does not allow (a
// cell would be written with as many digits as the scale claims) is a type
// fp cannot read: refused by name when used, its cells never formatted.
func TestParquetDecimalOutOfRange(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name             string
		scale, precision int
		typ              parquet.Type
		ok               bool
	}{
		{"scale 2 of 9", 2, 9, parquet.Int32Type, true},
		{"scale 18 of 18", 18, 18, parquet.Int64Type, true},
		{"negative scale", -100_000_000, 9, parquet.Int32Type, false},
		{"scale above precision", 100_000, 9, parquet.Int32Type, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".parquet")
			v := any(int32(12345))
			if tc.typ == parquet.Int64Type {
				v = int64(12345)
			}
			writeParquet(t, path, 0, pqCol{"d", parquet.Decimal(tc.scale, tc.precision, tc.typ), []any{v, v, v, v}},
				pqCol{"y", parquet.Leaf(parquet.Int32Type), []any{int32(0), int32(1), int32(0), int32(1)}},
				pqCol{"g", parquet.String(), []any{"a", "b", "b", "a"}})
			d, err := LoadCSV(path, basic)
			if tc.ok {
				if err != nil || d.Dim != 1 {
					t.Fatalf("err = %v, want the column read", err)
				}
				return
			}
			if !errors.Is(err, ErrBadType) || !strings.Contains(err.Error(), "DECIMAL") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want a wrong column type naming the DECIMAL", err)
			}
		})
	}
}

// A column compressed with LZ4_RAW is refused in one line naming the
// codec and what to write instead: the library's decoder never stops on a
// damaged LZ4 page (testdata/fuzz/FuzzParquetReader/c5b063243bc178b3).
func TestParquetLZ4Refused(t *testing.T) {
	var buf bytes.Buffer
	schema := parquet.NewSchema("t", parquet.Group{"x": parquet.Optional(parquet.Leaf(parquet.Int32Type))})
	w := parquet.NewGenericWriter[any](&buf, schema, parquet.Compression(&parquet.Lz4Raw))
	for i := range 10 {
		if _, err := w.WriteRows([]parquet.Row{{parquet.Int32Value(int32(i)).Level(0, 1, 0)}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	pr, err := NewParquetReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "lz4.parquet")
	if err != nil {
		t.Fatal(err)
	}
	_, err = pr.Next()
	if err == nil || !strings.Contains(err.Error(), "lz4.parquet") || !strings.Contains(err.Error(), "column x: compressed with LZ4_RAW") ||
		!strings.Contains(err.Error(), "Snappy") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v, want one line refusing LZ4_RAW", err)
	}
}
