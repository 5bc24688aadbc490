package shellword

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// plain are the characters that need no quoting in any POSIX shell word.
const plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:,=+@%"

// Quote returns s as one shell word: s itself when every character is
// plain, else s in single quotes, each single quote within written '\”.
// The empty string becomes ”.
//
// A word holding characters that would act on a terminal printing the
// command (ESC, BEL and the other control characters but tab, the
// bidirectional controls such as U+202E) or bytes that are not UTF-8 is
// written in dollar-single quotes instead, $'…', with those characters'
// bytes as \xNN escapes, so that the command prints safely and still
// pastes: bash, zsh, ksh and POSIX.1-2024 shells read it back as s.
func Quote(s string) string {
	if s != "" && strings.Trim(s, plain) == "" {
		return s
	}
	if !unsafe(s) {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case (r == utf8.RuneError && n == 1) || (r != '\t' && escaped(r)):
			for _, c := range []byte(s[i : i+n]) {
				b.WriteString(`\x`)
				b.WriteByte("0123456789abcdef"[c>>4])
				b.WriteByte("0123456789abcdef"[c&15])
			}
		case r == '\'' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	b.WriteByte('\'')
	return b.String()
}

// unsafe reports whether s holds a character Quote writes as an escape.
func unsafe(s string) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || (r != '\t' && escaped(r)) {
			return true
		}
		i += n
	}
	return false
}

// escaped reports whether r acts on a terminal: a control character (C0,
// DEL, C1) or a bidirectional control.
func escaped(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)
}
