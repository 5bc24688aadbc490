package fuzzcheck

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// recorder is a testing.TB that records its first failure or skip instead
// of stopping the test.
type recorder struct {
	testing.TB
	failed, skipped string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	if r.failed == "" {
		r.failed = fmt.Sprintf(format, args...)
	}
}
func (r *recorder) Skipf(format string, args ...any) { r.skipped = fmt.Sprintf(format, args...) }

var sink []byte

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name          string
		n             int
		fn            func() error
		fail, skipped string // text the failure (skip) must hold; "" for none
	}{
		{name: "a clean refusal", n: 10, fn: func() error { return errors.New("data.csv, line 3: expected a number") }},
		{name: "no error", n: 10, fn: func() error { return nil }},
		{name: "two lines", n: 10, fn: func() error { return errors.New("bad\nrow") }, fail: `U+000A at byte 3`},
		{name: "an escape sequence", n: 10, fn: func() error { return errors.New("column \x1b[31m") }, fail: `U+001B at byte 7`},
		{name: "a C1 control", n: 10, fn: func() error { return errors.New("next\u0085line") }, fail: `U+0085 at byte 4`},
		{name: "an empty message", n: 10, fn: func() error { return errors.New(" ") }, fail: "without a message"},
		{name: "over the allocation bound", n: 10, fn: func() error { sink = make([]byte, MaxAlloc+1<<20); sink = nil; return nil },
			fail: "allocated 257 MB for an input of 10 bytes"},
		{name: "an input above the bound", n: MaxInput + 1, fn: func() error { t.Error("fn ran on a skipped input"); return nil },
			skipped: "above"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{TB: t}
			Run(r, tc.n, tc.fn)
			if tc.fail == "" && r.failed != "" || !strings.Contains(r.failed, tc.fail) {
				t.Errorf("failure %q, want one holding %q", r.failed, tc.fail)
			}
			if tc.skipped == "" && r.skipped != "" || !strings.Contains(r.skipped, tc.skipped) {
				t.Errorf("skip %q, want one holding %q", r.skipped, tc.skipped)
			}
		})
	}
}
