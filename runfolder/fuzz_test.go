package runfolder

import (
	"slices"
	"testing"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/internal/fuzzcheck"
)

// FuzzListSetting reads a list setting as the command line and the config
// file give it (--exclude, --features, --sensitive-levels, --group-map),
// under the bounds of fuzzcheck: FormatList writes what ParseList read so
// that ParseList reads it back unchanged (fp prints its hints with it), and
// the names, read as --group-map entries, are VALUE=GROUP pairs or refused
// in one line.
func FuzzListSetting(f *testing.F) {
	for _, s := range []string{
		"age, sex", `"inc,high"`, `age, "inc,high",sex`, `"say ""hi"""`, `D=DE,E=DE`, `"inc,high"=rich, c=c or d`,
		`"a=b"=c`, `""`, `,`, ` , a ,`, `"unterminated`, `a"b`, `"a"b`, "\"a\nb\",\"c,d\"", "a\r\"b\"", "a\r\nb", "\x1b[2J=x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fuzzcheck.Run(t, len(s), func() error {
			names, err := ParseList(s)
			if err != nil {
				return err
			}
			text := FormatList(names)
			back, err := ParseList(text)
			if err != nil {
				t.Fatalf("%q read as %q, written as %q, which reads as: %v", s, names, text, err)
			}
			if !slices.Equal(back, names) {
				t.Fatalf("%q read as %q, written as %q, which reads as %q", s, names, text, back)
			}
			_, err = datasets.ParseGroupMap(names)
			return err
		})
	})
}
