package train_test

import (
	"strings"
	"testing"

	"github.com/fpareto/fp/train"
)

func TestDataValidateGroups(t *testing.T) {
	base := func(groups int, a ...float64) train.Data {
		n := len(a)
		return train.Data{X: make([]float64, n), N: n, Dim: 1, Y: make([]float64, n), A: a, Groups: groups}
	}
	cases := []struct {
		name string
		d    train.Data
		want string // "" for valid
	}{
		{"binary, Groups 0", base(0, 0, 1, 1), ""},
		{"binary, Groups 2", base(2, 1, 0, 1), ""},
		{"binary with a code 2", base(0, 0, 1, 2), "row 2: label 0 and group 2 must be 0 or 1"},
		{"three groups", base(3, 2, 0, 1, 1), ""},
		{"four groups", base(4, 3, 2, 1, 0), ""},
		{"one group", base(1, 0, 0), "1 groups, want 0 or 2"},
		{"negative", base(-3, 0, 0), "-3 groups"},
		{"code out of range", base(3, 0, 1, 3), "row 2: group 3, want an integer code 0 … 2"},
		{"code not an integer", base(3, 0, 1.5, 2), "row 1: group 1.5"},
		{"code negative", base(3, -1, 1, 2), "row 0: group -1"},
		{"group without rows", base(4, 0, 1, 3, 3), "group 2 of 4 has no row"},
	}
	for _, c := range cases {
		err := c.d.Validate()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	y := base(3, 0, 1, 2)
	y.Y[1] = 0.5
	if err := y.Validate(); err == nil || !strings.Contains(err.Error(), "row 1: label 0.5") {
		t.Errorf("a label of 0.5 in three groups: %v", err)
	}
	if g := base(0, 0, 1).GroupCount(); g != 2 {
		t.Errorf("GroupCount of a 0/1 attribute = %d", g)
	}
}

// Complete: with R ≥ 3 groups a batch is complete when each of the R codes
// is on one of its real rows (padding does not count); with a 0/1 attribute
// as before.
func TestBatchCompleteGroups(t *testing.T) {
	cases := []struct {
		name   string
		groups int
		a      []float64
		n      int
		want   bool
	}{
		{"binary both", 0, []float64{0, 1, 0}, 3, true},
		{"binary one", 2, []float64{1, 1, 1}, 3, false},
		{"three all", 3, []float64{2, 0, 1, 1}, 4, true},
		{"three missing 1", 3, []float64{2, 0, 0, 2}, 4, false},
		{"three, 1 only on padding", 3, []float64{2, 0, 0, 1}, 3, false},
		{"four all", 4, []float64{3, 1, 0, 2, 2}, 5, true},
	}
	for _, c := range cases {
		d := train.Data{X: make([]float64, len(c.a)), N: len(c.a), Dim: 1, Y: make([]float64, len(c.a)), A: c.a, Groups: c.groups}
		b := train.NewBatch(len(c.a), 1, 1, 1)
		idx := make([]int, c.n)
		for i := range idx {
			idx[i] = i
		}
		b.Fill(d, idx)
		if b.Complete != c.want || b.Groups != c.groups {
			t.Errorf("%s: Complete %v, Groups %d; want %v, %d", c.name, b.Complete, b.Groups, c.want, c.groups)
		}
	}
}
