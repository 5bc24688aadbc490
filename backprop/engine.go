package backprop

import (
	"fmt"
	"math"

	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// Name is the engine's name in records.
const Name = "backprop"

// ErrUnsupported is train.ErrUnsupported: errors.Is(err, ErrUnsupported)
// holds for the error Check and NewTrainer return for a term that is not
// built in.
var ErrUnsupported = train.ErrUnsupported

// ATOPenalty is a penalty whose gradient the handwritten engine knows: the
// ATO penalty U = Σ_l Σ_units |τ̂(h^(l))| over the last hidden layer
// (ATOAllLayers false) or over every hidden layer (true), reading the ATO
// contrast from its one input column (docs/method.md §3). penalties.ATOPenultimate
// and penalties.ATOAll are the ATOPenalty values.
type ATOPenalty interface {
	train.Term
	ATOAllLayers() bool
}

// NormalizedATOPenalty is the scale-free ATO penalty whose gradient the
// handwritten engine knows: U = Σ_u |τ̂(h_u)| / √(σ_u² + ε²) over the units
// of the last hidden pre-activation, σ_u its unweighted standard deviation
// on the batch and ε = 1e-8, reading the ATO contrast from its one input
// column. penalties.ATOPenultimateNormalized is one.
type NormalizedATOPenalty interface {
	train.Term
	ATOPenultimateNormalized()
}

// OutputATOPenalty is the ATO penalty on the predicted probability,
// U = |cᵀσ(z)|, reading the contrast c from its one input column:
// penalties.ATOOutput (the overlap-weighted ATO contrast) and
// penalties.DPMean (the unweighted contrast, the gap of the groups' mean
// probabilities) are such.
type OutputATOPenalty interface {
	train.Term
	ATOOutput()
}

// GroupATOPenalty is the R-group form of a built-in ATO penalty
// (penalties.ForGroups): a train.GroupTerm that also carries one of the
// markers of ATOPenalty, NormalizedATOPenalty or OutputATOPenalty, naming
// the values it covers, and reads the R overlap-mean columns g_r (Groups of
// them, in group order) instead of the contrast. Each covered unit
// contributes D_u = max_r m_r,u − min_r m_r,u with m_r,u = Σ_i g_r,i h_iu
// in place of |τ̂_u| (docs/method.md §3.3).
type GroupATOPenalty interface {
	train.GroupTerm
}

// EOMeanPenalty is the equalized-odds gap of mean probabilities,
// U = max(|c⁰ᵀσ(z)|, |c¹ᵀσ(z)|), reading the unweighted contrasts within
// the rows with y = 0 and y = 1 from its two input columns
// (penalties.EOMean). Its R-group form (a train.GroupTerm) reads 2R
// columns, the group means within y = 0 and then within y = 1, and each
// part is the spread D_y = max_r m_y,r − min_r m_y,r of its means.
type EOMeanPenalty interface {
	train.Term
	EqualizedOddsMean()
}

// MVPenalty is the smoothed mean-variance index of the predicted
// probabilities s = σ(z) (penalties.DPMV, penalties.EOMV and their R-group
// forms): for each subset of rows, all of them or (conditional) those with
// y = 0 and those with y = 1, with K_ij = σ((s_i − s_j)/T) off the diagonal
// and 1 on it, the index Σ_r q_rᵀ(K·g_r − K·w)², U the larger over the
// subsets. It reads, per subset in that order, 1 + 2R columns: w, the R
// group means g_r and the R shares q_r (R the GroupTerm's groups, else 2).
type MVPenalty interface {
	train.Term
	MeanVariance() (temperature float64, conditional bool)
}

// RatePenalty is the gap in smoothed selection rates at a decision
// threshold t (penalties.DPRate, penalties.EORate and their R-group forms):
// with ŝ_i = σ((z_i − logit t)/T), for each subset of rows, all of them or
// (conditional) those with y = 0 and those with y = 1, the gap |cᵀŝ| of a
// 0/1 attribute's contrast c (one column per subset) or, for the R-group
// form, the spread max_r g_rᵀŝ − min_r g_rᵀŝ of its R group means (R
// columns per subset); U is the larger over the subsets.
type RatePenalty interface {
	train.Term
	SelectionRate() (threshold, temperature float64, conditional bool)
}

// normEps is ε of NormalizedATOPenalty (penalties.NormalizedEps).
const normEps = 1e-8

// ChebyshevScalarization is the built-in Chebyshev scalarization
// max{(1−λ)R̃, λŨ} (scalarize.Cheb, scalarizations.Chebyshev).
type ChebyshevScalarization interface {
	scalarize.Scalarization
	Chebyshev()
}

// LinearScalarization is the built-in linear scalarization (1−λ)R̃ + λŨ
// (scalarize.Lin, scalarizations.Linear).
type LinearScalarization interface {
	scalarize.Scalarization
	Linear()
}

// AugmentedChebyshevScalarization is the built-in augmented Chebyshev
// scalarization max{(1−λ)R̃, λŨ} + ρ((1−λ)R̃ + λŨ) with the ρ it returns
// (scalarize.ChebAug, scalarizations.AugmentedChebyshev).
type AugmentedChebyshevScalarization interface {
	scalarize.Scalarization
	AugmentedChebyshevRho() float64
}

// BCERisk is the built-in binary cross-entropy (losses.BCE).
type BCERisk interface {
	train.Term
	BinaryCrossEntropy()
}

// Engine builds handwritten-gradient trainers. The zero value is ready to use.
type Engine struct{}

var _ train.Engine = Engine{}

// Name returns "backprop".
func (Engine) Name() string { return Name }

// hint is what a user of a term the engine cannot train should do.
const hint = "it trains only the built-in risk (bce), penalties (ato-penultimate, ato-all, ato-penultimate-normalized, ato-output, dp-mean, eo-mean, dp-mv, eo-mv, dp-rate, eo-rate) and scalarizations (cheb, linear, cheb-aug); use the graph engine"

// Check accepts the built-in BCE risk (or none), the built-in penalties
// (ATOPenalty, NormalizedATOPenalty, OutputATOPenalty, and their R-group
// forms, GroupATOPenalty; EOMeanPenalty; MVPenalty; RatePenalty) or none,
// and the built-in scalarizations (ChebyshevScalarization,
// LinearScalarization, AugmentedChebyshevScalarization) or none; any other
// term is graph code, which only the graph engine can differentiate. A
// penalty read before a conditioned network's modulation
// (req.PenaltyBeforeFiLM) is refused: the fold this engine trains by has no
// such layer.
func (Engine) Check(req train.Requirements) error {
	_, _, err := check(req)
	return err
}

// builtinScalarization is the engine's own numeric form of a built-in
// scalarization, or an *train.UnsupportedError.
func builtinScalarization(s scalarize.Scalarization) (scalarize.Scalarization, error) {
	switch v := s.(type) {
	case ChebyshevScalarization:
		return scalarize.Cheb{}, nil
	case LinearScalarization:
		return scalarize.Lin{}, nil
	case AugmentedChebyshevScalarization:
		return scalarize.ChebAug{Rho: v.AugmentedChebyshevRho()}, nil
	}
	return nil, &train.UnsupportedError{Engine: Name, Kind: "scalarization", Term: s.Name(), Hint: hint}
}

// check returns the penalty layers of req and, for the R-group form of a
// built-in penalty (GroupATOPenalty), R (0 for a binary penalty), or an
// *train.UnsupportedError.
func check(req train.Requirements) (penalty, int, error) {
	if req.PenaltyBeforeFiLM {
		// The engine trains a conditioned network through the fold
		// (train.Folded), whose layers are the modulated ones.
		return penNone, 0, &train.UnsupportedError{Engine: Name, Kind: "penalty position", Term: train.PenaltyBeforeFiLM,
			Hint: "it trains a λ-conditioned network through the fold into a plain network (docs/method.md §12), which has no layer before the modulation; use the graph engine"}
	}
	if req.Scalarization != nil {
		if _, err := builtinScalarization(req.Scalarization); err != nil {
			return penNone, 0, err
		}
	}
	if req.Risk != nil {
		if _, ok := req.Risk.(BCERisk); !ok {
			return penNone, 0, &train.UnsupportedError{Engine: Name, Kind: "risk", Term: req.Risk.Name(), Hint: hint}
		}
	}
	if req.Penalty == nil {
		return penNone, 0, nil
	}
	unsupported := &train.UnsupportedError{Engine: Name, Kind: "penalty", Term: req.Penalty.Name(), Hint: hint}
	inputs := 1
	groups := 0
	if g, ok := req.Penalty.(GroupATOPenalty); ok {
		groups = g.Groups()
		if groups < 2 {
			return penNone, 0, unsupported
		}
		inputs = groups
	}
	switch p := req.Penalty.(type) {
	case EOMeanPenalty:
		inputs = 2 * max(groups, 1)
	case MVPenalty:
		temp, cond := p.MeanVariance()
		if !(temp > 0) || math.IsInf(temp, 0) {
			return penNone, 0, unsupported
		}
		inputs = 1 + 2*max(groups, 2)
		if cond {
			inputs *= 2
		}
	case RatePenalty:
		th, temp, cond := p.SelectionRate()
		if !(th > 0 && th < 1) || !(temp > 0) || math.IsInf(temp, 0) {
			return penNone, 0, unsupported
		}
		inputs = max(groups, 1)
		if cond {
			inputs *= 2
		}
	}
	if len(req.Penalty.Inputs()) != inputs {
		return penNone, 0, unsupported
	}
	switch p := req.Penalty.(type) {
	case EOMeanPenalty:
		return penEOMean, groups, nil
	case MVPenalty:
		return penMV, groups, nil
	case RatePenalty:
		return penRate, groups, nil
	case ATOPenalty:
		if p.ATOAllLayers() {
			return penAll, groups, nil
		}
		return penLast, groups, nil
	case NormalizedATOPenalty:
		return penLastNorm, groups, nil
	case OutputATOPenalty:
		return penOutput, groups, nil
	}
	return penNone, 0, unsupported
}

// NewTrainer builds a trainer for spec. It refuses a custom penalty or risk
// with an error wrapping ErrUnsupported. A spec with a conditioning network
// (spec.FiLM) gets a train.Folded around a plain trainer: the modulation
// folds into the hidden layers' weights exactly (docs/method.md §12), so the
// handwritten kernels train it unchanged. It is safe for concurrent use.
func (Engine) NewTrainer(spec train.Spec) (train.Trainer, error) {
	if spec.FiLM != nil {
		if err := spec.Validate(); err != nil {
			return nil, fmt.Errorf("backprop: %w", err)
		}
		if _, _, err := check(spec.Requirements()); err != nil {
			return nil, err
		}
		plain := spec
		plain.FiLM = nil
		t, err := New(plain)
		if err != nil {
			return nil, err
		}
		return train.NewFolded(t, spec)
	}
	return New(spec)
}

// New is NewTrainer with the concrete type.
func New(spec train.Spec) (*Trainer, error) {
	if err := spec.Validate(); err != nil {
		return nil, fmt.Errorf("backprop: %w", err)
	}
	req := spec.Requirements()
	pen, groups, err := check(req)
	if err != nil {
		return nil, err
	}
	if err := spec.Init.Validate(); err != nil {
		return nil, fmt.Errorf("backprop: initial network: %w", err)
	}
	if !spec.Objective.UsesPenalty() {
		// A risk-only objective never reads U: the graph engine builds no
		// penalty for it either, and reports U = 0.
		pen = penNone
	}
	if s := spec.Objective.Scalar(); s != nil {
		// The engine computes a built-in scalarization with its own
		// arithmetic (scalarize's), whatever type carried it.
		if spec.Objective.Scalarization, err = builtinScalarization(s); err != nil {
			return nil, err
		}
	}
	if pen == penNone {
		groups = 0
	}
	t := newTrainer(spec, pen, groups)
	switch {
	case pen == penEOMean || pen == penMV || pen == penRate:
		t.initOutput(req.Penalty, groups)
	case groups > 0:
		for _, in := range req.Penalty.Inputs() {
			t.groupCols = append(t.groupCols, in.Name)
		}
	case pen != penNone:
		t.contrast = req.Penalty.Inputs()[0].Name
	}
	return t, nil
}

// penalty says which hidden layers the built-in ATO penalty covers.
type penalty int

const (
	penNone     penalty = iota // objective without U
	penLast                    // ato-penultimate: the last hidden layer
	penAll                     // ato-all: every hidden layer
	penLastNorm                // ato-penultimate-normalized: the last hidden layer, per unit over its σ
	penOutput                  // ato-output (and dp-mean): the predicted probability
	penEOMean                  // eo-mean: the predicted probability within each label
	penMV                      // dp-mv, eo-mv: the smoothed mean-variance index of the probability
	penRate                    // dp-rate, eo-rate: gaps of smoothed selection rates at a threshold
)

// covers reports whether hidden layer l (0-based) of nh is penalised.
func (p penalty) covers(l, nh int) bool {
	switch p {
	case penAll:
		return true
	case penLast, penLastNorm:
		return l == nh-1
	}
	return false
}
