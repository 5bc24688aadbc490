package fairness

import (
	"fmt"
	"math"
	"slices"
)

// This file holds the metrics of a sensitive attribute with R ≥ 2 values
// (docs/method.md §7): examples are in groups given by integer labels z,
// not by a 0/1 attribute. With the labels 0 and 1 each function gives
// exactly what its binary counterpart gives.

// DPGroups is demographic parity for R groups: MV(p, z), the paper's
// mean-variance index over every group at once. With z_i = a_i ∈ {0, 1}
// it equals DP(p, a). The conventions of MV apply.
func DPGroups(p []float64, z []int) float64 {
	return MV(p, z)
}

// EOGroups is equalized odds for R groups: the larger of the MV of p
// against z within the examples with y = 0 and within those with y = 1.
// y is a 0/1 label; any value other than 1 counts as 0. With z_i = a_i it
// equals EO(p, y, a).
func EOGroups(p, y []float64, z []int) float64 {
	checkLen("EOGroups", len(p), len(z), len(y))
	codes, r := denseCodes(z)
	return max(mvGroups(partition(p, codes, r, y, 0)), mvGroups(partition(p, codes, r, y, 1)))
}

// EOppGroups is equal opportunity for R groups: the MV of p against z
// within the examples with y = 1. With z_i = a_i it equals EOpp(p, y, a).
func EOppGroups(p, y []float64, z []int) float64 {
	checkLen("EOppGroups", len(p), len(z), len(y))
	codes, r := denseCodes(z)
	return mvGroups(partition(p, codes, r, y, 1))
}

// OverlapWeightsGroups writes the generalised overlap weights of
// docs/method.md §3.2 (Li & Li 2019) into w:
//
//	w_i = h_i / e_{z_i,i},  h_i = 1 / Σ_r 1/e_{r,i},
//
// where e is the row-major n×r matrix of propensities, row i holding
// P(group = k | x_i) for k = 0 … r−1, and z_i ∈ [0, r) is example i's group.
// Each row should sum to 1; with r = 2 the weights are then today's
// OverlapWeights (1 − ê for group 1, ê for group 0).
//
// The weight is computed as 1 / Σ_r e_{z_i,i}/e_{r,i}, the same number
// without forming 1/e: it is 1 when e_{z_i,i} = 0 and every other
// propensity is positive (the limit, and at r = 2 today's 1 − 0), and 0
// when another group's propensity is 0 (h_i = 0). Propensities outside
// [0, 1] or not finite, groups outside [0, r) and mismatched lengths are
// errors naming the first offending example.
func OverlapWeightsGroups(e []float64, r int, z []int, w []float64) error {
	n := len(z)
	if r < 2 {
		return fmt.Errorf("overlap weights: %d groups, want at least 2", r)
	}
	if len(e) != n*r || len(w) != n {
		return fmt.Errorf("overlap weights: %d propensities, %d groups and %d weights: want %d×%d, %d and %d",
			len(e), n, len(w), n, r, n, n)
	}
	for i, g := range z {
		if g < 0 || g >= r {
			return fmt.Errorf("overlap weights: example %d: group %d, want 0 … %d", i, g, r-1)
		}
		row := e[i*r : (i+1)*r]
		for k, v := range row {
			if !(v >= 0 && v <= 1) {
				return fmt.Errorf("overlap weights: example %d: propensity of group %d is %v, want a number in [0, 1]", i, k, v)
			}
		}
		own := row[g]
		var sum float64 // Σ_r e_own/e_r, with the own term exactly 1
		for k, v := range row {
			switch {
			case k == g:
				sum++
			case v == 0:
				sum = math.Inf(1)
			default:
				sum += own / v
			}
		}
		w[i] = 1 / sum
	}
	return nil
}

// OverlapMeans returns the overlap-weighted mean outcome of each group,
//
//	m_r = Σ_{i: z_i = r} w_i o_i / Σ_{i: z_i = r} w_i,
//
// with the groups' labels in increasing order. o must be finite, w finite
// and ≥ 0; a group whose total weight is 0 has no mean and is an error, as
// for ATO.
func OverlapMeans(o []float64, z []int, w []float64) (labels []int, means []float64, err error) {
	if len(o) != len(z) || len(w) != len(z) {
		return nil, nil, fmt.Errorf("ato: %d outcomes, %d groups and %d weights: want equal lengths", len(o), len(z), len(w))
	}
	codes, r := denseCodes(z)
	labels = make([]int, r)
	tw, to := make([]float64, r), make([]float64, r)
	for i, g := range codes {
		if math.IsNaN(o[i]) || math.IsInf(o[i], 0) {
			return nil, nil, fmt.Errorf("ato: example %d: outcome %v, want a finite number", i, o[i])
		}
		if !(w[i] >= 0) || math.IsInf(w[i], 0) {
			return nil, nil, fmt.Errorf("ato: example %d: weight %v, want a finite number ≥ 0", i, w[i])
		}
		labels[g] = z[i]
		tw[g] += w[i]
		to[g] += w[i] * o[i]
	}
	means = make([]float64, r)
	for g := range means {
		if !(tw[g] > 0) {
			return nil, nil, fmt.Errorf("ato: group %d has zero total weight: its mean is undefined", labels[g])
		}
		means[g] = to[g] / tw[g]
	}
	return labels, means, nil
}

// ATOGroups is the ATO for R groups (docs/method.md §7): the largest
// pairwise difference of the overlap-weighted group means of OverlapMeans,
//
//	max_{r,s} |m_r − m_s| = max_r m_r − min_r m_r.
//
// With two groups it is |m_1 − m_0| = |τ̂(o)|, exactly ATO's absolute value
// for the same weights. It needs at least two groups; the errors are those
// of OverlapMeans.
func ATOGroups(o []float64, z []int, w []float64) (float64, error) {
	_, means, err := OverlapMeans(o, z, w)
	if err != nil {
		return 0, err
	}
	if len(means) < 2 {
		return 0, fmt.Errorf("ato: %d group, want at least 2 to compare", len(means))
	}
	return slices.Max(means) - slices.Min(means), nil
}

// ByGroups computes the metrics of each group for predicted probabilities
// p and labels y, in increasing order of the labels z (GroupMetrics.A is
// the label). A prediction is positive when p ≥ 0.5. p must be finite and
// in [0, 1] and y 0 or 1, else the error names the first offending
// example. With z_i = a_i ∈ {0, 1} and both groups present it equals
// ByGroup(p, y, a).
func ByGroups(p, y []float64, z []int) ([]GroupMetrics, error) {
	if err := validateGroups("probability", p, y, z, nil); err != nil {
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

// EvaluateGroups is Evaluate for R groups: the metrics of probabilities p
// for labels y and group labels z, with dp, eo and eopp the R-group
// indices (DPGroups, EOGroups, EOppGroups) and, when w is not nil, ato the
// R-group ATO of p with the weights w (ATOGroups; the generalised overlap
// weights come from OverlapWeightsGroups). With w == nil HasATO is false.
//
// p must be finite and in [0, 1], y 0 or 1, w finite and ≥ 0, all of one
// length n ≥ 1, and at least two groups must be present. With z_i = a_i
// and w from OverlapWeights(e, a, w) it equals Evaluate(p, y, a, e).
func EvaluateGroups(p, y []float64, z []int, w []float64) (Metrics, error) {
	if err := validateGroups("probability", p, y, z, w); err != nil {
		return Metrics{}, err
	}
	return finishGroups(p, y, z, w, probLoss(p, y))
}

// EvaluateGroupsLogits is EvaluateGroups for logits s, with the exact
// risk of EvaluateLogits.
func EvaluateGroupsLogits(s, y []float64, z []int, w []float64) (Metrics, error) {
	if err := validateGroups("logit", s, y, z, w); err != nil {
		return Metrics{}, err
	}
	p, loss := logitLoss(s, y)
	return finishGroups(p, y, z, w, loss)
}

func finishGroups(p, y []float64, z []int, w []float64, loss float64) (Metrics, error) {
	n := len(p)
	m := Metrics{N: n, Risk: loss / float64(n), Accuracy: accuracy(p, y)}
	if w != nil {
		ato, err := ATOGroups(p, z, w)
		if err != nil {
			return Metrics{}, fmt.Errorf("evaluate: %w", err)
		}
		m.ATO, m.HasATO = ato, true
	}
	m.DP = DPGroups(p, z)
	m.EO = EOGroups(p, y, z)
	m.EOpp = EOppGroups(p, y, z)
	return m, nil
}

// validateGroups checks the inputs of EvaluateGroups (w may be nil).
func validateGroups(kind string, s, y []float64, z []int, w []float64) error {
	n := len(s)
	if n == 0 {
		return fmt.Errorf("evaluate: no examples")
	}
	if len(y) != n || len(z) != n || (w != nil && len(w) != n) {
		nw := "no"
		if w != nil {
			nw = fmt.Sprint(len(w))
		}
		plural := map[string]string{"probability": "probabilities", "logit": "logits"}[kind]
		return fmt.Errorf("evaluate: %d %s, %d labels, %d groups and %s weights: want equal lengths",
			n, plural, len(y), len(z), nw)
	}
	for i, v := range s {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return fmt.Errorf("evaluate: example %d: %s %v, want a finite number", i, kind, v)
		case kind == "probability" && (v < 0 || v > 1):
			return fmt.Errorf("evaluate: example %d: probability %v outside [0, 1]", i, v)
		case y[i] != 0 && y[i] != 1:
			return fmt.Errorf("evaluate: example %d: label %v, want 0 or 1", i, y[i])
		case w != nil && (!(w[i] >= 0) || math.IsInf(w[i], 0)):
			return fmt.Errorf("evaluate: example %d: weight %v, want a finite number ≥ 0", i, w[i])
		}
	}
	if slices.Min(z) == slices.Max(z) {
		return fmt.Errorf("evaluate: every example is in group %d: the fairness metrics compare at least two groups", z[0])
	}
	return nil
}
