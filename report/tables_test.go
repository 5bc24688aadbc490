package report

import (
	"reflect"
	"testing"

	"github.com/fpareto/fp/records"
)

func tableRecord(method, penalty, config string, risk, ato float64) records.Record {
	return records.Record{Method: method, Penalty: penalty, Config: config, Risk: risk, ATO: ato, DP: ato, EO: ato, EOpp: ato}
}

func TestFrontCandidates(t *testing.T) {
	recs := []records.Record{
		tableRecord("cheb", "p", "a", 3, 0.1),
		tableRecord("cheb", "p", "a", 2, 0.4),
		tableRecord("cheb", "p", "a", 2.5, 0.5), // dominated by (2, .4)
		tableRecord("cheb", "p", "a", 1, 0.9),
	}
	if got := FrontCandidates(recs, "ato"); !reflect.DeepEqual(got, []int{3, 1, 0}) {
		t.Errorf("NonDominated = %v, want [3 1 0] (by risk)", got)
	}
}
