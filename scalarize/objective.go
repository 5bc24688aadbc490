package scalarize

import (
	"fmt"
	"math"
)

// Method says what a run minimises.
type Method string

const (
	// Risk minimises the raw risk R (the λ = 0 standardization run).
	Risk Method = "risk"
	// Penalty minimises the raw unfairness U (the λ = 1 standardization run).
	Penalty Method = "penalty"
	// Chebyshev minimises max{(1−λ)R̃, λŨ}.
	Chebyshev Method = "cheb"
	// Linear minimises (1−λ)R̃ + λŨ.
	Linear Method = "linear"
	// Sum minimises R + λ·U, unstandardized, for any λ ≥ 0: the form of
	// penalised objectives such as the adversarial baseline's BCE_y − β·BCE_a.
	Sum Method = "sum"
)

// Standardizer holds a split's standardization constants: R̃ = (R−RMin)/(RMax−RMin)
// and Ũ = (U−UMin)/(UMax−UMin), the extremes of the mini-batch values seen in
// the λ = 0 and λ = 1 runs.
type Standardizer struct {
	RMin, RMax, UMin, UMax float64
}

// Validate refuses constants that cannot standardize (a zero or non-finite range).
func (s Standardizer) Validate() error {
	for _, v := range []float64{s.RMin, s.RMax, s.UMin, s.UMax} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("standardization constants %+v: not finite", s)
		}
	}
	if !(s.RMax > s.RMin) {
		return fmt.Errorf("standardization: R_max = R_min = %g (the λ = 0 run saw a constant risk)", s.RMin)
	}
	if !(s.UMax > s.UMin) {
		return fmt.Errorf("standardization: U_max = U_min = %g (the λ = 1 run saw a constant unfairness)", s.UMin)
	}
	return nil
}

// R returns R̃ and dR̃/dR.
func (s Standardizer) R(r float64) (float64, float64) {
	d := 1 / (s.RMax - s.RMin)
	return (r - s.RMin) * d, d
}

// U returns Ũ and dŨ/dU.
func (s Standardizer) U(u float64) (float64, float64) {
	d := 1 / (s.UMax - s.UMin)
	return (u - s.UMin) * d, d
}

// Objective is one scalarized objective: a method, its λ and the split's
// standardization constants (unused by Risk and Penalty).
type Objective struct {
	Method Method
	Lambda float64
	Std    Standardizer
	// Scalarization combines R̃ and Ũ for every method but Risk, Penalty
	// and Sum; its Name is the Method. Nil means the built-in of Method
	// (Cheb or Lin; ChebyshevAugmented needs it set, for its ρ).
	Scalarization Scalarization
}

// Scalar returns the objective's scalarization: Scalarization, or the
// built-in of Method; nil for Risk, Penalty and Sum, and for a method with
// neither.
func (o Objective) Scalar() Scalarization {
	switch {
	case o.Method == Risk || o.Method == Penalty || o.Method == Sum:
		return nil
	case o.Scalarization != nil:
		return o.Scalarization
	case o.Method == Chebyshev:
		return Cheb{}
	case o.Method == Linear:
		return Lin{}
	}
	return nil
}

// Validate checks the method, λ ∈ [0, 1] and, for the scalarized methods, the constants.
func (o Objective) Validate() error {
	switch o.Method {
	case Risk, Penalty:
		return nil
	case Sum:
		if !(o.Lambda >= 0) || math.IsInf(o.Lambda, 0) {
			return fmt.Errorf("objective: λ = %g, want a finite value ≥ 0", o.Lambda)
		}
		return nil
	}
	s := o.Scalar()
	switch {
	case s == nil && o.Method == ChebyshevAugmented:
		return fmt.Errorf("objective %s: give its Scalarization (ChebAug with ρ)", o.Method)
	case s == nil:
		return fmt.Errorf("objective method %q: want risk, penalty, sum, cheb, linear or cheb-aug, or give a Scalarization of that name", o.Method)
	case Method(s.Name()) != o.Method:
		return fmt.Errorf("objective method %q: its scalarization is called %q", o.Method, s.Name())
	}
	if v, ok := s.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return fmt.Errorf("objective %s: %w", o.Method, err)
		}
	}
	if !(o.Lambda >= 0 && o.Lambda <= 1) {
		return fmt.Errorf("objective: λ = %g is outside [0, 1]", o.Lambda)
	}
	return o.Std.Validate()
}

// UsesPenalty reports whether the objective depends on U at all (so a trainer
// can skip computing it).
func (o Objective) UsesPenalty() bool {
	return o.Method != Risk
}

// Value returns the objective at (R, U) and its partial derivatives dR, dU:
// for a scalarization s, s(R̃, Ũ; λ) with dR = ∂s/∂R̃ · dR̃/dR and likewise
// for U. At a Chebyshev tie (1−λ)R̃ = λŨ the derivative is taken from the
// risk side alone, a valid subgradient; it matches the graph engine's
// 0.5(a+b+|a−b|) whose scalar |·|′(0) = +1.
func (o Objective) Value(r, u float64) (v, dR, dU float64) {
	switch o.Method {
	case Risk:
		return r, 1, 0
	case Penalty:
		return u, 0, 1
	case Sum:
		return r + o.Lambda*u, 1, o.Lambda
	}
	rt, drt := o.Std.R(r)
	ut, dut := o.Std.U(u)
	v, dRt, dUt := o.Scalar().Value(rt, ut, o.Lambda)
	return v, dRt * drt, dUt * dut
}
