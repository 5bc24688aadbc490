package scalarize

import (
	"fmt"
	"math"
)

// ChebyshevAugmented minimises max{(1−λ)R̃, λŨ} + ρ((1−λ)R̃ + λŨ).
const ChebyshevAugmented Method = "cheb-aug"

// DefaultRho is ρ of the augmented Chebyshev scalarization when none is given.
const DefaultRho = 0.01

// Scalarization turns the standardized risk R̃ and unfairness Ũ at the
// trade-off weight λ into the one number a network minimises
// (docs/method.md §3.5). This is its numeric form, Gorgonia-free: the graph
// engine builds its graph form (package graph/scalarizations), the handwritten
// engine and the plateau and held-out rules read Value.
type Scalarization interface {
	// Name identifies the scalarization in records (the sweep's method).
	Name() string
	// Version identifies its code and enters a sweep's digest: change it
	// whenever the scalarization computes something else. The built-ins
	// have "", as they are identified by fp's own version.
	Version() string
	// Value returns the scalarized objective at (R̃, Ũ; λ) and its partial
	// derivatives with respect to R̃ and Ũ.
	Value(rt, ut, lambda float64) (v, dRt, dUt float64)
}

// Cheb is the Chebyshev scalarization max{(1−λ)R̃, λŨ}. Its derivative is
// one side's: the risk side when (1−λ)R̃ ≥ λŨ (ties included), a valid
// subgradient that matches the graph form's 0.5(a+b+|a−b|) with
// |·|′(0) = +1.
type Cheb struct{}

// Name is "cheb".
func (Cheb) Name() string { return string(Chebyshev) }

// Version is empty: a built-in.
func (Cheb) Version() string { return "" }

// Value is max{(1−λ)R̃, λŨ} and its derivatives.
func (Cheb) Value(rt, ut, lambda float64) (v, dRt, dUt float64) {
	a, b := (1-lambda)*rt, lambda*ut
	if a >= b {
		return a, 1 - lambda, 0
	}
	return b, 0, lambda
}

// Chebyshev marks the built-in Chebyshev scalarization, whose arithmetic
// the handwritten engine knows.
func (Cheb) Chebyshev() {}

// Lin is the linear scalarization (1−λ)R̃ + λŨ.
type Lin struct{}

// Name is "linear".
func (Lin) Name() string { return string(Linear) }

// Version is empty: a built-in.
func (Lin) Version() string { return "" }

// Value is (1−λ)R̃ + λŨ and its derivatives.
func (Lin) Value(rt, ut, lambda float64) (v, dRt, dUt float64) {
	a, b := (1-lambda)*rt, lambda*ut
	return a + b, 1 - lambda, lambda
}

// Linear marks the built-in linear scalarization.
func (Lin) Linear() {}

// ChebAug is the augmented Chebyshev scalarization
// max{(1−λ)R̃, λŨ} + ρ((1−λ)R̃ + λŨ), ρ > 0. The added linear term makes
// every exact minimiser Pareto-optimal, not only weakly (docs/method.md
// §3.5). At a tie the maximum's derivative is the risk side's, as in Cheb.
type ChebAug struct{ Rho float64 }

// Name is "cheb-aug".
func (ChebAug) Name() string { return string(ChebyshevAugmented) }

// Version is empty: a built-in (ρ is a setting of the sweep and enters its
// digest as such).
func (ChebAug) Version() string { return "" }

// Value is max{a, b} + ρ(a + b) with a = (1−λ)R̃, b = λŨ, and its derivatives.
func (s ChebAug) Value(rt, ut, lambda float64) (v, dRt, dUt float64) {
	a, b := (1-lambda)*rt, lambda*ut
	lin := s.Rho * (a + b)
	if a >= b {
		return a + lin, (1 - lambda) + s.Rho*(1-lambda), s.Rho * lambda
	}
	return b + lin, s.Rho * (1 - lambda), lambda + s.Rho*lambda
}

// AugmentedChebyshevRho marks the built-in augmented Chebyshev
// scalarization and returns its ρ.
func (s ChebAug) AugmentedChebyshevRho() float64 { return s.Rho }

// Validate refuses a ρ that is not a finite positive number.
func (s ChebAug) Validate() error {
	return ValidateRho(s.Rho)
}

// ValidateRho refuses a ρ of the augmented Chebyshev scalarization that is
// not finite and > 0.
func ValidateRho(rho float64) error {
	if !(rho > 0) || math.IsInf(rho, 0) {
		return fmt.Errorf("ρ = %g, want a finite value > 0 (default %g)", rho, DefaultRho)
	}
	return nil
}

// Builtin returns the built-in scalarization of method: Cheb, Lin, or
// ChebAug with ρ = rho (rho is ignored by the others).
func Builtin(method Method, rho float64) (Scalarization, error) {
	switch method {
	case Chebyshev:
		return Cheb{}, nil
	case Linear:
		return Lin{}, nil
	case ChebyshevAugmented:
		if err := ValidateRho(rho); err != nil {
			return nil, fmt.Errorf("scalarization %s: %w", method, err)
		}
		return ChebAug{Rho: rho}, nil
	}
	return nil, fmt.Errorf("scalarization %q: want cheb, linear or cheb-aug", method)
}

// IsBuiltinName reports whether name is taken by a built-in method (a
// scalarization or one of the unscalarized objectives), which a custom
// scalarization may not use.
func IsBuiltinName(name string) bool {
	switch Method(name) {
	case Risk, Penalty, Sum, Chebyshev, Linear, ChebyshevAugmented:
		return true
	}
	return false
}
