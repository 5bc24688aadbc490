// Package compare compares groups of trained candidates read from records:
// for each unfairness metric the pooled table of docs/method.md §8 (distinct
// non-dominated points, hypervolume, share of the pooled front), each
// split's hypervolume per group, and for each pair of groups the paired
// per-split difference with a bootstrap interval and a signed-rank p-value.
//
// It turns records into points and groups; the geometry and the statistics
// are package pareto's.
package compare
