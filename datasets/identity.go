package datasets

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"io"
)

// identityVersion names the definition below; a change of definition
// changes every identity.
const identityVersion = "fp-data/1"

// identity digests what makes two runs' rows the same data for comparing
// fronts split by split: the definitions of y and a (the columns and the
// raw values coded 1), the row filter, the coded (y, a) of every kept
// row in order and, only where the sensitive attribute is in groups
// (d.Levels), the levels and every row's group. The splits are drawn from
// y (and the groups, when there are any) alone, so runs with the same
// identity and seed have the same splits. The file's name and bytes and the
// feature columns are left out: a copy of the file with a column removed,
// or a run that excludes a column, has the same identity.
//
// filter names the row filter: a built-in dataset's preset (its rows are
// fixed by it), or "" for a file, whose filter is then the positions of the
// source rows dropped (rows with empty cells in a column in use), out of
// sourceRows.
func (d *Dataset) identity(filter string, sourceRows int, kept []int) string {
	h := sha256.New()
	str := func(s string) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		io.WriteString(h, s)
	}
	num := func(v int) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(v))
		h.Write(n[:])
	}
	str(identityVersion)
	str(d.Target)
	str(d.LabelPositive)
	str(d.Sensitive)
	str(d.GroupPositive)
	str(filter)
	if filter == "" {
		num(sourceRows)
		var dropped []int
		next := 0
		for _, i := range kept {
			for ; next < i; next++ {
				dropped = append(dropped, next)
			}
			next = i + 1
		}
		for ; next < sourceRows; next++ {
			dropped = append(dropped, next)
		}
		num(len(dropped))
		for _, i := range dropped {
			num(i)
		}
	}
	num(d.N)
	ya := make([]byte, d.N)
	for i := range d.N {
		ya[i] = byte(2*int(d.Y[i]) + int(d.A[i]))
	}
	h.Write(ya)
	h.Write(d.groupIdentity())
	return hex.EncodeToString(h.Sum(nil)[:8])
}
