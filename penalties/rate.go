package penalties

import (
	"fmt"
	"math"

	"github.com/fpareto/fp/train"
	G "gorgonia.org/gorgonia"
)

// RateTemperature is the temperature T of the smoothed decision
// 1{p ≥ t} ≈ σ((z − logit t)/T) in DPRate and EORate, on the logit scale
// z (docs/method.md §3.3). A row whose logit is d from the threshold's
// counts σ(d/T) of a selection: with T = 0.1 a row 0.5 in logit from the
// threshold (p = 0.62 at t = 0.5) counts to within 0.7%, and the smoothed
// rate's bias on the rows near the threshold, about T·ln 2 per unit of
// logit density on either side, mostly cancels between the two sides.
// Rows within about ±4T = ±0.4 in logit (p between 0.40 and 0.60 at
// t = 0.5, about ±0.025 in probability per T there, as MVTemperature)
// take a gradient: on a batch of 150 rows of a network whose logits
// spread over a few units, tens of rows. A much smaller T leaves the few
// rows nearest the threshold with a large, noisy gradient and the rest
// with none; a much larger one turns the rate into a mean of the logits,
// and the penalty back into a gap of mean scores, which a network meets by
// compressing every score (as dp-mean does).
const RateTemperature = 0.1

// rateShift is logit(t), the logit of threshold t in (0, 1).
func rateShift(t float64) float64 { return math.Log(t / (1 - t)) }

// DPRate is the smoothed dp_diff at decision threshold t (as
// fairness.DecideScores measures it): with the smoothed selection ŝ_i = σ((z_i − logit t)/T),
// T = RateTemperature, and ŝ(S) its mean over the rows S,
//
//	U = |ŝ(a = 1) − ŝ(a = 0)|
//
// over the batch's real rows (unweighted). As T → 0 it is the gap in
// selection rates of the decisions p ≥ t. t must be in (0, 1).
func DPRate(t float64) (Penalty, error) {
	if err := checkThreshold(t); err != nil {
		return nil, fmt.Errorf("%s: %w", NameDPRate, err)
	}
	return ratePenalty{threshold: t}, nil
}

// EORate is the smoothed eo_diff at decision threshold t: the larger of
// the gap in ŝ between the groups within the rows with y = 1 (the smoothed
// TPR gap) and within those with y = 0 (the smoothed FPR gap). A label
// subset that lacks one of the groups contributes 0, with a zero gradient.
// t must be in (0, 1).
func EORate(t float64) (Penalty, error) {
	if err := checkThreshold(t); err != nil {
		return nil, fmt.Errorf("%s: %w", NameEORate, err)
	}
	return ratePenalty{cond: true, threshold: t}, nil
}

func checkThreshold(t float64) error {
	if !(t > 0 && t < 1) {
		return fmt.Errorf("decision threshold %v: want a probability in (0, 1)", t)
	}
	return nil
}

// ratePenalty is dp-rate (cond false) or eo-rate (cond true) at decision
// threshold threshold and temperature temp (RateTemperature; 0 means it),
// for a 0/1 attribute (r 0) or r ≥ 2 groups.
type ratePenalty struct {
	cond      bool
	r         int
	threshold float64
	temp      float64
}

func (p ratePenalty) Name() string {
	if p.cond {
		return NameEORate
	}
	return NameDPRate
}

// Version is empty: the built-ins are identified by fp's own version, and
// the threshold by the sweep's configuration.
func (ratePenalty) Version() string { return "" }

// rows are the subsets the groups are compared within.
func (p ratePenalty) rows() []Rows { return subsets(p.cond) }

// Inputs are, for each subset (all rows, or y = 0 then y = 1), its
// GroupContrast for a 0/1 attribute, or its R RowGroupMeans.
func (p ratePenalty) Inputs() []train.Input {
	var in []train.Input
	for _, s := range p.rows() {
		if p.r == 0 {
			in = append(in, GroupContrast(s))
		} else {
			in = append(in, RowGroupMeans(s, p.r)...)
		}
	}
	return in
}

// SelectionRate is how the handwritten engine recognises the penalty
// (backprop.RatePenalty): the decision threshold, the temperature and
// whether the gap is taken within each label.
func (p ratePenalty) SelectionRate() (threshold, temperature float64, conditional bool) {
	return p.threshold, p.temperature(), p.cond
}

func (p ratePenalty) temperature() float64 {
	if p.temp > 0 {
		return p.temp
	}
	return RateTemperature
}

// OutputOnly marks a penalty that reads no hidden layer.
func (ratePenalty) OutputOnly() {}

// Node builds ŝ = σ((z − logit t)·(1/T)) and, per subset, |cᵀŝ| (a 0/1
// attribute) or the spread of the group means of ŝ (R groups), U the
// larger over the subsets. Padding rows and rows outside a subset are 0
// in its columns; a subset lacking a group has all-zero columns, so its
// part is 0 and so is its gradient.
func (p ratePenalty) Node(n Net, b BatchNodes) (*G.Node, error) {
	if n.Logit == nil {
		return nil, fmt.Errorf("%s: the network has no logit", p.Name())
	}
	wrap := func(err error) error { return fmt.Errorf("%s: %w", p.Name(), err) }
	if err := checkThreshold(p.threshold); err != nil {
		return nil, wrap(err)
	}
	cols, err := inputColumns(b, p.Inputs())
	if err != nil {
		return nil, wrap(err)
	}
	d, err := G.Sub(n.Logit, G.NewConstant(rateShift(p.threshold)))
	if err != nil {
		return nil, wrap(err)
	}
	if d, err = G.Mul(d, G.NewConstant(1/p.temperature())); err != nil {
		return nil, wrap(err)
	}
	sel, err := G.Sigmoid(d)
	if err != nil {
		return nil, wrap(err)
	}
	u, err := subsetGaps(cols, sel, len(p.rows()), p.r)
	if err != nil {
		return nil, wrap(err)
	}
	return u, nil
}

// groupRate is dp-rate or eo-rate for R groups.
type groupRate struct{ ratePenalty }

// Groups is R (train.GroupTerm).
func (p groupRate) Groups() int { return p.r }
