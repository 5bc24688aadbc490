// Package fairness measures the dependence of a classifier's scores on a
// sensitive attribute in R ≥ 2 groups, with plain functions of
// (score, y, groups, w) that anyone can call on predictions from anywhere
// (docs/method.md §7). One API serves two groups and R alike, as
// Fairlearn's does: the groups are integer labels z (any labels; two groups
// are simply the labels 0 and 1 — BinaryGroups turns a 0/1 attribute into
// them, and Binary turns it and its propensity scores into the labels and
// the overlap weights), and at two groups every function gives exactly what
// the binary formulas give.
//
//   - OverlapWeights: the overlap weights of docs/method.md §3 from
//     propensities, the generalised weights h/e_z of R groups, or for two
//     groups from the propensity score ê = P(z = 1 | x) alone (1 − ê in
//     group 1, ê in group 0).
//   - ATO: the average treatment effect for the overlap population, the
//     largest difference of the overlap-weighted group means (OverlapMeans);
//     at two groups |τ̂|. ATOVec gives the signed τ̂ of two groups per unit of
//     a vector outcome, and Contrast the per-row weights of τ̂ that the
//     training penalty uses.
//   - MV: the mean-variance index of a score against groups, and DP, EO and
//     EOpp built on it (demographic parity, equalized odds, equal
//     opportunity, each "lower is fairer").
//   - Evaluate and EvaluateLogits: every metric of a set of predictions at
//     once.
//   - ByGroup: the per-group breakdown of a set of predictions (package
//     fairness/audit prints it with every metric for a file of predictions).
//   - DecideScores, DecideLogits and DecideRandomized: the decision metrics
//     (rates of selection, TPR and FPR gaps) at a threshold.
//
// The penalties trained on (as graph code) are in package penalties; this
// package imports no Gorgonia.
package fairness
