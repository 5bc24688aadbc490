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
