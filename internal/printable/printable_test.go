package printable

import "testing"

func TestString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"income", "income"},
		{"income=high", "income=high"},
		{`C:\data`, `C:\data`},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"a\nb\tc\rd", `a\nb\tc\rd`},
		{"bell\a del\x7f", `bell\a del\x7f`},
		{"Straße, 東京, naïve, Ωmega", "Straße, 東京, naïve, Ωmega"},
		{"c1\u0085next", `c1\u0085next`},
		{"abc\u202edef", `abc\u202edef`},
		{"isolate\u2066x\u2069", `isolate\u2066x\u2069`},
		{"bad\xffbyte", `bad\xffbyte`},
		{"", ""},
	} {
		if got := String(tc.in); got != tc.want {
			t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := Strings([]string{"a\x1b", "b"}); len(got) != 2 || got[0] != `a\x1b` || got[1] != "b" {
		t.Errorf("Strings = %q", got)
	}
}
