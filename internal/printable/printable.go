package printable

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// String returns s with every control character written as a Go escape
// (\x1b, \n, \u0085), every byte that is not UTF-8 as \xNN, and the
// characters that reorder the text around them (bidirectional controls
// such as U+202E) as \uNNNN. Everything else, letters of any script
// included, is kept as it is; backslashes too, so that a plain name reads
// the same. Text without such characters is returned unchanged.
func String(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteString(hex2(s[i]))
		case escaped(r):
			// QuoteRune writes \a \b \f \n \r \t \v, \xNN below U+0080 and
			// \uNNNN above; its quotes are dropped.
			q := strconv.QuoteRune(r)
			if !strings.HasPrefix(q, `'\`) { // a rune QuoteRune prints as is
				q = `'\u` + hex4(r) + `'`
			}
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Strings applies String to each of names.
func Strings(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = String(n)
	}
	return out
}

// clean reports whether s is printable ASCII, the common case.
func clean(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// escaped reports whether r is written as an escape: a control character
// (C0, DEL, C1) or a bidirectional control.
func escaped(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

func hex4(r rune) string {
	s := strconv.FormatInt(int64(r), 16)
	return strings.Repeat("0", max(0, 4-len(s))) + s
}
