package propensity_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/fpareto/fp/propensity"
)

func TestDiagnose(t *testing.T) {
	for _, tc := range []struct {
		name       string
		e, a       []float64
		extreme    float64
		ess1, ess0 float64
		median     float64
		poor       bool
	}{
		{"balanced", []float64{0.5, 0.5, 0.5, 0.5}, []float64{1, 0, 1, 0}, 0, 2, 2, 0.5, false},
		// w(a=1) = 0.001, 0.5: ESS = 0.501²/(0.001² + 0.5²).
		{"separated", []float64{0.001, 0.999, 0.5, 0.5}, []float64{0, 1, 1, 0}, 0.5,
			0.501 * 0.501 / (0.001*0.001 + 0.25), 0.501 * 0.501 / (0.001*0.001 + 0.25), 0.5, true},
		// Weights 0.9 and 0.1 in each group: ESS 1²/(0.9² + 0.1²) = 1/0.82.
		{"uneven", []float64{0.1, 0.9, 0.1, 0.9}, []float64{1, 1, 0, 0}, 0, 1 / 0.82, 1 / 0.82, 0.5, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := propensity.Diagnose(tc.e, tc.a, 1.5)
			if err != nil {
				t.Fatal(err)
			}
			near := func(x, y float64) bool { return math.Abs(x-y) < 1e-12 }
			if o.Temperature != 1.5 || !near(o.Extreme, tc.extreme) || !near(o.ESS1, tc.ess1) || !near(o.ESS0, tc.ess0) {
				t.Errorf("got %+v, want extreme %g, ESS %g and %g", o, tc.extreme, tc.ess1, tc.ess0)
			}
			if len(o.Quantiles) != len(propensity.QuantileLevels) || o.Quantiles[0] > o.Quantiles[4] || o.Quantiles[8] < o.Quantiles[4] {
				t.Errorf("quantiles %v", o.Quantiles)
			}
			if poor, why := o.Poor(); poor != tc.poor || (poor && why == "") {
				t.Errorf("poor = %v (%q), want %v", poor, why, tc.poor)
			}
		})
	}
	if _, err := propensity.Diagnose([]float64{0.5, math.NaN()}, []float64{0, 1}, 1); err == nil {
		t.Error("a NaN score was accepted")
	}
	if _, err := propensity.Diagnose([]float64{0.5}, []float64{0, 1}, 1); err == nil {
		t.Error("mismatched lengths were accepted")
	}
}

func TestPredictorsRankSourceColumns(t *testing.T) {
	a := []float64{1, 0, 1, 0, 1, 0}
	// The source column of each encoded column, as datasets.Schema.Sources
	// gives them: a name may hold "=" (income=high is one column).
	columns := []string{"age", "sex", "sex", "income=high", "constant"}
	rows := [][]float64{
		{30, 1, 0, 1, 7},
		{31, 1, 0, 0, 7},
		{50, 0, 1, 1, 7},
		{29, 0, 1, 0, 7},
		{40, 1, 0, 1, 7},
		{41, 0, 1, 0, 7},
	}
	var x []float64
	for _, r := range rows {
		x = append(x, r...)
	}
	got := propensity.Predictors(x, len(rows), columns, a, 5)
	if len(got) != 3 || got[0].Column != "income=high" || math.Abs(got[0].Corr-1) > 1e-12 {
		t.Fatalf("got %+v, want income=high (|r| = 1) first and three source columns (the constant left out)", got)
	}
	if got[1].Column != "sex" && got[2].Column != "sex" {
		t.Errorf("got %+v, want sex once for its two encoded columns", got)
	}
	if one := propensity.Predictors(x, len(rows), columns, a, 1); len(one) != 1 || one[0].Column != "income=high" {
		t.Errorf("top 1 = %+v", one)
	}
}

func ExampleDiagnose() {
	e := []float64{0.2, 0.4, 0.6, 0.8, 0.995, 0.005}
	a := []float64{1, 0, 1, 0, 1, 0}
	o, _ := propensity.Diagnose(e, a, 1.2)
	poor, why := o.Poor()
	fmt.Printf("extreme %.2f, ESS a=1 %.2f of %d, a=0 %.2f of %d, poor %v: %s\n", o.Extreme, o.ESS1, o.N1, o.ESS0, o.N0, poor, why)
	// Output:
	// extreme 0.33, ESS a=1 1.81 of 3, a=0 1.81 of 3, poor true: 33% of the rows have ê < 0.01 or > 0.99 (under 1/50 of a group's share), for group a = 1 on 17% of them
}
