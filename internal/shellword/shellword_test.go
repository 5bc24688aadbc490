package shellword

import (
	"os/exec"
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"runs/demo/net.json", "runs/demo/net.json"},
		{"income=high", "income=high"},
		{"", "''"},
		{"two words", "'two words'"},
		{"it's", `'it'\''s'`},
		{"$HOME", "'$HOME'"},
		{"a;rm -rf", "'a;rm -rf'"},
		{"id\x1b[31m", `$'id\x1b[31m'`},
		{"bell\a it's", `$'bell\x07 it\'s'`},
		{"r\u202egion", `$'r\xe2\x80\xaegion'`},
		{"caf\xe9", `$'caf\xe9'`},
		{"tab\there", "'tab\there'"},
	} {
		if got := Quote(tc.in); got != tc.want {
			t.Errorf("Quote(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// What the shell reads back is the word given.
func TestQuoteRoundTrip(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, w := range []string{"plain", "with space", "it's", `back\slash`, "$(echo x)", "*", "a\"b", "tab\there"} {
		out, err := exec.Command(sh, "-c", "printf '%s' "+Quote(w)).Output()
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != w {
			t.Errorf("%q came back as %q", w, strings.TrimSpace(string(out)))
		}
	}
}

// A word with characters that act on a terminal is read back by bash as
// the word given, and its quoted form holds none of them.
func TestQuoteEscapesRoundTrip(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, w := range []string{"id\x1b[31m", "a\u202e\x07b", "it's \\ \x1b", "caf\xe9", "line\nbreak"} {
		q := Quote(w)
		if strings.ContainsAny(q, "\x1b\x07\n\u202e") {
			t.Errorf("Quote(%q) = %q holds a control character", w, q)
		}
		out, err := exec.Command(bash, "-c", "printf '%s' "+q).Output()
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != w {
			t.Errorf("%q came back as %q", w, out)
		}
	}
}
