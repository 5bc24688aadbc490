package records

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/fpareto/fp/internal/fuzzcheck"
)

// FuzzRecordsDecode reads a records file as every reader of a run folder
// does (Decode), under the bounds of fuzzcheck, and checks the promise a
// resumed sweep relies on: after Open's repair of a torn tail
// (cutTornTail), the file reads back without a torn line and with the
// records Decode returned before the repair, the torn line's aside.
func FuzzRecordsDecode(f *testing.F) {
	rec := func(i int) []byte {
		r := sample(i)
		b, err := json.Marshal(&r)
		if err != nil {
			f.Fatal(err)
		}
		return b
	}
	one, two := rec(0), rec(1)
	lines := append(append(append(append([]byte{}, one...), '\n'), two...), '\n')
	for _, b := range [][]byte{
		lines,
		one, // a complete record whose newline was lost
		append(slices.Clone(lines), one[:len(one)/2]...), // a torn tail
		append(slices.Clone(lines), "  \n\n"...),
		append(append([]byte("{\"split\": 1}\n"), lines...), '{'),
		[]byte("null\n"),
		[]byte("[1,2]\n{}\n"),
		[]byte("{}\n{\"lambda\": \"x\"}\n{}\n"),
		[]byte("{\"weights\": \"../../etc/passwd\"}\n"),
		[]byte("{\"weights\": \"/abs\"}"),
		[]byte("{\"status\": \"failed\", \"fail_reason\": \"loss is NaN\"}\n{\"lambda\": 1e999}\n"),
		[]byte("{\"group_counts\": {\"a\": 1, \"b\": -3}}\n"),
		[]byte("\xff\xfe{}\n"),
		[]byte("{\"dataset\": \"\x1b[2J\"}\n"),
		[]byte("\r\n{}\r\n"),
		{},
	} {
		f.Add(b)
	}
	path := filepath.Join(f.TempDir(), "records.jsonl")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcheck.Run(t, len(data), func() error {
			got, err := Decode(bytes.NewReader(data), path)
			var torn *TornLineError
			if err != nil && !errors.As(err, &torn) {
				return err
			}
			fuzzcheck.OneLine(t, err)
			fh, ferr := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
			if ferr != nil {
				t.Fatal(ferr)
			}
			defer fh.Close()
			if _, ferr := fh.Write(data); ferr != nil {
				t.Fatal(ferr)
			}
			if ferr := cutTornTail(fh); ferr != nil {
				t.Fatalf("repairing the tail: %v", ferr)
			}
			repaired, rerr := Read(path)
			if rerr != nil {
				t.Fatalf("after the repair: %v (before it: %v)", rerr, err)
			}
			if !reflect.DeepEqual(repaired, got) {
				t.Fatalf("after the repair %d records, before it %d (%v)", len(repaired), len(got), err)
			}
			return nil
		})
	})
}
