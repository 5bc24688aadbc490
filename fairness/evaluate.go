package fairness

import (
	"fmt"
	"math"

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
// and groups a. e, when not nil, is the propensity ê(x) = P(a=1|x) of each
// example, from which the overlap weights of the ATO come (OverlapWeights);
// with e == nil the ATO is not computed and HasATO is false.
//
// p and e must be finite and in [0, 1], y and a must be 0 or 1, all of the
// same length n ≥ 1, and both groups of a must be present; otherwise the
// error names the first offending example. The risk is the mean binary
// cross-entropy with p clipped as described at ProbClip.
func Evaluate(p, y, a, e []float64) (Metrics, error) {
	if err := validate("probability", p, y, a, e); err != nil {
		return Metrics{}, err
	}
	return finish(p, y, a, e, probLoss(p, y))
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

// EvaluateLogits is Evaluate for logits z: p = Sigmoid(z) and the risk is
// computed in the stable form mean(softplus(z) − y·z), exact for any finite
// z (docs/method.md §3). Training evaluates candidates with it.
func EvaluateLogits(z, y, a, e []float64) (Metrics, error) {
	if err := validate("logit", z, y, a, e); err != nil {
		return Metrics{}, err
	}
	p, loss := logitLoss(z, y)
	return finish(p, y, a, e, loss)
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
func finish(p, y, a, e []float64, loss float64) (Metrics, error) {
	n := len(p)
	m := Metrics{N: n, Risk: loss / float64(n), Accuracy: accuracy(p, y)}
	if e != nil {
		w := make([]float64, n)
		OverlapWeights(e, a, w)
		tau, err := ATO(p, a, w)
		if err != nil {
			return Metrics{}, fmt.Errorf("evaluate: %w", err)
		}
		m.ATO, m.HasATO = math.Abs(tau), true
	}
	m.DP = DP(p, a)
	m.EO = EO(p, y, a)
	m.EOpp = EOpp(p, y, a)
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

// validate checks the inputs of Evaluate; kind names the score ("probability"
// or "logit").
func validate(kind string, s, y, a, e []float64) error {
	n := len(s)
	if n == 0 {
		return fmt.Errorf("evaluate: no examples")
	}
	if len(y) != n || len(a) != n || (e != nil && len(e) != n) {
		ne := "no"
		if e != nil {
			ne = fmt.Sprint(len(e))
		}
		return fmt.Errorf("evaluate: %d %ss, %d labels, %d groups and %s propensities: want equal lengths",
			n, kind, len(y), len(a), ne)
	}
	var n1 int
	for i, v := range s {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return fmt.Errorf("evaluate: example %d: %s %v, want a finite number", i, kind, v)
		case kind == "probability" && (v < 0 || v > 1):
			return fmt.Errorf("evaluate: example %d: probability %v outside [0, 1]", i, v)
		case y[i] != 0 && y[i] != 1:
			return fmt.Errorf("evaluate: example %d: label %v, want 0 or 1", i, y[i])
		case a[i] != 0 && a[i] != 1:
			return fmt.Errorf("evaluate: example %d: group %v, want 0 or 1", i, a[i])
		case e != nil && !(e[i] >= 0 && e[i] <= 1):
			return fmt.Errorf("evaluate: example %d: propensity %v outside [0, 1]", i, e[i])
		}
		if a[i] == 1 {
			n1++
		}
	}
	if n1 == 0 || n1 == n {
		missing := 0
		if n1 == 0 {
			missing = 1
		}
		return fmt.Errorf("evaluate: no example has a=%d: the fairness metrics compare two groups", missing)
	}
	return nil
}
