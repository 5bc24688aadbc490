package intervals_test

import (
	"testing"

	"github.com/fpareto/fp/intervals"
	"github.com/fpareto/fp/records"
)

// fp front --ci shows the front formed on the selection rows by test
// risk, as its heading says: here the selection rows order the two
// networks one way and the test rows the other.
func TestFrontRowsByTestRisk(t *testing.T) {
	rec := func(lambda, risk, ato, selRisk, selATO float64) records.Record {
		return records.Record{Method: "cheb", Penalty: "ato-penultimate", Lambda: lambda, Weights: "n.json", File: "run/records.jsonl",
			Risk: risk, ATO: ato, Selection: &records.Selection{SelRisk: selRisk, SelATO: selATO, NSel: 100}}
	}
	recs := []records.Record{rec(0, 0.60, 0.05, 0.50, 0.08), rec(0.5, 0.55, 0.02, 0.52, 0.01)}
	rows, _, _, err := intervals.FrontRows(recs, records.AxisRisk, records.MetricATO, records.DecideSelection, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Shown.Risk != 0.55 || rows[1].Shown.Risk != 0.60 {
		t.Fatalf("rows %+v, want both networks by test risk (0.55, 0.60)", rows)
	}
}
