package datasets

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the embedded copies in embedded/ from the original files")

// originalsDir finds the original data files: $FP_DATA_DIR, else
// ../shared/data beside the module.
func originalsDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("FP_DATA_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "data")
	}
	if _, err := os.Stat(filepath.Join(dir, compasFile)); err != nil {
		if *update {
			t.Fatalf("cannot rebuild the embedded copies: %v (set FP_DATA_DIR to the folder with %s, %s and %s)",
				err, adultDataFile, adultTestFile, compasFile)
		}
		t.Skipf("original data files not found (%v); set FP_DATA_DIR to compare them with the embedded copies", err)
	}
	return dir
}

var sourceFiles = []struct {
	file      string
	firstLine int
}{{adultDataFile, 1}, {adultTestFile, 2}, {compasFile, 2}}

// TestEmbeddedCopies checks that each embedded copy holds exactly the
// values, column positions and line numbers of the original file; with
// -update it rewrites the copies (go generate runs it so).
func TestEmbeddedCopies(t *testing.T) {
	dir := originalsDir(t)
	for _, sf := range sourceFiles {
		orig, err := source(sf.file, dir)
		if err != nil {
			t.Fatal(err)
		}
		orig = forEmbedding(sf.file, orig)
		for i, l := range orig.lines {
			if int(l) != sf.firstLine+i {
				t.Fatalf("%s: row %d is on line %d, want %d: the embedded form assumes consecutive lines", sf.file, i, l, sf.firstLine+i)
			}
		}
		if *update {
			var buf bytes.Buffer
			if err := encodeTable(&buf, orig, sf.file, sf.firstLine); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.FromSlash(embeddedPath(sf.file)), buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s: %d bytes", embeddedPath(sf.file), buf.Len())
			continue
		}
		emb, err := readEmbedded(sf.file)
		if err != nil {
			t.Fatal(err)
		}
		if emb.rows() != orig.rows() || len(emb.cols) != len(orig.cols) {
			t.Fatalf("%s: embedded %d rows × %d columns, original %d × %d (run go generate)",
				sf.file, emb.rows(), len(emb.cols), orig.rows(), len(orig.cols))
		}
		if !reflect.DeepEqual(emb.lines, orig.lines) {
			t.Errorf("%s: line numbers differ", sf.file)
		}
		for j, c := range orig.cols {
			e := emb.cols[j]
			if e.name != c.name || e.field != c.field {
				t.Errorf("%s: column %d is %s (field %d), embedded %s (field %d)", sf.file, j, c.name, c.field, e.name, e.field)
				continue
			}
			for i := range orig.rows() {
				if e.value(i) != c.value(i) {
					t.Errorf("%s, line %d, %s: original %q, embedded %q (run go generate)", sf.file, orig.lines[i], c.name, c.value(i), e.value(i))
					break
				}
			}
		}
	}
}

// TestEmbeddedMatchesOriginals checks that every built-in dataset and
// preset is the same whether read from the originals or the embedded copies.
func TestEmbeddedMatchesOriginals(t *testing.T) {
	dir := originalsDir(t)
	for _, name := range Names() {
		for _, preset := range Presets(name) {
			emb, err := Load(name, Options{Preset: preset})
			if err != nil {
				t.Fatal(err)
			}
			orig, err := Load(name, Options{Preset: preset, DataDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			if emb.Source != "embedded" || orig.Source == "embedded" {
				t.Errorf("%s %s: sources %q and %q", name, preset, emb.Source, orig.Source)
			}
			emb.Source, orig.Source = "", ""
			if !reflect.DeepEqual(emb, orig) {
				t.Errorf("%s %s: the embedded copy gives different data from the originals in %s", name, preset, dir)
			}
		}
	}
}

// TestTableCodec round-trips a table through the embedded form, with one
// column of more than 256 levels (two-byte codes), and rejects damaged input.
func TestTableCodec(t *testing.T) {
	tab := &table{files: []string{"f"}}
	wide, narrow := newColumn("wide", 3), newColumn("narrow", 1)
	for i := range 1000 {
		wide.add(strconv.Itoa(i % 300 * 7))
		narrow.add([]string{"b", "a", ""}[i%3])
		tab.lines = append(tab.lines, int32(5+i))
	}
	tab.cols = []*column{narrow, wide}
	var buf bytes.Buffer
	if err := encodeTable(&buf, tab, "f", 5); err != nil {
		t.Fatal(err)
	}
	got, err := decodeTable(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.lines, tab.lines) || len(got.cols) != 2 || got.cols[1].name != "wide" || got.cols[1].field != 3 {
		t.Fatalf("decoded %d rows, columns %v", got.rows(), got.cols)
	}
	for j, c := range tab.cols {
		for i := range tab.rows() {
			if got.cols[j].value(i) != c.value(i) {
				t.Fatalf("column %s row %d: %q, want %q", c.name, i, got.cols[j].value(i), c.value(i))
			}
		}
	}
	for _, bad := range [][]byte{nil, []byte("not gzip"), buf.Bytes()[:buf.Len()/2]} {
		if _, err := decodeTable(bytes.NewReader(bad)); err == nil {
			t.Errorf("decoded %d damaged bytes without an error", len(bad))
		}
	}
}
