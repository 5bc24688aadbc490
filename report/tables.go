package report

import (
	"sort"

	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
)

// FrontCandidates returns the indices of the candidates of recs that no other
// dominates in (test risk, metric), by increasing risk: the networks an
// auditor chooses from. metric must be one of records.Metrics.
func FrontCandidates(recs []records.Record, metric string) []int {
	pts := make([]pareto.Point, len(recs))
	for i := range recs {
		v, _ := recs[i].Metric(metric)
		pts[i] = pareto.Point{X: recs[i].Risk, Y: v}
	}
	front := pareto.Front(pts)
	sort.SliceStable(front, func(i, j int) bool { return pts[front[i]].X < pts[front[j]].X })
	return front
}
