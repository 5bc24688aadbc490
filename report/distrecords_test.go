package report

import (
	"strings"
	"testing"

	"github.com/fpareto/fp/records"
)

func TestChooseDist(t *testing.T) {
	var recs []records.Record
	for _, m := range []int{2, 1} {
		for _, l := range []float64{0, 0.001, 0.01, 0.1, 0.5, 1} {
			recs = append(recs, records.Record{Dataset: "compas", Sensitive: "race", Method: "cheb", Penalty: "ato-all", Split: m, Lambda: l})
		}
	}
	for _, tc := range []struct {
		name    string
		split   int
		list    string
		want    []float64
		wantErr string
	}{
		{name: "defaults", split: -1, want: []float64{0, 0.01, 0.1, 1}},
		{name: "a split and a list", split: 2, list: "0.5, 0", want: []float64{0.5, 0}},
		{name: "absent split", split: 7, wantErr: "split 7 has no trained candidates: have splits 1, 2"},
		{name: "absent λ", split: 1, list: "0.3", wantErr: "split 1: λ = 0.3 has no candidate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ChooseDist(recs, tc.split, tc.list)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []float64
			for _, r := range c.Candidates {
				got = append(got, r.Lambda)
				if tc.split >= 0 && r.Split != tc.split || tc.split < 0 && r.Split != 1 {
					t.Errorf("candidate of split %d", r.Split)
				}
			}
			if !sameFloats(got, tc.want) || c.Title != "compas (race) · cheb/ato-all · split "+map[bool]string{true: "1", false: "2"}[tc.split < 0]+" · test set" {
				t.Errorf("λ %v, title %q; want λ %v", got, c.Title, tc.want)
			}
		})
	}
	two := append(recs[:1:1], records.Record{Dataset: "compas", Sensitive: "race", Method: "linear", Penalty: "ato-all", Split: 2})
	if _, err := ChooseDist(two, -1, ""); err == nil || !strings.Contains(err.Error(), "several runs (compas/race/cheb/ato-all, compas/race/linear/ato-all)") {
		t.Errorf("two runs: err = %v", err)
	}
	dup := append(recs[:1:1], recs[0])
	if _, err := ChooseDist(dup, -1, ""); err == nil || !strings.Contains(err.Error(), "recorded twice") {
		t.Errorf("a duplicate: err = %v", err)
	}
}

func TestDistPanel(t *testing.T) {
	r := &records.Record{Method: "adversarial", Lambda: 100, Collapsed: true, ATO: 0.1, DP: 0.2}
	d := DistPanel(r, []float64{0.5}, []float64{1}, []float64{0})
	if d.Title != "β = 100 (constant predictor)" || d.ATO != 0.1 || d.DP != 0.2 || len(d.P) != 1 {
		t.Errorf("panel %+v", d)
	}
	r = &records.Record{Method: "cheb", Lambda: 0.0083767}
	if d := DistPanel(r, nil, nil, nil); d.Title != "λ = 0.00838" {
		t.Errorf("title %q", d.Title)
	}
}
