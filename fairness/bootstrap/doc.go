// Package bootstrap gives the test metrics of one set of predictions
// (risk, accuracy, ATO, DP, EO, EOpp, as package fairness computes them)
// percentile intervals from a seeded bootstrap of the rows.
//
// A Sample sorts the rows by score once. Each resample is a vector of
// multiplicities (how often each row was drawn, n draws with replacement),
// and every metric is computed with the rows weighted by them, in one pass
// over the sorted rows: an interval costs O(n) per resample, not
// O(n log n). With every multiplicity 1 the metrics are those of
// fairness.Evaluate, or of fairness.EvaluateGroupsLogits for a sensitive
// attribute in R > 2 groups (NewGroupsLogits).
//
// What an interval holds fixed: the network (its scores) and, for the ATO,
// the propensity model (its overlap weights); only the rows vary. The
// fairness metrics are ≥ 0 and biased upwards on finite samples, so near 0
// their intervals are less reliable than the risk's and the accuracy's.
//
// Two networks scored on the same rows are compared in pairs
// (Differences): each resample draws the rows once and both networks'
// metrics are computed with the same multiplicities, mapped to each
// sample's score order (ScoreOrder), giving intervals of the differences.
package bootstrap
