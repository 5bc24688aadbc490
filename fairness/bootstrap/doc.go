// Package bootstrap gives the test metrics of one set of predictions
// (risk, accuracy, ATO, DP, EO, EOpp and the decision metrics, as package
// fairness computes them) intervals from a seeded bootstrap of the rows.
//
// A Sample sorts the rows by score once. Each resample is a vector of
// multiplicities (how often each row was drawn, n draws with replacement),
// and every metric is computed with the rows weighted by them, in one pass
// over the sorted rows: an interval costs O(n) per resample, not
// O(n log n). With every multiplicity 1 the metrics are those of
// fairness.Evaluate, for two groups or R alike (New, NewLogits).
//
// What an interval holds fixed: the network (its scores) and, for the ATO,
// the propensity model (its overlap weights); only the rows vary. The
// fairness metrics are ≥ 0 and their plug-in values biased upwards on
// finite samples, so a percentile interval of them misses a value near 0:
// the gap metrics are bootstrapped through their signed contrasts and the
// mean-variance indices through their unbiased form (cover.go,
// docs/method.md §7.1), which cover near 0 as well as away from it.
//
// Two networks scored on the same rows are compared in pairs
// (Differences): each resample draws the rows once and both networks'
// metrics are computed with the same multiplicities, mapped to each
// sample's score order (ScoreOrder), giving intervals of the differences.
package bootstrap
