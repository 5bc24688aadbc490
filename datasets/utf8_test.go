package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Text that is not UTF-8 (a file saved as Latin-1) is refused in one line
// naming the file, the line and the column, by training's reader and
// prediction's alike: neither reads "région" as "r\uFFFDgion".
func TestNotUTF8Refused(t *testing.T) {
	for _, tc := range []struct {
		name, csv string
		line, col int
	}{
		{"header", "y,r\xe9gion,a\n1,2,x\n0,3,y\n", 1, 2},
		{"value", "y,city,a\n1,Bern,x\n0,Z\xfcrich,y\n", 3, 2},
		{"quoted value", "y,city,a\n1,\"Bern, BE\",x\n0,\"Z\xfcrich\",y\n", 3, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "latin1.csv")
			if err := os.WriteFile(path, []byte(tc.csv), 0o644); err != nil {
				t.Fatal(err)
			}
			check := func(who string, err error) {
				var pe *ParseError
				if !errors.As(err, &pe) || !errors.Is(err, ErrNotUTF8) || pe.Line != tc.line || pe.Column != tc.col ||
					!strings.HasPrefix(err.Error(), path) || !strings.Contains(err.Error(), "save the file as UTF-8") || strings.Contains(err.Error(), "\n") {
					t.Errorf("%s: err = %v, want line %d, column %d, not UTF-8", who, err, tc.line, tc.col)
				}
			}
			_, err := LoadCSV(path, CSVOptions{Target: "y", Sensitive: "a"})
			check("training", err)
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rr, err := NewRowReader(f, path, "")
			for err == nil {
				_, err = rr.Next()
			}
			check("prediction", err)
		})
	}
}
