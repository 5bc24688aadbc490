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
