// Package fairness measures the dependence of a classifier's scores on a
// sensitive attribute a (binary, or with R ≥ 2 groups), with plain
// functions of (score, y, a, w) that anyone can call on predictions from
// anywhere (docs/method.md §7):
//
//   - ATO and ATOVec: the average treatment effect for the overlap
//     population, τ̂, of an outcome with overlap weights from a propensity
//     score (OverlapWeights), and Contrast, the per-row weights of τ̂.
//   - MV: the mean-variance index of a score against groups, and DP, EO and
//     EOpp built on it (demographic parity, equalized odds, equal
//     opportunity, each "lower is fairer").
//   - Evaluate and EvaluateLogits: every metric of a set of predictions at
//     once.
//   - ByGroup: the per-group breakdown of a set of predictions (package
//     fairness/audit prints it with every metric for a file of predictions).
//   - For a sensitive attribute with R ≥ 2 values (integer group labels):
//     DPGroups, EOGroups and EOppGroups (the mean-variance indices over
//     every group), OverlapWeightsGroups (the generalised overlap weights
//     from R propensities), OverlapMeans and ATOGroups (the largest
//     pairwise difference of the overlap-weighted group means), ByGroups
//     and EvaluateGroups. With two groups labelled 0 and 1 they give
//     exactly what the binary functions give.
//
// The penalties trained on (as graph code) are in package penalties; this
// package imports no Gorgonia.
package fairness
