package compare

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/fpareto/fp/records"
)

// sweep returns the records of one run read from source: three λ on each of
// six splits, its fronts shifted by how much better it is on each split.
func sweep(method, source string, shift func(split int) float64) []records.Record {
	var out []records.Record
	for split := range 6 {
		s := shift(split)
		for k, lam := range []float64{0, 0.5, 1} {
			r := rec(method, method+"-config", split, 0.6+0.05*float64(k)-s, 0.2-0.08*float64(k)-s/2)
			r.Lambda, r.Source = lam, source
			out = append(out, r)
		}
	}
	return out
}

// Comparing B with A gives, pair for pair, the negated difference and
// interval, the same p and q, the wins of the other side, and a and b (with
// their runs) swapped; A is the run given first, whatever the paper's order
// of methods.
func TestRunArgumentOrder(t *testing.T) {
	lin := sweep("linear", "runs/linear", func(s int) float64 { return 0.01 * float64(s%4) })
	cheb := sweep("cheb", "runs/cheb", func(s int) float64 { return 0.015 * float64(s%3) })
	adv := sweep("adversarial", "runs/adv", func(s int) float64 { return 0.004 * float64(s) })
	opt := Options{Metrics: []string{"ato", "dp"}, Rule: minmax, Resamples: 2000}
	ab, err := Run(slices.Concat(lin, cheb, adv), opt)
	if err != nil {
		t.Fatal(err)
	}
	ba, err := Run(slices.Concat(adv, cheb, lin), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(ab.Paired) != 6 || len(ba.Paired) != 6 {
		t.Fatalf("%d and %d pairs, want 3 per metric", len(ab.Paired), len(ba.Paired))
	}
	first := ab.Paired[0]
	if first.A != "linear/ato-penultimate" || !slices.Equal(first.ARuns, []string{"runs/linear"}) ||
		first.B != "cheb/ato-penultimate" || !slices.Equal(first.BRuns, []string{"runs/cheb"}) {
		t.Errorf("first pair %s (%v) − %s (%v): want the first run given, linear, as A and cheb as B", first.A, first.ARuns, first.B, first.BRuns)
	}
	for _, p := range ab.Paired {
		k := slices.IndexFunc(ba.Paired, func(q PairedRow) bool { return q.Metric == p.Metric && q.A == p.B && q.B == p.A })
		if k < 0 {
			t.Fatalf("%s: %s − %s has no reversed pair", p.Metric, p.A, p.B)
		}
		q := ba.Paired[k]
		if q.Mean != -p.Mean || q.CILow != -p.CIHigh || q.CIHigh != -p.CILow || q.PValue != p.PValue || q.QValue != p.QValue ||
			!slices.Equal(q.ARuns, p.BRuns) || !slices.Equal(q.BRuns, p.ARuns) {
			t.Errorf("%s: %s − %s = %+v\nreversed %+v", p.Metric, p.A, p.B, p, q)
		}
		if p.Mean == 0 {
			t.Errorf("%s: %s − %s: no difference, the test says nothing", p.Metric, p.A, p.B)
		}
		hv := map[string]map[int]float64{}
		for _, h := range ab.PerSplit {
			if h.Metric == p.Metric {
				if hv[h.Group] == nil {
					hv[h.Group] = map[int]float64{}
				}
				hv[h.Group][h.Split] = h.Hypervolume
			}
		}
		ties := 0
		for split, a := range hv[p.A] {
			if a == hv[p.B][split] {
				ties++
			}
		}
		if q.AWins+p.AWins+ties != p.Splits {
			t.Errorf("%s: wins %d and %d and %d ties of %d splits", p.Metric, p.AWins, q.AWins, ties, p.Splits)
		}
	}
	var b bytes.Buffer
	if err := WriteText(&b, ab); err != nil {
		t.Fatal(err)
	}
	want := "A − B, A the earlier of each row's groups in the order given: linear/ato-penultimate (runs/linear), " +
		"cheb/ato-penultimate (runs/cheb), adversarial/ato-penultimate (runs/adv)"
	if !strings.Contains(b.String(), want) {
		t.Errorf("text lacks %q:\n%s", want, b.String())
	}
	two, err := Run(slices.Concat(cheb, lin), opt)
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := WriteText(&b, two); err != nil {
		t.Fatal(err)
	}
	want = "split by split: A − B, A = cheb/ato-penultimate (runs/cheb), B = linear/ato-penultimate (runs/linear)"
	if !strings.Contains(b.String(), want) {
		t.Errorf("text lacks %q:\n%s", want, b.String())
	}
}

// The q-values are the Benjamini–Hochberg ones over every paired test of
// the comparison, checked against the definition computed here directly:
// q of a test is the smallest m·p/r over the tests whose p is at least its
// own, r being the number of tests with p no larger.
func TestRunQValues(t *testing.T) {
	lin := sweep("linear", "runs/linear", func(s int) float64 { return 0.01 * float64(s%4) })
	cheb := sweep("cheb", "runs/cheb", func(s int) float64 { return 0.012 * float64(s) })
	adv := sweep("adversarial", "runs/adv", func(s int) float64 { return 0.02*float64(s) - 0.05 })
	res, err := Run(slices.Concat(lin, cheb, adv), Options{Rule: minmax, Resamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	m := float64(len(res.Paired))
	if m != 12 {
		t.Fatalf("%v tests, want 3 pairs on each of 4 metrics", m)
	}
	distinct := map[float64]bool{}
	for _, p := range res.Paired {
		distinct[p.PValue] = true
		want := 1.0
		for _, o := range res.Paired {
			if o.PValue < p.PValue {
				continue
			}
			r := 0
			for _, x := range res.Paired {
				if x.PValue <= o.PValue {
					r++
				}
			}
			want = math.Min(want, m*o.PValue/float64(r))
		}
		if math.Abs(p.QValue-want) > 1e-12 || p.QValue < p.PValue {
			t.Errorf("%s %s − %s: p %g, q %g, want %g", p.Metric, p.A, p.B, p.PValue, p.QValue, want)
		}
	}
	if len(distinct) < 3 {
		t.Errorf("only %d distinct p-values: the check says little", len(distinct))
	}
}

// A second reference point: TestRunHandWorked's split normalises linear's
// point to (0.5, 0.5) and cheb's two to (0, 1) and (1, 0), so at reference
// (r, r) linear's hypervolume is (r − 0.5)² and cheb's 2r(r − 1) − (r − 1)²:
// 0.2601 and 0.0201 at r = 1.01 (0.36 and 0.21 at 1.1).
func TestRunReference(t *testing.T) {
	recs := []records.Record{
		rec("linear", "c2", 0, 15, 0.2), rec("cheb", "c1", 0, 10, 0.3), rec("cheb", "c1", 0, 20, 0.1),
	}
	res, err := Run(recs, Options{Metrics: []string{"ato"}, Rule: minmax, Reference: 1.01})
	if err != nil {
		t.Fatal(err)
	}
	if res.Reference != [2]float64{1.01, 1.01} {
		t.Errorf("reference %v, want (1.01, 1.01)", res.Reference)
	}
	for _, h := range res.PerSplit {
		want := 0.0201
		if h.Group == "linear/ato-penultimate" {
			want = 0.2601
		}
		if math.Abs(h.Hypervolume-want) > 1e-12 {
			t.Errorf("%s: hypervolume %g, want %g", h.Group, h.Hypervolume, want)
		}
	}
	for _, bad := range []float64{1, 0.5, 11, math.NaN()} {
		if _, err := Run(recs, Options{Metrics: []string{"ato"}, Rule: minmax, Reference: bad}); err == nil || !strings.Contains(err.Error(), "reference") {
			t.Errorf("reference %v: error %v, want one naming the reference", bad, err)
		}
	}
}
