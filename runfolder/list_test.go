package runfolder

import (
	"reflect"
	"testing"
)

// A list names any column: one holding a comma or a quote in double
// quotes; FormatList writes what ParseList reads back.
func TestParseList(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		bad  bool
	}{
		{"", nil, false},
		{"age, sex", []string{"age", "sex"}, false},
		{`"inc,high"`, []string{"inc,high"}, false},
		{`age, "inc,high",sex`, []string{"age", "inc,high", "sex"}, false},
		{`"say ""hi"""`, []string{`say "hi"`}, false},
		{"income=high", []string{"income=high"}, false},
		{"a,,b", []string{"a", "", "b"}, false},
		{`"inc,high`, nil, true},
		{`a"b`, nil, true},
	} {
		got, err := ParseList(tc.in)
		if (err != nil) != tc.bad || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseList(%q) = %q, %v", tc.in, got, err)
		}
	}
	for _, names := range [][]string{{"inc,high"}, {"age", `a"b`}, {"x=1", "y"}} {
		got, err := ParseList(FormatList(names))
		if err != nil || !reflect.DeepEqual(got, names) {
			t.Errorf("%q → %s → %q, %v", names, FormatList(names), got, err)
		}
	}
}
