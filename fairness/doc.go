// Package fairness measures and penalises the dependence of a classifier on a
// binary sensitive attribute a.
//
// The numeric half computes the test metrics of the method (SPEC §7) from
// plain slices, so that they can be applied to predictions from anywhere:
//
//   - ATO and ATOVec: the average treatment effect for the overlap
//     population, τ̂, of an outcome with overlap weights from a propensity
//     score (OverlapWeights).
//   - MV: the mean-variance index of a score against groups, and DP, EO and
//     EOpp built on it (demographic parity, equalized odds, equal
//     opportunity, each "lower is fairer").
//   - Evaluate and EvaluateLogits: every metric of a set of predictions at
//     once.
//
// The graph half expresses unfairness penalties as Gorgonia nodes (Penalty,
// the built-in ATOPenultimate and ATOAll, and NewPenalty for a penalty of
// one's own) so that training can differentiate them.
package fairness
