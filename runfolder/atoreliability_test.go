package runfolder

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fpareto/fp/propensity"
	"github.com/fpareto/fp/records"
)

// goodOverlap and proxyOverlap are the training and test overlap of a split
// whose groups overlap well, and of one where a column stands in for the
// sensitive attribute.
var (
	goodOverlap  = propensity.Overlap{Temperature: 1, Extreme: 0, ESS1: 90, ESS0: 95, N1: 100, N0: 100, MaxShare1: 0.02, MaxShare0: 0.02}
	proxyOverlap = propensity.Overlap{Temperature: propensity.MinT, Extreme: 0.9, Clipped: 1, ESS1: 100, ESS0: 100, N1: 100, N0: 100,
		MaxShare1: 0.01, MaxShare0: 0.01}
	proxyTest = propensity.Overlap{Temperature: propensity.MinT, Extreme: 0.8, ESS1: 4, ESS0: 3.4, N1: 353, N0: 147, MaxShare1: 0.4, MaxShare0: 0.5}
)

// With selection rows the ATO is reliable only where it is on both the
// test and the selection rows; each reason is named once, with its rows.
func TestSetSelectionDecides(t *testing.T) {
	o := SplitOverlap{Split: 0, Overlap: goodOverlap}
	o.SetTest(goodOverlap)
	if o.Unreliable() {
		t.Fatalf("good test rows: unreliable (%s)", o.ATOUnreliableReason)
	}
	o.SetSelection(proxyTest)
	if !o.Unreliable() || !strings.Contains(o.ATOUnreliableReason, "80% of the selection rows") || strings.Contains(o.ATOUnreliableReason, "test rows") {
		t.Fatalf("poor selection rows: unreliable %v, reason %q", o.Unreliable(), o.ATOUnreliableReason)
	}
	both := SplitOverlap{Split: 1, Overlap: proxyOverlap}
	both.SetTest(proxyTest)
	both.SetSelection(proxyTest)
	r := both.ATOUnreliableReason
	if strings.Count(r, "lower bound") != 1 || !strings.Contains(r, "of the test rows") || !strings.Contains(r, "of the selection rows") {
		t.Fatalf("both poor: reason %q, want the training reasons once and both sets of rows named", r)
	}
}

func TestSetTestDecidesAndRoundTrips(t *testing.T) {
	dir := t.TempDir()
	good := SplitOverlap{Split: 0, Overlap: goodOverlap}
	good.SetTest(goodOverlap)
	bad := SplitOverlap{Split: 1, Overlap: proxyOverlap, Predictors: []propensity.Predictor{{Column: "zip code", Corr: 0.97}}}
	bad.SetTest(proxyTest)
	if good.Unreliable() || good.ATOUnreliableReason != "" || good.ATOAdvice() != "" {
		t.Errorf("good overlap: unreliable %v, reason %q, advice %q", good.Unreliable(), good.ATOUnreliableReason, good.ATOAdvice())
	}
	_, why := propensity.Unreliable(proxyOverlap, proxyTest)
	why = strings.ReplaceAll(why, "evaluation rows", "test rows") // the summary names the rows
	if !bad.Unreliable() || bad.ATOUnreliableReason != why || why == "" {
		t.Errorf("proxy overlap: unreliable %v, reason %q; want propensity.Unreliable's %q", bad.Unreliable(), bad.ATOUnreliableReason, why)
	}
	want := "split 1: the ATO is unreliable (" + why + "); leave out a column that stands in for the sensitive attribute with --exclude (e.g. --exclude 'zip code': |r| = 0.97 with it)"
	if a := bad.ATOAdvice(); a != want {
		t.Errorf("advice\n%q\nwant\n%q", a, want)
	}
	for _, o := range []SplitOverlap{good, bad} {
		if err := WriteOverlap(dir, o); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ReadOverlaps(dir)
	if err != nil || !reflect.DeepEqual(got, []SplitOverlap{good, bad}) {
		t.Errorf("read back %+v, %v", got, err)
	}
	// The summary keeps its keys; the test rows and the decision are new
	// ones beside them.
	b, err := os.ReadFile(OverlapPath(dir, 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"split"`, `"temperature"`, `"quantiles"`, `"extreme"`, `"ess1"`, `"ess0"`, `"n1"`, `"n0"`,
		`"predictors"`, `"test": {`, `"ato_reliable": false`, `"ato_unreliable_reason"`} {
		if !bytes.Contains(b, []byte(k)) {
			t.Errorf("overlap.json lacks %s:\n%s", k, b)
		}
	}

	var out bytes.Buffer
	WriteOverlaps(&out, got)
	text := out.String()
	for _, line := range []string{
		"split 0 overlap on the test rows: extreme 0.0%, ESS a=1 90.0/100",
		"split 1 overlap on the test rows: extreme 80.0%, ESS a=1 4.0/353 (one row up to 40.0% of the weight), a=0 3.4/147 (up to 50.0%)",
		"split 1 overlap: T 0.01, ", "(every ê is clipped",
		"warning: " + want,
	} {
		if !strings.Contains(text, line) {
			t.Errorf("WriteOverlaps lacks %q:\n%s", line, text)
		}
	}
}

func TestReadRunOverlaps(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, w := range []struct {
		dir string
		o   SplitOverlap
	}{{a, SplitOverlap{Split: 0, Overlap: goodOverlap}}, {b, SplitOverlap{Split: 0, Overlap: proxyOverlap}}, {b, SplitOverlap{Split: 1, Overlap: goodOverlap}}} {
		if err := WriteOverlap(w.dir, w.o); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(b, "records.jsonl")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// Runs in the order given, a run named twice read once, a records file
	// standing for its folder.
	got, err := ReadRunOverlaps([]string{file, a, file})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, o := range got {
		keys = append(keys, o.Run+"#"+string(rune('0'+o.Split)))
	}
	if want := []string{file + "#0", file + "#1", a + "#0"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("runs and splits %q, want %q", keys, want)
	}
	if got[0].Temperature != propensity.MinT || got[2].Temperature != 1 {
		t.Errorf("summaries mixed up across runs: %+v", got)
	}
	if _, err := ReadRunOverlaps([]string{filepath.Join(a, "absent")}); err == nil {
		t.Error("an absent path gave no error")
	}
}

// rec is a record of split m of run with the ATO judged reliable or not.
func rec(run string, m int, reliable bool, why string) records.Record {
	r := records.Record{Source: run, Split: m, ATOReliable: &reliable, ATOUnreliableReason: why}
	return r
}

func TestATOWarning(t *testing.T) {
	ovs := []RunOverlap{
		{Run: "runs/b", SplitOverlap: SplitOverlap{Split: 2, Predictors: []propensity.Predictor{{Column: "proxy", Corr: 0.96}}}},
	}
	const advice = "leave out a column that stands in for the sensitive attribute with --exclude (e.g. --exclude proxy: |r| = 0.96 with it)"
	for _, tc := range []struct {
		name string
		recs []records.Record
		want string
	}{
		{"no decision recorded", []records.Record{{Source: "runs/a"}}, ""},
		{"all reliable", []records.Record{rec("runs/a", 0, true, ""), rec("runs/a", 1, true, "")}, ""},
		{"one run", []records.Record{rec("runs/a", 1, false, "few rows"), rec("runs/a", 0, true, ""), rec("runs/a", 1, false, "few rows")},
			"the ATO is unreliable on 1 of 2 splits (split 1): at split 1, few rows; fp status runs/a names the columns that predict the sensitive attribute; leave out one that stands in for it with --exclude COL"},
		{"two runs", []records.Record{rec("runs/a", 0, true, ""), rec("runs/b", 2, false, "T at its bound"), rec("runs/b", 0, false, "extreme"),
			rec("runs/a", 1, false, "few rows")},
			"the ATO is unreliable on 3 of 4 splits (runs/a: split 1; runs/b: splits 0, 2): at runs/a split 1, few rows; " + advice},
		// The same split index in two runs is two splits, whichever run
		// comes first.
		{"same index, first order", []records.Record{rec("runs/a", 0, true, ""), rec("runs/b", 0, false, "extreme")},
			"the ATO is unreliable on 1 of 2 splits (runs/b: split 0): at runs/b split 0, extreme; fp status runs/b names"},
		{"same index, other order", []records.Record{rec("runs/b", 0, false, "extreme"), rec("runs/a", 0, true, "")},
			"the ATO is unreliable on 1 of 2 splits (runs/b: split 0): at runs/b split 0, extreme; fp status runs/b names"},
	} {
		got := ATOWarning(tc.recs, ovs)
		if !strings.HasPrefix(got, tc.want) || (got == "") != (tc.want == "") {
			t.Errorf("%s: ATOWarning =\n%q\nwant it to start with\n%q", tc.name, got, tc.want)
		}
		if strings.Contains(got, "\n") {
			t.Errorf("%s: not one line: %q", tc.name, got)
		}
	}
}

// OverlapLine tells the splits of two runs apart, whichever is read first,
// and says why a split whose every ê is clipped has an ESS of every row.
func TestOverlapLineByRunAndSplit(t *testing.T) {
	mk := func(run string, o propensity.Overlap) records.Record {
		return records.Record{Source: run, Split: 0, PropTemperature: o.Temperature, PropQ: []float64{0.5}, PropExtreme: o.Extreme,
			ESS1: o.ESS1, ESS0: o.ESS0, PropN1: o.N1, PropN0: o.N0, PropClipped: o.Clipped}
	}
	good, poor := mk("runs/good", goodOverlap), mk("runs/proxy", proxyOverlap)
	want := "overlap over 2 splits of 2 runs: temperature 0.01–1; extreme ê at most 90.0% (runs/proxy split 0); " +
		"smallest ESS 90% of its group (runs/good split 0) — POOR"
	for _, recs := range [][]records.Record{{good, poor}, {poor, good}} {
		got := OverlapLine(recs)
		if !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "; runs/proxy split 0: "+proxyOverlap.ESSNote()) {
			t.Errorf("OverlapLine of %s then %s =\n%q\nwant it to start with\n%q\nand end with the clipping note", recs[0].Source, recs[1].Source, got, want)
		}
	}
}
