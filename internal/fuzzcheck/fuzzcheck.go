package fuzzcheck

import (
	"fmt"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

const (
	// MaxInput is the largest input a target reads; larger ones are
	// skipped, so that the fuzzer spends its time on the inputs the bounds
	// below are about.
	MaxInput = 1 << 20
	// MaxAlloc is the most a reader may allocate for one input of at most
	// MaxInput bytes: a few hundred MB, whatever the input claims about
	// its own size.
	MaxAlloc = 256 << 20
	// MaxTime is how long a reader may take for one input before it counts
	// as hung.
	MaxTime = 10 * time.Second
)

const allocMetric = "/gc/heap/allocs:bytes"

// Run checks fn, which reads one input of n bytes: it skips inputs above
// MaxInput, fails t when fn allocates more than MaxAlloc bytes or returns
// an error that is not one line (OneLine), and crashes the process, with
// every goroutine's stack, when fn runs past MaxTime (a hung reader never
// returns to be failed). A panic in fn is the fuzzer's to report.
func Run(t testing.TB, n int, fn func() error) {
	t.Helper()
	if n > MaxInput {
		t.Skipf("input of %d bytes, above %d", n, MaxInput)
		return
	}
	watchdog := time.AfterFunc(MaxTime, func() {
		debug.SetTraceback("all")
		panic(fmt.Sprintf("fuzzcheck: the reader has run for %v on one input of %d bytes: it hangs", MaxTime, n))
	})
	before := allocated()
	err := fn()
	used := allocated() - before
	watchdog.Stop()
	if used > MaxAlloc {
		t.Fatalf("the reader allocated %d MB for an input of %d bytes; the bound is %d MB", used>>20, n, MaxAlloc>>20)
	}
	OneLine(t, err)
}

// OneLine fails t when err's message is empty or holds a line break or
// another control character (a tab aside): a refusal is one line a
// terminal shows as it is, whatever bytes the input held.
func OneLine(t testing.TB, err error) {
	t.Helper()
	if err == nil {
		return
	}
	msg := err.Error()
	if strings.TrimSpace(msg) == "" {
		t.Fatalf("an error without a message (%T)", err)
	}
	if i := strings.IndexFunc(msg, func(r rune) bool { return unicode.IsControl(r) && r != '\t' }); i >= 0 {
		r, _ := utf8.DecodeRuneInString(msg[i:])
		t.Fatalf("the error is not one line of text (%U at byte %d): %q", r, i, msg)
	}
}

// allocated is the total the heap has allocated so far.
func allocated() uint64 {
	s := []metrics.Sample{{Name: allocMetric}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
