package datasets

import (
	"compress/gzip"
	"embed"
	"encoding/gob"
	"fmt"
	"io"
	"slices"
)

// The embedded copies hold only the columns fp reads from each original
// file, dictionary-encoded column by column (which compresses far better than
// the text), gzipped. `go generate` rebuilds them from the originals.
//
//go:embed embedded
var embedded embed.FS

// embeddedTable is the stored form of a table.
type embeddedTable struct {
	File      string // the original file's name
	FirstLine int    // line of the first row in the original; rows are on consecutive lines
	Rows      int
	Columns   []embeddedColumn
}

// embeddedColumn stores row i's value as Levels[code i], codes one byte
// each when there are at most 256 levels, else two bytes little-endian.
type embeddedColumn struct {
	Name   string
	Field  int
	Levels []string
	Codes  []byte
}

func embeddedPath(file string) string { return "embedded/" + file + ".gz" }

// readEmbedded decodes the embedded copy of an original file.
func readEmbedded(file string) (*table, error) {
	f, err := embedded.Open(embeddedPath(file))
	if err != nil {
		return nil, fmt.Errorf("embedded copy of %s: %w (rebuild it with go generate)", file, err)
	}
	defer f.Close()
	t, err := decodeTable(f)
	if err != nil {
		return nil, fmt.Errorf("embedded copy of %s: %w", file, err)
	}
	return t, nil
}

func decodeTable(r io.Reader) (*table, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	var e embeddedTable
	if err := gob.NewDecoder(zr).Decode(&e); err != nil {
		return nil, err
	}
	if e.Rows < 0 || e.FirstLine < 0 {
		return nil, fmt.Errorf("%d rows from line %d", e.Rows, e.FirstLine)
	}
	t := &table{files: []string{e.File + " (embedded copy)"}, lines: make([]int32, e.Rows)}
	for i := range t.lines {
		t.lines[i] = int32(e.FirstLine + i)
	}
	for _, ec := range e.Columns {
		c := &column{name: ec.Name, field: ec.Field, levels: ec.Levels, codes: make([]int32, e.Rows)}
		width := codeWidth(len(ec.Levels))
		if len(ec.Codes) != width*e.Rows {
			return nil, fmt.Errorf("column %s: %d bytes of codes for %d rows", ec.Name, len(ec.Codes), e.Rows)
		}
		for i := range c.codes {
			k := int32(ec.Codes[i*width])
			if width == 2 {
				k |= int32(ec.Codes[i*width+1]) << 8
			}
			if int(k) >= len(ec.Levels) {
				return nil, fmt.Errorf("column %s, row %d: code %d of %d levels", ec.Name, i, k, len(ec.Levels))
			}
			c.codes[i] = k
		}
		t.cols = append(t.cols, c)
	}
	return t, nil
}

func codeWidth(levels int) int {
	if levels <= 256 {
		return 1
	}
	return 2
}

// encodeTable writes t in the embedded form, levels sorted so the output
// depends only on the values.
func encodeTable(w io.Writer, t *table, file string, firstLine int) error {
	e := embeddedTable{File: file, FirstLine: firstLine, Rows: t.rows()}
	for _, c := range t.cols {
		if len(c.levels) > 1<<16 {
			return fmt.Errorf("column %s: %d levels, at most 65536 fit", c.name, len(c.levels))
		}
		levels := slices.Clone(c.levels)
		slices.Sort(levels)
		code := make(map[string]int, len(levels))
		for k, l := range levels {
			code[l] = k
		}
		width := codeWidth(len(levels))
		codes := make([]byte, 0, width*t.rows())
		for i := range t.rows() {
			k := code[c.value(i)]
			codes = append(codes, byte(k))
			if width == 2 {
				codes = append(codes, byte(k>>8))
			}
		}
		e.Columns = append(e.Columns, embeddedColumn{Name: c.name, Field: c.field, Levels: levels, Codes: codes})
	}
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if err := gob.NewEncoder(zw).Encode(&e); err != nil {
		return err
	}
	return zw.Close()
}

// forEmbedding reduces what the embedded copy stores to what fp needs: of
// the COMPAS score, only whether there is one (the filter drops "N/A").
func forEmbedding(file string, t *table) *table {
	if file != compasFile {
		return t
	}
	out := &table{files: t.files, src: t.src, lines: t.lines}
	for _, c := range t.cols {
		if c.name == "score_text" {
			s := newColumn(c.name, c.field)
			for i := range t.rows() {
				v := "scored"
				if c.value(i) == "N/A" {
					v = "N/A"
				}
				s.add(v)
			}
			c = s
		}
		out.cols = append(out.cols, c)
	}
	return out
}
