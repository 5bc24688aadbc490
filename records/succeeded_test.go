package records

import "testing"

func TestSucceeded(t *testing.T) {
	recs := []Record{sample(0), sample(1), sample(2)}
	recs[1].Status = StatusFailed
	ok, failed := Succeeded(recs)
	if len(ok) != 2 || failed != 1 || ok[1].Lambda != recs[2].Lambda {
		t.Errorf("Succeeded: %d ok, %d failed", len(ok), failed)
	}
}

func TestGrouping(t *testing.T) {
	adv := sample(4)
	adv.Method, adv.Penalty = "adversarial", ""
	for _, tc := range []struct {
		by   string
		rec  Record
		want string
	}{
		{"method,penalty", sample(1), "cheb/ato-penultimate"},
		{"method, penalty", adv, "adversarial"},
		{"penalty", adv, "(none)"},
		{"lambda", sample(1), "lambda=0.1"},
		{"split", sample(5), "split=2"},
		{"method,split,engine", sample(0), "cheb/split=0/graph"},
	} {
		g, err := ParseGrouping(tc.by)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Key(&tc.rec); got != tc.want {
			t.Errorf("%q: key %q, want %q", tc.by, got, tc.want)
		}
	}
	for _, bad := range []string{"", "method,", "colour"} {
		if _, err := ParseGrouping(bad); err == nil {
			t.Errorf("ParseGrouping(%q) accepted", bad)
		}
	}
	g, _ := ParseGrouping("split")
	groups := GroupBy([]Record{sample(0), sample(1), sample(3), adv}, g)
	if len(groups) != 2 || len(groups["split=1"]) != 2 || len(groups["split=0"]) != 2 || groups["split=0"][1].Lambda != 0.3 {
		t.Errorf("GroupBy: %v", groups)
	}
}
