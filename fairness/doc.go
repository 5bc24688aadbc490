// Package fairness measures the dependence of a classifier's scores on a
// binary sensitive attribute a, with plain functions of (score, y, a, w)
// that anyone can call on predictions from anywhere (docs/method.md §7):
//
//   - ATO and ATOVec: the average treatment effect for the overlap
//     population, τ̂, of an outcome with overlap weights from a propensity
//     score (OverlapWeights), and Contrast, the per-row weights of τ̂.
//   - MV: the mean-variance index of a score against groups, and DP, EO and
//     EOpp built on it (demographic parity, equalized odds, equal
//     opportunity, each "lower is fairer").
//   - Evaluate and EvaluateLogits: every metric of a set of predictions at
//     once.
//   - AuditPredictions: every metric and the per-group breakdown (ByGroup)
//     of a file of predictions read by datasets.ReadPredictions.
//
// The penalties trained on (as graph code) are in package penalties; this
// package imports no Gorgonia.
package fairness
