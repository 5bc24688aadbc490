package datasets

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// The Parquet library allocates what a file's footer and page headers
// declare (a footer length, a list's element count, a page's size) before
// it reads them. A few damaged bytes can declare gigabytes; so every length
// in the footer is checked here against the bytes that hold it, before the
// library sees the file, and every page header of a row group against its
// column chunk before the group is read. A valid file passes unchanged.

// parquetTail is the file's last 8 bytes: the footer's length and the magic.
const parquetTail = 8

// errThriftShort is a Thrift value that runs past the bytes that hold it.
var errThriftShort = errors.New("runs past its end")

// checkParquetFooter reads the footer of the Parquet file of the given size
// in r and checks that its length fits the file and that every list, map
// and string it declares fits the footer.
func checkParquetFooter(r io.ReaderAt, size int64) error {
	const head = 4 // "PAR1"
	if size < head+parquetTail {
		return fmt.Errorf("%d bytes, fewer than a Parquet file's magic numbers and footer length (12)", size)
	}
	tail := make([]byte, parquetTail)
	if _, err := r.ReadAt(tail, size-parquetTail); err != nil {
		return fmt.Errorf("reading the footer: %w", err)
	}
	switch string(tail[4:]) {
	case "PAR1":
	case "PARE":
		return fmt.Errorf("an encrypted Parquet file: fp reads unencrypted files only")
	default:
		return fmt.Errorf("the file does not end in the Parquet magic number PAR1")
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n == 0 || n > size-head-parquetTail {
		return fmt.Errorf("the footer length %d does not fit the file's %d bytes", n, size)
	}
	footer := make([]byte, n)
	if _, err := r.ReadAt(footer, size-parquetTail-n); err != nil {
		return fmt.Errorf("reading the footer: %w", err)
	}
	w := thriftWalker{b: footer}
	if err := w.structure(0, nil); err != nil {
		return fmt.Errorf("the footer (file metadata) at byte %d: %w", size-parquetTail-n+int64(w.i), err)
	}
	return nil
}

// checkParquetPages walks the page headers of the column chunk of
// compressed size n at offset start of the file in r: each page must lie
// inside the chunk, and its uncompressed size must be one that its
// compressed bytes can expand to.
func checkParquetPages(r io.ReaderAt, size, start, n int64) error {
	if start < 4 || n < 0 || start > size-parquetTail || n > size-parquetTail-start {
		return fmt.Errorf("the column chunk of %d bytes at byte %d lies outside the file's %d bytes", n, start, size)
	}
	end := start + n
	buf := make([]byte, min(n, 4<<10))
	for pos := start; pos < end; {
		var comp, uncomp int64 = -1, -1
		var w thriftWalker
		for have := min(end-pos, 4<<10); ; have = min(end-pos, 2*have) {
			if int64(cap(buf)) < have {
				buf = make([]byte, have)
			}
			if _, err := r.ReadAt(buf[:have], pos); err != nil {
				return fmt.Errorf("reading the page header at byte %d: %w", pos, err)
			}
			w = thriftWalker{b: buf[:have]}
			comp, uncomp = -1, -1
			err := w.structure(0, func(id int16, v int64) {
				switch id {
				case 2:
					uncomp = v
				case 3:
					comp = v
				}
			})
			if err == nil {
				break
			}
			if !errors.Is(err, errThriftShort) || have == end-pos {
				return fmt.Errorf("the page header at byte %d: %w", pos+int64(w.i), err)
			}
		}
		pos += int64(w.i)
		if comp < 0 || comp > end-pos {
			return fmt.Errorf("the page at byte %d declares %d bytes, its column chunk holds %d more", pos, comp, end-pos)
		}
		// No codec Parquet uses expands a byte into more than about a
		// thousand (deflate's limit is 1032).
		if uncomp < 0 || uncomp > 1100*comp+1<<16 {
			return fmt.Errorf("the page at byte %d declares %d bytes uncompressed from %d", pos, uncomp, comp)
		}
		pos += comp
	}
	return nil
}

// thriftWalker walks a value of Thrift's compact protocol without
// decoding it, checking that every length fits the bytes left.
type thriftWalker struct {
	b []byte
	i int
}

// maxThriftDepth bounds the nesting of structs, lists and maps; Parquet's
// metadata nests a few levels deep.
const maxThriftDepth = 32

func (w *thriftWalker) byte() (byte, error) {
	if w.i >= len(w.b) {
		return 0, errThriftShort
	}
	w.i++
	return w.b[w.i-1], nil
}

func (w *thriftWalker) varint() (uint64, error) {
	v, n := binary.Uvarint(w.b[w.i:])
	if n == 0 {
		return 0, errThriftShort
	}
	if n < 0 {
		return 0, fmt.Errorf("a number longer than 64 bits")
	}
	w.i += n
	return v, nil
}

// skip passes n bytes.
func (w *thriftWalker) skip(n int) error {
	if n > len(w.b)-w.i {
		return errThriftShort
	}
	w.i += n
	return nil
}

// length reads a count of items each at least min bytes long and checks
// that they fit the bytes left.
func (w *thriftWalker) length(v uint64, min int) (int, error) {
	if v > uint64(len(w.b)-w.i)/uint64(min) {
		return 0, fmt.Errorf("%d items declared with %d bytes left: %w", v, len(w.b)-w.i, errThriftShort)
	}
	return int(v), nil
}

// structure walks the fields of a struct up to its stop byte; top, when
// not nil, is told each integer field of this struct (not of nested ones).
func (w *thriftWalker) structure(depth int, top func(id int16, v int64)) error {
	if depth > maxThriftDepth {
		return fmt.Errorf("nested more than %d levels deep", maxThriftDepth)
	}
	var id int16
	for {
		h, err := w.byte()
		if err != nil {
			return err
		}
		if h == 0 {
			return nil
		}
		typ := h & 0x0f
		if d := h >> 4; d != 0 {
			id += int16(d)
		} else {
			v, err := w.varint()
			if err != nil {
				return err
			}
			id = int16(int64(v>>1) ^ -int64(v&1))
		}
		if top != nil && (typ == 4 || typ == 5 || typ == 6) {
			v, err := w.varint()
			if err != nil {
				return err
			}
			top(id, int64(v>>1)^-int64(v&1))
			continue
		}
		if err := w.value(typ, depth); err != nil {
			return err
		}
	}
}

// value walks one value of compact type typ.
func (w *thriftWalker) value(typ byte, depth int) error {
	switch typ {
	case 1, 2: // a boolean field: the value is the type
		return nil
	case 3: // byte
		_, err := w.byte()
		return err
	case 4, 5, 6: // i16, i32, i64: zigzag varints
		_, err := w.varint()
		return err
	case 7: // double
		return w.skip(8)
	case 8: // binary
		v, err := w.varint()
		if err != nil {
			return err
		}
		n, err := w.length(v, 1)
		if err != nil {
			return err
		}
		return w.skip(n)
	case 9, 10: // list, set
		h, err := w.byte()
		if err != nil {
			return err
		}
		v := uint64(h >> 4)
		if v == 15 {
			if v, err = w.varint(); err != nil {
				return err
			}
		}
		et := h & 0x0f
		n, err := w.length(v, 1)
		if err != nil {
			return err
		}
		for range n {
			if et == 1 || et == 2 { // booleans take a byte each in a list
				et = 3
			}
			if err := w.value(et, depth+1); err != nil {
				return err
			}
		}
		return nil
	case 11: // map
		v, err := w.varint()
		if err != nil || v == 0 {
			return err
		}
		kv, err := w.byte()
		if err != nil {
			return err
		}
		n, err := w.length(v, 2)
		if err != nil {
			return err
		}
		for range n {
			for _, t := range []byte{kv >> 4, kv & 0x0f} {
				if t == 1 || t == 2 {
					t = 3
				}
				if err := w.value(t, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	case 12:
		return w.structure(depth+1, nil)
	case 13: // uuid
		return w.skip(16)
	}
	return fmt.Errorf("unknown Thrift type %d", typ)
}
