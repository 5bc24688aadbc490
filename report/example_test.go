package report_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/report"
)

// Two methods' candidates in (test risk, unfairness) space, one panel each,
// with the non-dominated front as a dashed magenta staircase.
func ExampleSaveFront() {
	dir, err := os.MkdirTemp("", "fp-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	panels := []report.Series{
		{Name: "cheb · ato-penultimate", Points: []pareto.Point{
			{X: 0.33, Y: 0.19}, {X: 0.35, Y: 0.08}, {X: 0.36, Y: 0.12}, {X: 0.42, Y: 0.02}, {X: 0.55, Y: 0.001},
		}},
		{Name: "adversarial", Points: []pareto.Point{
			{X: 0.33, Y: 0.18}, {X: 0.34, Y: 0.17}, {X: 0.35, Y: 0.18},
		}},
	}
	path := filepath.Join(dir, "front-ato.svg")
	if err := report.SaveFront(path, panels, report.FrontOptions{YLabel: "ATO"}); err != nil {
		log.Fatal(err)
	}
	_, err = os.Stat(path)
	fmt.Println(filepath.Base(path), err == nil)
	// Output: front-ato.svg true
}

// The distributions of predicted probabilities by label and group for one
// candidate, headed with its metrics.
func ExampleSaveDist() {
	dir, err := os.MkdirTemp("", "fp-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	panel := report.Dist{
		Title: "λ = 0.1",
		P:     []float64{0.1, 0.3, 0.8, 0.9, 0.2, 0.7},
		Y:     []float64{0, 0, 1, 1, 0, 1},
		A:     []float64{0, 1, 0, 1, 1, 0},
		ATO:   0.02, EO: 0.004, EOpp: 0.003, DP: 0.006,
	}
	path := filepath.Join(dir, "dist.png")
	if err := report.SaveDist(path, []report.Dist{panel}, report.DistOptions{}); err != nil {
		log.Fatal(err)
	}
	_, err = os.Stat(path)
	fmt.Println(filepath.Base(path), err == nil)
	// Output: dist.png true
}

// The comparison of methods on every metric (the paper's Table 4) from the
// records of two sweeps.
func ExampleCompareMethods() {
	recs := []records.Record{
		{Method: "cheb", Penalty: "ato-penultimate", Risk: 0.30, ATO: 0.05, DP: 0.05, EO: 0.05, EOpp: 0.05},
		{Method: "cheb", Penalty: "ato-penultimate", Risk: 0.40, ATO: 0.01, DP: 0.01, EO: 0.01, EOpp: 0.01},
		{Method: "linear", Penalty: "ato-penultimate", Risk: 0.35, ATO: 0.06, DP: 0.06, EO: 0.06, EOpp: 0.06},
	}
	for _, r := range report.CompareMethods(recs) {
		if r.Metric == "ato" {
			fmt.Printf("%s: %d candidates, %d non-dominated, share %.2f\n", r.Method, r.Candidates, r.NonDominated, r.Share)
		}
	}
	// Output:
	// cheb: 2 candidates, 2 non-dominated, share 1.00
	// linear: 1 candidates, 1 non-dominated, share 0.00
}
