package datasets

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeCSV(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "data.csv")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var basic = CSVOptions{Target: "y", Sensitive: "g"}

func TestLoadCSVErrors(t *testing.T) {
	for _, tc := range []struct {
		name       string
		text       string
		opt        CSVOptions
		kind       error
		line, col  int
		mentioning []string // text the message must contain
	}{
		{name: "missing column", text: "x,y,group\n1,0,a\n2,1,b\n", opt: basic,
			kind: ErrMissingColumn, line: 1, mentioning: []string{`"g"`, `"group"`}},
		{name: "three-valued target", text: "x,y,g\n1,a,u\n2,b,v\n3,c,v\n", opt: basic,
			kind: ErrNotBinary, col: 2, mentioning: []string{"(y)", `"a", "b", "c"`, "found 3"}},
		{name: "one-valued sensitive", text: "x,y,g\n1,0,u\n2,1,u\n", opt: basic,
			kind: ErrNotBinary, col: 3, mentioning: []string{"(g)", `"u"`}},
		{name: "empty cell", text: "x,y,g\n1,0,u\n,1,v\n", opt: basic,
			kind: ErrEmptyCell, line: 3, col: 1, mentioning: []string{"(x)", "--drop-missing"}},
		{name: "blank cell", text: "x,y,g\n1,0,u\n2,  ,v\n", opt: basic,
			kind: ErrEmptyCell, line: 3, col: 2, mentioning: []string{"(y)"}},
		{name: "ragged row", text: "x,y,g\n1,0,u\n2,1\n3,1,v\n", opt: basic,
			kind: ErrFieldCount, line: 3, mentioning: []string{"expected 3 fields", "got 2"}},
		{name: "empty file", text: "", opt: basic, kind: ErrEmptyFile},
		{name: "header only", text: "x,y,g\n", opt: basic, kind: ErrNoRows},
		{name: "group emptied by dropping", text: "x,y,g\n1,0,u\n2,1,u\n,1,v\n3,0,u\n", opt: CSVOptions{Target: "y", Sensitive: "g", DropMissing: true},
			kind: ErrEmptyGroup, col: 3, mentioning: []string{`"v"`, "dropping 1 rows"}},
		{name: "class emptied by dropping", text: "x,y,g\n1,0,u\n,1,v\n3,0,v\n", opt: CSVOptions{Target: "y", Sensitive: "g", DropMissing: true},
			kind: ErrEmptyGroup, col: 2, mentioning: []string{`"1"`}},
		{name: "all rows dropped", text: "x,y,g\n,0,u\n2,,v\n", opt: CSVOptions{Target: "y", Sensitive: "g", DropMissing: true},
			kind: ErrNoRows},
		{name: "NaN", text: "x,y,g\n1,0,u\nNaN,1,v\n", opt: basic,
			kind: ErrNotFinite, line: 3, col: 1, mentioning: []string{`"NaN"`}},
		{name: "Inf", text: "x,y,g\n1,0,u\n2,1,v\n-Inf,1,v\n", opt: basic,
			kind: ErrNotFinite, line: 4, col: 1},
		{name: "overflow", text: "x,y,g\n1,0,u\n1e999,1,v\n", opt: basic,
			kind: ErrNotFinite, line: 3, col: 1},
		{name: "square overflows", text: "x,y,g\n1,0,u\n2,1,v\n-1e200,1,v\n", opt: basic,
			kind: ErrTooLarge, line: 4, col: 1, mentioning: []string{"(x)", `"-1e200"`, "6.7e+153"}},
		{name: "just above the limit", text: "x,y,g\n1,0,u\n6.71e153,1,v\n", opt: basic,
			kind: ErrTooLarge, line: 3, col: 1},
		{name: "positive not a value", text: "x,y,g\n1,0,u\n2,1,v\n", opt: CSVOptions{Target: "y", Sensitive: "g", Positive: "yes"},
			kind: ErrBadValue, col: 2, mentioning: []string{"--positive", `"yes"`, `"0", "1"`}},
		{name: "sensitive positive not a value", text: "x,y,g\n1,0,u\n2,1,v\n", opt: CSVOptions{Target: "y", Sensitive: "g", SensitivePositive: "w"},
			kind: ErrBadValue, col: 3, mentioning: []string{"--sensitive-positive"}},
		{name: "bare quote", text: "x,y,g\n1,0,u\n2,1,v\"w\n", opt: basic,
			kind: errors.New("any"), line: 3, mentioning: []string{"quote"}},
		{name: "line numbers count quoted newlines", text: "x,y,g\n\"a\nb\",0,u\nc,1\n", opt: basic,
			kind: ErrFieldCount, line: 4},
		{name: "duplicate column", text: "x,y,g,x\n1,0,u,2\n", opt: basic,
			kind: errors.New("any"), line: 1, col: 4, mentioning: []string{"duplicate"}},
		{name: "no features", text: "y,g\n0,u\n1,v\n", opt: basic,
			kind: errors.New("any"), line: 1, mentioning: []string{"no feature columns"}},
		{name: "only the row index besides", text: "fp_row,y,g\n0,0,u\n1,1,v\n", opt: basic,
			kind: errors.New("any"), line: 1, mentioning: []string{"no feature columns", "fp_row, the row index, is never a feature"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeCSV(t, tc.text)
			d, err := LoadCSV(path, tc.opt)
			if err == nil {
				t.Fatalf("loaded %d rows, want an error", d.N)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("error spans lines: %q", msg)
			}
			if !strings.Contains(msg, path) {
				t.Errorf("error %q does not name the file", msg)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %q (%T) is not a *ParseError", msg, err)
			}
			if tc.kind.Error() != "any" && !errors.Is(err, tc.kind) {
				t.Errorf("error %q is not %v", msg, tc.kind)
			}
			if pe.Line != tc.line || pe.Column != tc.col {
				t.Errorf("error %q at line %d, column %d, want line %d, column %d", msg, pe.Line, pe.Column, tc.line, tc.col)
			}
			for _, m := range tc.mentioning {
				if !strings.Contains(msg, m) {
					t.Errorf("error %q does not mention %s", msg, m)
				}
			}
		})
	}
}

func TestLoadCSVOptionErrors(t *testing.T) {
	path := writeCSV(t, "x,y,g\n1,0,u\n2,1,v\n")
	for _, opt := range []CSVOptions{{Sensitive: "g"}, {Target: "y"}, {Target: "y", Sensitive: "y"}} {
		if _, err := LoadCSV(path, opt); err == nil {
			t.Errorf("%+v: no error", opt)
		}
	}
	if _, err := LoadCSV(filepath.Join(t.TempDir(), "absent.csv"), basic); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("absent file: %v", err)
	}
}

func TestLoadCSVEncoding(t *testing.T) {
	path := writeCSV(t, "\ufeffage, color ,y,g,code\n"+
		"30,red,no,F,1\n"+
		"40.5,blue,yes,M,x\n"+
		"\n"+ // a blank line holds no row
		"25,,no,M,2\n"+
		"50,red,yes,F,1\n")
	d, err := LoadCSV(path, CSVOptions{Target: "y", Sensitive: "g", DropMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	want := &Dataset{
		Name: "data.csv", Sensitive: "g", Target: "y", Source: path,
		Columns: []string{"age", "color=blue", "color=red", "code=1", "code=x"},
		X: []float64{
			30, 0, 1, 1, 0,
			40.5, 1, 0, 0, 1,
			50, 0, 1, 1, 0,
		},
		Y: []float64{0, 1, 1}, A: []float64{0, 1, 0}, N: 3, Dim: 5,
		LabelPositive: "yes", GroupPositive: "M", Dropped: 1,
		Schema: Schema{
			Columns: []SourceColumn{
				{Name: "age", Kind: KindNumeric},
				{Name: "color", Kind: KindCategorical, Levels: []string{"blue", "red"}},
				{Name: "code", Kind: KindCategorical, Levels: []string{"1", "x"}},
			},
			Target: "y", TargetPositive: "yes", Sensitive: "g", SensitivePositive: "M",
			TargetNegative: "no", SensitiveNegative: "F",
		},
	}
	if len(d.ID) != 16 {
		t.Errorf("identity %q, want 16 hexadecimal digits", d.ID)
	}
	want.ID = d.ID // TestIdentity checks what it depends on
	if !reflect.DeepEqual(d, want) {
		t.Errorf("got  %+v\nwant %+v", d, want)
	}
}

func TestPositiveValue(t *testing.T) {
	for _, tc := range []struct {
		a, b, positive, want string
	}{
		{"0", "1", "", "1"},
		{"1", "2", "", "1"},
		{"no", "yes", "", "yes"},
		{"Yes", "No", "", "Yes"},
		{"False", "True", "", "True"},
		{"a", "b", "", "b"},
		{"b", "a", "", "b"},
		{"10", "9", "", "10"}, // numbers sort as numbers
		{"-1", "0", "", "0"},
		{"a", "b", "a", "a"},
	} {
		path := writeCSV(t, "x,y,g\n1,"+tc.a+",u\n2,"+tc.b+",v\n3,"+tc.a+",v\n")
		d, err := LoadCSV(path, CSVOptions{Target: "y", Sensitive: "g", Positive: tc.positive})
		if err != nil {
			t.Fatal(err)
		}
		wantY := []float64{0, 0, 0}
		for i, v := range []string{tc.a, tc.b, tc.a} {
			if v == tc.want {
				wantY[i] = 1
			}
		}
		if d.LabelPositive != tc.want || !reflect.DeepEqual(d.Y, wantY) {
			t.Errorf("values %q, %q, positive %q: coded %q as 1, y = %v; want %q, %v",
				tc.a, tc.b, tc.positive, d.LabelPositive, d.Y, tc.want, wantY)
		}
	}
}

// A column of identifiers, one-hot encoded, would make the feature matrix
// rows × rows: past 256 MiB and 64 times the cells read it is refused
// before it is allocated, naming the column and the flags that leave it
// out; a smaller one loads, with the identifier warning only.
func TestLoadCSVRefusesIdentifierEncoding(t *testing.T) {
	file := func(rows int) string {
		var b strings.Builder
		b.WriteString("y,g,x,name\n")
		for i := range rows {
			fmt.Fprintf(&b, "%d,%c,%d,person %d\n", i%2, 'u'+rune(i/2%2), i%7, i)
		}
		return writeCSV(t, b.String())
	}
	path := file(7000) // 7000 × 7001 cells: 392 MB
	_, err := LoadCSV(path, basic)
	var pe *ParseError
	if !errors.Is(err, ErrTooWide) || !errors.As(err, &pe) || pe.Name != "name" || pe.Column != 4 {
		t.Fatalf("err = %v, want %v at column 4 (name)", err, ErrTooWide)
	}
	for _, m := range []string{path, "7000 values", "7001 columns wide for 7000 rows", "(0.4 GB)", "--exclude", "--features"} {
		if !strings.Contains(err.Error(), m) {
			t.Errorf("error %q does not mention %s", err, m)
		}
	}
	d, err := LoadCSV(file(1000), basic)
	if err != nil {
		t.Fatal(err)
	}
	if d.Dim != 1001 || len(d.ColumnWarnings) == 0 || d.ColumnWarnings[len(d.ColumnWarnings)-1].Column != "name" {
		t.Errorf("1000 rows: dim %d, warnings %v; want 1001 columns and a warning about name", d.Dim, d.ColumnWarnings)
	}
}
