package compare

import (
	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
)

// Front returns the indices of recs that are non-dominated in the plane
// (axis, metric), by the rule every comparison applies: of the records the
// plane holds (records.Record.InPlane: a group-thresholds candidate only in
// the (error, decision metric) planes), those that pareto.Front keeps at
// the values d decides on (records.Decide.PointOn). A figure that draws a
// plane's front, or each group's own front in it, asks this function, so
// that it draws the front the comparison measures. An error is that of a
// record lacking the metric or the axis value d needs; the caller names
// the file.
func Front(recs []*records.Record, axis, metric string, d records.Decide) ([]int, error) {
	var in []int
	var pts []pareto.Point
	for i, r := range recs {
		if !r.InPlane(axis, metric) {
			continue
		}
		x, y, _, _, err := d.PointOn(r, axis, metric)
		if err != nil {
			return nil, err
		}
		in, pts = append(in, i), append(pts, pareto.Point{X: x, Y: y})
	}
	front := pareto.Front(pts)
	out := make([]int, len(front))
	for k, i := range front {
		out[k] = in[i]
	}
	return out, nil
}
