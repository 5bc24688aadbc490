package report

import (
	"slices"
	"sort"

	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
)

// MethodRow is one (metric, method, penalty) row of the comparison of
// methods (the paper's Table 4).
type MethodRow struct {
	Metric       string  `json:"metric"`
	Method       string  `json:"method"`
	Penalty      string  `json:"penalty"`
	BetaScale    float64 `json:"beta_scale,omitempty"`
	Candidates   int     `json:"candidates"`
	NonDominated int     `json:"nondominated"`
	Hypervolume  float64 `json:"hypervolume"`
	Share        float64 `json:"share"`
}

// CompareMethods compares the methods of recs (successful candidates of
// one or more sweeps) on every unfairness metric: for each metric and each
// method and penalty (and β scale), the candidates, the distinct
// non-dominated points, the hypervolume and the share of the pooled front
// (pareto.Compare, so both axes are normalised over all rows of a metric).
// Rows come by metric, then in the paper's order: cheb, linear,
// adversarial; ato-penultimate before ato-all; increasing β scale.
func CompareMethods(recs []records.Record) []MethodRow {
	type id struct {
		method, penalty string
		scale           float64
	}
	ids := map[string]id{}
	var rows []MethodRow
	for _, metric := range records.Metrics {
		groups := map[string][]pareto.Point{}
		for i := range recs {
			r := &recs[i]
			k := r.MethodLabel() + "/" + r.Penalty
			ids[k] = id{r.Method, r.Penalty, r.BetaScale}
			v, _ := r.Metric(metric)
			groups[k] = append(groups[k], pareto.Point{X: r.Risk, Y: v})
		}
		for _, s := range pareto.Compare(groups) {
			g := ids[s.Group]
			rows = append(rows, MethodRow{Metric: metric, Method: g.method, Penalty: g.penalty, BetaScale: g.scale,
				Candidates: s.Candidates, NonDominated: s.NonDominated, Hypervolume: s.Hypervolume, Share: s.Share})
		}
	}
	order := map[string]int{"cheb": 0, "linear": 1, "adversarial": 2}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.Metric != b.Metric {
			return indexOf(records.Metrics, a.Metric) < indexOf(records.Metrics, b.Metric)
		}
		if order[a.Method] != order[b.Method] {
			return order[a.Method] < order[b.Method]
		}
		if a.Penalty != b.Penalty {
			return a.Penalty > b.Penalty // ato-penultimate before ato-all, as in the paper
		}
		return a.BetaScale < b.BetaScale
	})
	return rows
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return len(list)
}

// PointsByGroup turns records into (test risk, metric) points per group of
// by, and lists the groups whose records come from more than one
// configuration (config digest). metric must be one of records.Metrics.
func PointsByGroup(recs []records.Record, by records.Grouping, metric string) (map[string][]pareto.Point, []string) {
	groups := map[string][]pareto.Point{}
	configs := map[string]string{}
	var mixed []string
	for i := range recs {
		r := &recs[i]
		k := by.Key(r)
		v, _ := r.Metric(metric) // the name was checked by the caller
		groups[k] = append(groups[k], pareto.Point{X: r.Risk, Y: v})
		if c, seen := configs[k]; !seen {
			configs[k] = r.Config
		} else if c != r.Config && !slices.Contains(mixed, k) {
			mixed = append(mixed, k)
		}
	}
	slices.Sort(mixed)
	return groups, mixed
}

// NonDominated returns the indices of the candidates of recs that no other
// dominates in (test risk, metric), by increasing risk: the networks an
// auditor chooses from. metric must be one of records.Metrics.
func NonDominated(recs []records.Record, metric string) []int {
	pts := make([]pareto.Point, len(recs))
	for i := range recs {
		v, _ := recs[i].Metric(metric)
		pts[i] = pareto.Point{X: recs[i].Risk, Y: v}
	}
	front := pareto.Front(pts)
	sort.SliceStable(front, func(i, j int) bool { return pts[front[i]].X < pts[front[j]].X })
	return front
}
