package fairness

import (
	"fmt"
	"math"
	"slices"

	"github.com/fpareto/fp/model"
)

// Metrics are the test metrics of a set of predictions (docs/method.md §7). Every
// fairness metric is "lower is fairer".
type Metrics struct {
	N        int     `json:"n"`
	Risk     float64 `json:"risk"`     // mean binary cross-entropy
	Accuracy float64 `json:"accuracy"` // of the rule "predict 1 iff p ≥ 0.5"
	ATO      float64 `json:"ato"`      // |τ̂(p)| with overlap weights; valid when HasATO
	DP       float64 `json:"dp"`
	EO       float64 `json:"eo"`
	EOpp     float64 `json:"eopp"`
	// HasATO is false when no propensity was given.
	HasATO bool `json:"-"`
}

// ProbClip keeps log p and log(1−p) finite when Evaluate computes the risk
// from probabilities: p is clipped to [ProbClip, 1−ProbClip] for the
// logarithm only (the other metrics use p as given). It is the clip of
// scikit-learn's log_loss, so a prediction of exactly 0 or 1 costs at most
// −log(1e-15) ≈ 34.5 instead of +Inf.
const ProbClip = 1e-15

// Evaluate computes the metrics of predicted probabilities p for labels y
// and groups z (integer labels; a binary attribute a is the labels 0 and 1:
// BinaryGroups): the risk, the accuracy and the indices DP, EO and EOpp
// over every group, and, when w is not nil, the ATO of p with the overlap
// weights w (OverlapWeights gives them from propensities). With w == nil
// the ATO is not computed and HasATO is false.
//
// p must be finite and in [0, 1], y 0 or 1, w finite and ≥ 0, all of one
// length n ≥ 1, and at least two groups must be present; otherwise the
// error names the first offending example. The risk is the mean binary
// cross-entropy with p clipped as described at ProbClip.
func Evaluate(p, y []float64, z []int, w []float64) (Metrics, error) {
	if err := validate("probability", p, y, z, w); err != nil {
		return Metrics{}, err
	}
	return finish(p, y, z, w, probLoss(p, y))
}

// probLoss is the summed cross-entropy of probabilities p, clipped as
// described at ProbClip.
func probLoss(p, y []float64) float64 {
	var loss float64
	for i, pi := range p {
		pc := min(max(pi, ProbClip), 1-ProbClip)
		if y[i] == 1 {
			loss -= math.Log(pc)
		} else {
			loss -= math.Log1p(-pc)
		}
	}
	return loss
}

// EvaluateLogits is Evaluate for logits s: p = Sigmoid(s) and the risk is
// computed in the stable form mean(softplus(s) − y·s), exact for any finite
// s (docs/method.md §3). Training evaluates candidates with it.
func EvaluateLogits(s, y []float64, z []int, w []float64) (Metrics, error) {
	if err := validate("logit", s, y, z, w); err != nil {
		return Metrics{}, err
	}
	p, loss := logitLoss(s, y)
	return finish(p, y, z, w, loss)
}

// logitLoss returns the probabilities of logits z and their summed
// cross-entropy, in the stable form.
func logitLoss(z, y []float64) (p []float64, loss float64) {
	p = make([]float64, len(z))
	for i, zi := range z {
		loss += model.Softplus(zi) - y[i]*zi
		p[i] = model.Sigmoid(zi)
	}
	return p, loss
}

// finish computes every metric but the risk, whose sum is given.
func finish(p, y []float64, z []int, w []float64, loss float64) (Metrics, error) {
	n := len(p)
	m := Metrics{N: n, Risk: loss / float64(n), Accuracy: accuracy(p, y)}
	if w != nil {
		ato, err := ATO(p, z, w)
		if err != nil {
			return Metrics{}, fmt.Errorf("evaluate: %w", err)
		}
		m.ATO, m.HasATO = ato, true
	}
	m.DP = DP(p, z)
	m.EO = EO(p, y, z)
	m.EOpp = EOpp(p, y, z)
	return m, nil
}

// accuracy is the share of examples where "predict 1 iff p ≥ 0.5" matches y.
func accuracy(p, y []float64) float64 {
	correct := 0
	for i, pi := range p {
		if (pi >= 0.5) == (y[i] == 1) {
			correct++
		}
	}
	return float64(correct) / float64(len(p))
}

// validate checks the inputs of Evaluate (w may be nil); kind names the
// score ("probability" or "logit").
func validate(kind string, s, y []float64, z []int, w []float64) error {
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
