package report

import (
	"math"
	"reflect"
	"testing"

	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
)

func tableRecord(method, penalty, config string, risk, ato float64) records.Record {
	return records.Record{Method: method, Penalty: penalty, Config: config, Risk: risk, ATO: ato, DP: ato, EO: ato, EOpp: ato}
}

func TestCompareMethods(t *testing.T) {
	// ato points: cheb (10, .3) (20, .1); linear (15, .2); adversarial
	// (16, .25), dominated by linear.
	recs := []records.Record{
		tableRecord("linear", "ato-penultimate", "b", 15, 0.2),
		tableRecord("adversarial", "", "c", 16, 0.25),
		tableRecord("cheb", "ato-all", "d", 30, 0.5),
		tableRecord("cheb", "ato-penultimate", "a", 10, 0.3),
		tableRecord("cheb", "ato-penultimate", "a", 20, 0.1),
	}
	rows := CompareMethods(recs)
	if len(rows) != 4*4 {
		t.Fatalf("%d rows, want 4 metrics × 4 methods", len(rows))
	}
	var order []string
	for _, r := range rows[:4] {
		order = append(order, r.Method+"/"+r.Penalty)
	}
	if want := []string{"cheb/ato-penultimate", "cheb/ato-all", "linear/ato-penultimate", "adversarial/"}; !reflect.DeepEqual(order, want) ||
		rows[0].Metric != "ato" || rows[15].Metric != "eopp" {
		t.Errorf("row order %v (first metric %s, last %s), want %v", order, rows[0].Metric, rows[15].Metric, want)
	}
	// The pooled front is cheb (10, .3), linear (15, .2), cheb (20, .1).
	want := map[string]struct {
		n     int
		share float64
	}{"cheb/ato-penultimate": {2, 2.0 / 3}, "cheb/ato-all": {1, 0}, "linear/ato-penultimate": {1, 1.0 / 3}, "adversarial/": {1, 0}}
	for _, r := range rows[:4] {
		w := want[r.Method+"/"+r.Penalty]
		if r.Candidates != w.n || math.Abs(r.Share-w.share) > 1e-12 {
			t.Errorf("row %+v: want %d candidates, share %v", r, w.n, w.share)
		}
	}
}

func TestPointsByGroup(t *testing.T) {
	recs := []records.Record{
		tableRecord("cheb", "p", "a", 1, 0.5),
		tableRecord("cheb", "p", "b", 2, 0.25),
		tableRecord("linear", "p", "c", 3, 0.125),
	}
	groups, mixed := PointsByGroup(recs, records.Grouping{"method"}, "ato")
	want := map[string][]pareto.Point{"cheb": {{X: 1, Y: 0.5}, {X: 2, Y: 0.25}}, "linear": {{X: 3, Y: 0.125}}}
	if !reflect.DeepEqual(groups, want) || !reflect.DeepEqual(mixed, []string{"cheb"}) {
		t.Errorf("groups %v, mixed %v; want %v and [cheb]", groups, mixed, want)
	}
}

func TestNonDominated(t *testing.T) {
	recs := []records.Record{
		tableRecord("cheb", "p", "a", 3, 0.1),
		tableRecord("cheb", "p", "a", 2, 0.4),
		tableRecord("cheb", "p", "a", 2.5, 0.5), // dominated by (2, .4)
		tableRecord("cheb", "p", "a", 1, 0.9),
	}
	if got := NonDominated(recs, "ato"); !reflect.DeepEqual(got, []int{3, 1, 0}) {
		t.Errorf("NonDominated = %v, want [3 1 0] (by risk)", got)
	}
}
