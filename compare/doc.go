// Package compare compares groups of trained candidates read from records:
// for each unfairness metric the pooled table of docs/method.md §8 (distinct
// non-dominated points, hypervolume, share of the pooled front), each
// split's hypervolume per group, and for each pair of groups the paired
// per-split difference A − B with a bootstrap interval, a signed-rank
// p-value and its Benjamini–Hochberg q-value over every pair of the
// comparison.
//
// A is the group read from the earlier argument (the first file or folder
// given), B the later; groups read from one argument follow the paper's
// order of methods. So comparing B with A negates every difference.
//
// It turns records into points and groups; the geometry and the statistics
// are package pareto's.
package compare
