package compare_test

import (
	"fmt"

	"github.com/fpareto/fp/compare"
	"github.com/fpareto/fp/records"
)

// Two runs, each with candidates on two splits: the pooled rows and the
// paired comparison.
func ExampleRun() {
	rec := func(method, config string, split int, risk, ato float64) records.Record {
		return records.Record{Dataset: "compas", Method: method, Penalty: "ato-penultimate", Split: split,
			Risk: risk, ATO: ato, Config: config, Status: records.StatusOK}
	}
	recs := []records.Record{
		rec("cheb", "c1", 0, 0.60, 0.03), rec("cheb", "c1", 0, 0.70, 0.01),
		rec("linear", "c2", 0, 0.65, 0.02),
		rec("cheb", "c1", 1, 0.61, 0.03), rec("cheb", "c1", 1, 0.72, 0.01),
		rec("linear", "c2", 1, 0.62, 0.015),
	}
	res, err := compare.Run(recs, compare.Options{Metrics: []string{"ato"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Pooled {
		fmt.Printf("%s: %d candidates, %d non-dominated, share %.2f\n", r.Group, r.Candidates, r.NonDominated, r.Share)
	}
	for _, p := range res.Paired {
		fmt.Printf("%s − %s: %+.3f over %d splits, %s wins %d\n", p.A, p.B, p.Mean, p.Splits, p.A, p.AWins)
	}
	// Output:
	// cheb/ato-penultimate: 4 candidates, 2 non-dominated, share 0.67
	// linear/ato-penultimate: 2 candidates, 1 non-dominated, share 0.33
	// cheb/ato-penultimate − linear/ato-penultimate: -0.399 over 2 splits, cheb/ato-penultimate wins 0
}
