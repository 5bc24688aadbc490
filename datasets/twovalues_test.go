package datasets

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// A target or sensitive column of more than two values is refused in one
// line that names the flags handling more values; given them, it trains:
// the target's --positive value against the rest, the sensitive column in
// groups or one value against the rest.
func TestMoreThanTwoValuesNameTheFlags(t *testing.T) {
	var b strings.Builder
	b.WriteString("y,g,x\n")
	for i := range 80 {
		fmt.Fprintf(&b, "%s,%s,%d\n", []string{"low", "mid", "high"}[i%3], []string{"a", "b", "c", "d", "e", "f", "g", "h"}[i%8], i%13)
	}
	path := writeCSV(t, b.String())
	for _, tc := range []struct {
		name string
		opt  CSVOptions
		want []string // "" for none: it loads
	}{
		{"target of 3", CSVOptions{Target: "y", Sensitive: "g", SensitivePositive: "a"}, []string{"target column, found 3", "--positive VALUE"}},
		{"sensitive of 8", CSVOptions{Target: "y", Positive: "high", Sensitive: "g"}, []string{"sensitive column, found 8", "--sensitive-levels all", "--sensitive-positive VALUE"}},
		{"--positive", CSVOptions{Target: "y", Positive: "high", Sensitive: "g", SensitivePositive: "a"}, nil},
		{"--positive not a value", CSVOptions{Target: "y", Positive: "top", Sensitive: "g", SensitivePositive: "a"}, []string{`--positive "top" is not a value`}},
	} {
		d, err := LoadCSV(path, CSVOptions{Target: tc.opt.Target, Positive: tc.opt.Positive, Sensitive: tc.opt.Sensitive, SensitivePositive: tc.opt.SensitivePositive})
		if tc.want == nil {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
				continue
			}
			ones := 0
			for _, y := range d.Y {
				ones += int(y)
			}
			if ones != 26 || d.LabelPositive != "high" || d.Schema.TargetNegative != "" {
				t.Errorf("%s: %d rows coded 1 (want 26), positive %q, negative %q", tc.name, ones, d.LabelPositive, d.Schema.TargetNegative)
			}
			continue
		}
		if err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err = %v, want one line", tc.name, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v, want %q", tc.name, err, w)
			}
		}
		if tc.name != "--positive not a value" && !errors.Is(err, ErrNotBinary) {
			t.Errorf("%s: %v is not ErrNotBinary", tc.name, err)
		}
	}
}
