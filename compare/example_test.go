package compare_test

import (
	"fmt"

	"github.com/fpareto/fp/compare"
	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
)

// Two runs, each with candidates on two splits: the pooled rows and the
// paired comparison under each front rule. Each cheb run's second network
// is worse than its split's constant predictor (risk 0.70 against 0.69,
// 0.72 against 0.70): under the constant rule it adds nothing, and cheb's
// front is its first network and the constant predictor; under min–max it
// bounds the plane's far end.
func ExampleRun() {
	rec := func(method, config string, split int, risk, ato, constRisk float64) records.Record {
		return records.Record{Dataset: "compas", Method: method, Penalty: "ato-penultimate", Split: split,
			Risk: risk, ATO: ato, Config: config, Status: records.StatusOK, ConstRisk: &constRisk}
	}
	recs := []records.Record{
		rec("cheb", "c1", 0, 0.60, 0.03, 0.69), rec("cheb", "c1", 0, 0.70, 0.01, 0.69),
		rec("linear", "c2", 0, 0.65, 0.02, 0.69),
		rec("cheb", "c1", 1, 0.61, 0.03, 0.70), rec("cheb", "c1", 1, 0.72, 0.01, 0.70),
		rec("linear", "c2", 1, 0.62, 0.015, 0.70),
	}
	for _, rule := range pareto.Rules {
		res, err := compare.Run(recs, compare.Options{Metrics: []string{"ato"}, Rule: rule})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("front rule %s, x axis %s\n", res.FrontRule, res.Axis)
		for _, r := range res.Pooled {
			fmt.Printf("%s: %d candidates, %d non-dominated, share %.2f\n", r.Group, r.Candidates, r.NonDominated, r.Share)
		}
		for _, p := range res.Paired {
			fmt.Printf("%s − %s: %+.3f over %d splits, %s wins %d\n", p.A, p.B, p.Mean, p.Splits, p.A, p.AWins)
		}
	}
	// Output:
	// front rule constant, x axis risk
	// cheb/ato-penultimate: 4 candidates, 2 non-dominated, share 0.67
	// linear/ato-penultimate: 2 candidates, 1 non-dominated, share 0.33
	// cheb/ato-penultimate − linear/ato-penultimate: -0.263 over 2 splits, cheb/ato-penultimate wins 0
	// front rule minmax, x axis risk
	// cheb/ato-penultimate: 4 candidates, 2 non-dominated, share 0.67
	// linear/ato-penultimate: 2 candidates, 1 non-dominated, share 0.33
	// cheb/ato-penultimate − linear/ato-penultimate: -0.399 over 2 splits, cheb/ato-penultimate wins 0
}
