package suggest

import (
	"fmt"
	"testing"
)

func TestNearest(t *testing.T) {
	for _, tc := range []struct {
		name       string
		candidates []string
		want       string
	}{
		{"epoch", []string{"epochs", "splits", "seed"}, "epochs"},
		{"propensity_epoch", []string{"propensity_epochs", "epochs"}, "propensity_epochs"},
		{"colour", []string{"epochs", "splits"}, ""},
		{"", []string{"epochs"}, ""},
		{"x", nil, ""},
		// Equally close: the shorter one.
		{"ab", []string{"abd", "abc", "ab-long"}, "abd"},
	} {
		if got := Nearest(tc.name, tc.candidates); got != tc.want {
			t.Errorf("Nearest(%q, %q) = %q, want %q", tc.name, tc.candidates, got, tc.want)
		}
	}
}

func ExampleNearest() {
	fmt.Println(Nearest("lamdas", []string{"lambdas", "splits"}))
	// Output: lambdas
}
