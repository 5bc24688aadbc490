// Package pareto finds the non-dominated points of a set of candidates with
// two objectives to minimise (risk and unfairness), counts them, and measures
// sets of them by hypervolume and by their share of a pooled front, and
// compares groups split by split with a paired bootstrap interval and a
// signed-rank test (docs/method.md §8). Points closer than a tolerance on the
// normalised axes count as one distinct point.
//
// It knows nothing about where the points come from: a point is an (X, Y)
// pair, X the risk and Y the unfairness metric.
package pareto
