package runfolder

import (
	"slices"
	"strings"
	"testing"

	"github.com/fpareto/fp/datasets"
)

// Parts.Rows names each part's rows and refuses a part the split lacks or
// an unknown name in one line.
func TestPartsRows(t *testing.T) {
	p := Parts{Split: datasets.Split{Train: []int{0, 2}, Test: []int{1, 4}}, Selection: []int{3}}
	noSel := Parts{Split: p.Split}
	for _, tc := range []struct {
		name  string
		parts Parts
		part  string
		want  []int
		err   string
	}{
		{"train", p, "train", []int{0, 2}, ""},
		{"test", p, "test", []int{1, 4}, ""},
		{"selection", p, "selection", []int{3}, ""},
		{"no selection rows", noSel, "selection", nil, "keeps no selection rows"},
		{"unknown", p, "sel", nil, `part "sel": want test, selection or train`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.parts.Rows(tc.part)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("rows %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}
