package fairness

import "fmt"

// GroupMetrics describe the predictions of one group: the part of a
// per-group breakdown (Fairlearn's MetricFrame) that explains the fairness
// metrics. A prediction is positive (selected) when p ≥ 0.5, as for
// Metrics.Accuracy.
type GroupMetrics struct {
	A             int     `json:"a"`              // the group: 0 or 1 (ByGroups: its label)
	Count         int     `json:"count"`          // its examples
	BaseRate      float64 `json:"base_rate"`      // P(y=1)
	MeanScore     float64 `json:"mean_score"`     // mean p
	SelectionRate float64 `json:"selection_rate"` // P(p ≥ 0.5)
	Accuracy      float64 `json:"accuracy"`       // P((p ≥ 0.5) = y)
}

// ByGroup computes the metrics of group a = 0 and of group a = 1 for
// predicted probabilities p and labels y. The inputs must satisfy what
// Evaluate requires (both groups present, p in [0, 1], y and a 0 or 1);
// otherwise the error names the first offending example.
func ByGroup(p, y, a []float64) ([2]GroupMetrics, error) {
	var out [2]GroupMetrics
	if err := validate("probability", p, y, a, nil); err != nil {
		return out, fmt.Errorf("by group: %w", err)
	}
	var pos, score, selected, correct [2]float64
	for i, pi := range p {
		g := int(a[i])
		out[g].Count++
		pos[g] += y[i]
		score[g] += pi
		if pi >= 0.5 {
			selected[g]++
		}
		if (pi >= 0.5) == (y[i] == 1) {
			correct[g]++
		}
	}
	for g := range out {
		n := float64(out[g].Count)
		out[g].A = g
		out[g].BaseRate, out[g].MeanScore = pos[g]/n, score[g]/n
		out[g].SelectionRate, out[g].Accuracy = selected[g]/n, correct[g]/n
	}
	return out, nil
}
