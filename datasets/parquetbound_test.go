package datasets

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
)

// parquetWith wraps footer bytes in a Parquet file's magic numbers and
// footer length, after body.
func parquetWith(body, footer []byte) []byte {
	b := append([]byte("PAR1"), body...)
	b = append(b, footer...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(footer)))
	return append(b, "PAR1"...)
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A file whose footer length or footer contents declare more than the file
// holds is refused in one line before anything of that size is allocated.
func TestParquetFooterBoundedByFileSize(t *testing.T) {
	bigList := []byte{0x15, 0x02, 0x19, 0xfc} // version 1; field 2, a list of structs, size follows
	bigList = binary.AppendUvarint(bigList, 1<<31)
	bigString := []byte{0x18} // field 1 as binary, length follows
	bigString = binary.AppendUvarint(bigString, 1<<40)
	deep := bytes.Repeat([]byte{0x1c}, 100) // structs nested in structs
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"the tiny file", []byte("PAR1\x15\x06\x15\x80\x32\x15\x80PAR1"), "footer length 2148872832"},
		{"shorter than the magic numbers", []byte("PAR1PAR1"), "fewer than"},
		{"no magic number", []byte("PAR1\x00\x00\x00\x00\x01\x00\x00\x00XXXX"), "magic number"},
		{"encrypted", []byte("PAR1\x00\x00\x00\x00\x01\x00\x00\x00PARE"), "encrypted"},
		{"footer longer than the file", []byte("PAR1\x00\x64\x00\x00\x00PAR1"), "footer length 100"},
		{"a list of 2³¹ structs", parquetWith(nil, bigList), "2147483648 items"},
		{"a string of 2⁴⁰ bytes", parquetWith(nil, bigString), "1099511627776 items"},
		{"nested too deep", parquetWith(nil, deep), "nested"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			n := allocated(func() { _, err = NewParquetReader(bytes.NewReader(tc.file), int64(len(tc.file)), "t.parquet") })
			var pe *ParseError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "t.parquet: ") ||
				strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %v, want one line naming the file and %q", err, tc.want)
			}
			if n > 1<<20 {
				t.Errorf("allocated %d bytes for a %d-byte file", n, len(tc.file))
			}
		})
	}
}

// A page header that declares more bytes than its column chunk holds, or
// an uncompressed size no codec reaches from its compressed bytes, is
// refused before the page is read; a well-formed chunk passes.
func TestParquetPagesBoundedByChunk(t *testing.T) {
	header := func(uncomp, comp int64) []byte {
		h := []byte{0x15, 0x00, 0x15} // type 0 (data page); field 2
		h = binary.AppendUvarint(h, uint64(uncomp<<1))
		h = append(h, 0x15)
		h = binary.AppendUvarint(h, uint64(comp<<1))
		return append(h, 0x00)
	}
	page := func(uncomp, comp int64, data int) []byte { return append(header(uncomp, comp), make([]byte, data)...) }
	for _, tc := range []struct {
		name  string
		chunk []byte
		want  string // "" for none
	}{
		{"two pages", append(page(10, 10, 10), page(300, 5, 5)...), ""},
		{"page past its chunk", page(1<<30, 1<<30, 10), "declares 1073741824 bytes"},
		{"expands beyond any codec", page(1<<40, 10, 10), "uncompressed"},
		{"header cut short", header(10, 10)[:4], "page header"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := parquetWith(tc.chunk, []byte{0x00})
			var err error
			n := allocated(func() { err = checkParquetPages(bytes.NewReader(file), int64(len(file)), 4, int64(len(tc.chunk))) })
			if tc.want == "" {
				if err != nil {
					t.Errorf("err = %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
			if n > 1<<20 {
				t.Errorf("allocated %d bytes", n)
			}
		})
	}
	file := parquetWith(page(10, 10, 10), []byte{0x00})
	if err := checkParquetPages(bytes.NewReader(file), int64(len(file)), 4, 1<<40); err == nil || !strings.Contains(err.Error(), "outside the file") {
		t.Errorf("a chunk past the file's end: err = %v", err)
	}
}

// Files with dictionary pages, many pages per chunk, statistics and
// compressed pages, as other writers make them, pass the checks and read
// in full.
func TestParquetChecksPassWrittenFiles(t *testing.T) {
	type row struct {
		City string  `parquet:"city,dict"`
		Inc  float64 `parquet:"inc"`
		N    int64   `parquet:"n,delta"`
	}
	for _, codec := range []compress.Codec{&parquet.Uncompressed, &parquet.Snappy, &parquet.Gzip, &parquet.Zstd} {
		var buf bytes.Buffer
		w := parquet.NewGenericWriter[row](&buf, parquet.PageBufferSize(256), parquet.MaxRowsPerRowGroup(700), parquet.Compression(codec))
		const n = 2000
		rows := make([]row, n)
		for i := range rows {
			rows[i] = row{City: []string{"Zürich", "Bern", "Genève"}[i%3], Inc: float64(i) / 7, N: int64(i * i)}
		}
		if _, err := w.Write(rows); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		r, err := NewParquetReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "w.parquet")
		if err != nil {
			t.Fatalf("%s: %v", codec, err)
		}
		got := 0
		for {
			f, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", codec, err)
			}
			if want := rows[got].City; string(f[0]) != want {
				t.Fatalf("%s: row %d city %q, want %q", codec, got+1, f[0], want)
			}
			got++
		}
		if got != n {
			t.Errorf("%s: %d rows, want %d", codec, got, n)
		}
	}
}
