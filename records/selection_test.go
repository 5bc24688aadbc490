package records

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func withSel(risk, ato float64) Record {
	return Record{Risk: 0.5, ATO: 0.1, Accuracy: 0.7, Selection: &Selection{SelRisk: risk, SelATO: ato, SelAccuracy: 0.6, NSel: 10}}
}

func TestResolveDecide(t *testing.T) {
	with, without := withSel(0.4, 0.2), Record{Risk: 0.5}
	cases := []struct {
		flag string
		recs []Record
		want Decide
		err  string
	}{
		{"", []Record{with, with}, DecideSelection, ""},
		{"", []Record{without}, DecideTest, ""},
		{"test", []Record{with, without}, DecideTest, ""},
		{"selection", []Record{with}, DecideSelection, ""},
		{"", []Record{with, without}, "", "some records have selection metrics and some do not (1 of 2)"},
		{"selection", []Record{with, without}, "", "some records have selection metrics"},
		{"selection", []Record{without}, "", "no record has selection metrics"},
		{"train", []Record{with}, "", `decide on "train": want selection or test`},
	}
	for _, tc := range cases {
		got, err := ResolveDecide(tc.flag, tc.recs)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%q over %d records: err = %v, want one line naming %q", tc.flag, len(tc.recs), err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q over %d records: %q, %v; want %q", tc.flag, len(tc.recs), got, err, tc.want)
		}
	}
	if _, err := ResolveDecide("", []Record{with, without}); !errors.Is(err, ErrMixedSelection) {
		t.Errorf("mixed records: err = %v, want ErrMixedSelection", err)
	}
}

// The rule gives the deciding and the shown value of a record: the
// selection value and the test value, or the test value twice.
func TestDecideValue(t *testing.T) {
	r := withSel(0.4, 0.2)
	for _, tc := range []struct {
		d            Decide
		name         string
		decide, show float64
	}{
		{DecideSelection, "risk", 0.4, 0.5},
		{DecideSelection, "ato", 0.2, 0.1},
		{DecideSelection, "accuracy", 0.6, 0.7},
		{DecideTest, "ato", 0.1, 0.1},
		{"", "risk", 0.5, 0.5},
	} {
		d, s, err := tc.d.Value(&r, tc.name)
		if err != nil || d != tc.decide || s != tc.show {
			t.Errorf("%s %s: (%g, %g, %v), want (%g, %g)", tc.d, tc.name, d, s, err, tc.decide, tc.show)
		}
	}
	if _, _, err := DecideSelection.Value(&Record{}, "risk"); err == nil {
		t.Error("no selection metrics: want an error")
	}
	if _, _, err := DecideSelection.Value(&r, "auc"); err == nil {
		t.Error("unknown metric: want an error")
	}
}

// Without selection metrics a record writes none of their keys; with them
// it writes all of them, zeros included, and reads them back.
func TestSelectionKeys(t *testing.T) {
	b, _ := json.Marshal(Record{Risk: 0.5})
	if strings.Contains(string(b), "sel_") || strings.Contains(string(b), "n_sel") {
		t.Errorf("no selection rows: %s", b)
	}
	r := withSel(0.4, 0)
	b, _ = json.Marshal(r)
	for _, k := range []string{`"sel_risk":0.4`, `"sel_ato":0`, `"sel_dp":0`, `"n_sel":10`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("%s lacks %s", b, k)
		}
	}
	var back Record
	if err := json.Unmarshal(b, &back); err != nil || !back.HasSelection() || *back.Selection != *r.Selection {
		t.Errorf("read back %+v (%v), want %+v", back.Selection, err, r.Selection)
	}
}
