package fairness

import "fmt"

// GroupMetrics describe the predictions of one group: the part of a
// per-group breakdown (Fairlearn's MetricFrame) that explains the fairness
// metrics. A prediction is positive (selected) when p ≥ 0.5, as for
// Metrics.Accuracy.
type GroupMetrics struct {
	A             int     `json:"a"`              // the group's label
	Count         int     `json:"count"`          // its examples
	BaseRate      float64 `json:"base_rate"`      // P(y=1)
	MeanScore     float64 `json:"mean_score"`     // mean p
	SelectionRate float64 `json:"selection_rate"` // P(p ≥ 0.5)
	Accuracy      float64 `json:"accuracy"`       // P((p ≥ 0.5) = y)
}

// ByGroup computes the metrics of each group for predicted probabilities p
// and labels y, in increasing order of the group labels z (GroupMetrics.A
// is the label; a binary attribute a is the labels 0 and 1: BinaryGroups).
// A prediction is positive when p ≥ 0.5. The inputs must satisfy what
// Evaluate requires (at least two groups present, p in [0, 1], y 0 or 1);
// otherwise the error names the first offending example.
func ByGroup(p, y []float64, z []int) ([]GroupMetrics, error) {
	if err := validate("probability", p, y, z, nil); err != nil {
		return nil, fmt.Errorf("by group: %w", err)
	}
	codes, r := denseCodes(z)
	out := make([]GroupMetrics, r)
	pos, score := make([]float64, r), make([]float64, r)
	selected, correct := make([]float64, r), make([]float64, r)
	for i, pi := range p {
		g := codes[i]
		out[g].A = z[i]
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
		out[g].BaseRate, out[g].MeanScore = pos[g]/n, score[g]/n
		out[g].SelectionRate, out[g].Accuracy = selected[g]/n, correct[g]/n
	}
	return out, nil
}
