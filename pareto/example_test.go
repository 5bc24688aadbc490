package pareto_test

import (
	"fmt"

	"github.com/fpareto/fp/pareto"
)

// The non-dominated candidates among (risk, unfairness) pairs.
func ExampleFront() {
	pts := []pareto.Point{
		{X: 0.40, Y: 0.10},
		{X: 0.35, Y: 0.20},
		{X: 0.45, Y: 0.15}, // worse than the first in both
		{X: 0.30, Y: 0.30},
		{X: 0.35, Y: 0.20}, // a duplicate: kept, counted once
	}
	front := pareto.Front(pts)
	fmt.Println(front, pareto.CountDistinct(pts, front))
	// Output:
	// [3 1 4 0] 3
}

// Two methods compared on one normalised scale. Both reached (0.30, 0.30),
// so that point of the pooled front counts in both shares.
func ExampleCompare() {
	sums := pareto.Compare(map[string][]pareto.Point{
		"cheb":   {{X: 0.40, Y: 0.10}, {X: 0.35, Y: 0.20}, {X: 0.30, Y: 0.30}},
		"linear": {{X: 0.30, Y: 0.30}, {X: 0.45, Y: 0.15}},
	})
	for _, s := range sums {
		fmt.Printf("%-6s candidates %d  non-dominated %d  HV %.3f  share %.2f\n",
			s.Group, s.Candidates, s.NonDominated, s.Hypervolume, s.Share)
	}
	// Output:
	// cheb   candidates 3  non-dominated 3  HV 0.710  share 1.00
	// linear candidates 2  non-dominated 2  HV 0.185  share 0.33
}

// Three constant predictors that differ only by float noise are one
// distinct point of the front.
func ExampleCompareWith() {
	sums := pareto.CompareWith(map[string][]pareto.Point{
		"linear": {{X: 0.60, Y: 0.010}, {X: 0.689140, Y: 3e-8}, {X: 0.689142, Y: 1e-12}, {X: 0.689141, Y: 2e-9}},
	}, pareto.Options{Tolerance: 1e-4})
	fmt.Println(sums[0].Candidates, sums[0].NonDominated)
	// Output:
	// 4 2
}

// Two methods on three splits: each split's hypervolume, then the paired
// comparison.
func ExampleComparePairs() {
	hv := pareto.PerSplit(map[int]map[string][]pareto.Point{
		0: {"cheb": {{X: 0, Y: 1}, {X: 1, Y: 0}}, "linear": {{X: 0.5, Y: 0.5}}},
		1: {"cheb": {{X: 0, Y: 0}}, "linear": {{X: 1, Y: 1}}},
		2: {"cheb": {{X: 0, Y: 1}, {X: 1, Y: 0}}, "linear": {{X: 1, Y: 1}}},
	})
	for _, p := range pareto.ComparePairs(hv, pareto.PairedOptions{Seed: 1}) {
		fmt.Printf("%s − %s over %d splits: %+.3f [%+.3f, %+.3f], p = %.2f, %s wins %d\n",
			p.A, p.B, p.Splits, p.Mean, p.CILow, p.CIHigh, p.PValue, p.A, p.AWins)
	}
	// Output:
	// cheb − linear over 3 splits: +0.417 [-0.150, +1.200], p = 0.50, cheb wins 2
}
