package certify

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fpareto/fp/choose"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/fairness/bootstrap"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/records"
)

func TestHolds(t *testing.T) {
	for _, c := range []struct {
		kind  choose.Kind
		bound float64
		b     Bound
		want  bool
	}{
		{choose.MaxUnfairness, 0.1, Bound{Value: 0.09}, true},
		{choose.MaxUnfairness, 0.1, Bound{Value: 0.1}, true},
		{choose.MaxUnfairness, 0.1, Bound{Value: 0.11}, false},
		{choose.MaxRisk, 0.6, Bound{Value: 0.61}, false},
		{choose.MinAccuracy, 0.7, Bound{Value: 0.71}, true},
		{choose.MinAccuracy, 0.7, Bound{Value: 0.69}, false},
		{choose.MinRatio, 0.8, Bound{Value: 0.85}, true},
		{choose.MinRatio, 0.8, Bound{Value: 0.75}, false},
		{choose.MaxUnfairness, 0.1, Bound{Value: 0.01, Note: "no interval"}, false},
		{choose.MaxUnfairness, 0.1, Bound{Value: math.NaN()}, false},
	} {
		if got := Holds(choose.Rule{Kind: c.kind, Bound: c.bound}, c.b); got != c.want {
			t.Errorf("%v %g, bound %+v: holds %v, want %v", c.kind, c.bound, c.b, got, c.want)
		}
	}
}

// The order is by λ, then by split, method and penalty, and run folder,
// whatever the order the candidates come in, and leaves out the constant
// predictors and the candidates that minimised the unfairness alone
// (λ = 1 of a scalarized method, not an adversarial β = 1).
func TestOrder(t *testing.T) {
	cands := make([]choose.Candidate, 8)
	for i, c := range []struct {
		lambda    float64
		split     int
		dir       string
		method    string
		collapsed bool
	}{
		{0.1, 1, "a", "cheb", false}, {1, 0, "a", "cheb", false}, {0, 0, "a", "cheb", false}, {0.1, 0, "b", "cheb", false},
		{0.5, 0, "a", "cheb", false}, {0.1, 0, "a", "cheb", false}, {0.5, 1, "a", "cheb", true}, {1, 0, "a", "adversarial", false},
	} {
		rec := &cands[i].Record
		rec.Lambda, rec.Split, rec.Method, rec.Collapsed = c.lambda, c.split, c.method, c.collapsed
		rec.Penalty, cands[i].Dir = "ato-penultimate", c.dir
	}
	for _, c := range []struct {
		kind choose.Kind
		want []int
	}{
		{choose.MaxUnfairness, []int{7, 4, 5, 3, 0, 2}},
		{choose.MinRatio, []int{7, 4, 5, 3, 0, 2}},
		{choose.MaxRisk, []int{2, 5, 3, 0, 4, 7}},
		{choose.MinAccuracy, []int{2, 5, 3, 0, 4, 7}},
	} {
		r := choose.Rule{Kind: c.kind}
		if got := Order(cands, r); !slices.Equal(got, c.want) {
			t.Errorf("%v: order %v, want %v", c.kind, got, c.want)
		}
		// The same candidates listed the other way round: the same
		// candidates in the same order.
		rev := slices.Clone(cands)
		slices.Reverse(rev)
		got := Order(rev, r)
		for k := range got {
			got[k] = len(cands) - 1 - got[k]
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%v, candidates reversed: order %v, want %v", c.kind, got, c.want)
		}
	}
}

// The sequence stops at its first failure: a later candidate that would
// pass is not certified.
func TestSequenceStopsAtTheFirstFailure(t *testing.T) {
	vals := []float64{0.01, 0.02, 0.3, 0.01}
	var asked []int
	cert, bounds := Sequence([]int{0, 1, 2, 3}, choose.Rule{Kind: choose.MaxUnfairness, Bound: 0.1}, func(i int) Bound {
		asked = append(asked, i)
		return Bound{Value: vals[i]}
	})
	if !slices.Equal(cert, []int{0, 1}) || !slices.Equal(asked, []int{0, 1, 2}) || len(bounds) != 3 {
		t.Fatalf("certified %v after bounding %v", cert, asked)
	}
}

func TestRowsNeeded(t *testing.T) {
	for _, c := range []struct {
		r    choose.Rule
		b    Bound
		want int // −1: none
	}{
		// The bound is 0.1 above the estimate, with 0.05 of room: four
		// times the rows.
		{choose.Rule{Kind: choose.MaxUnfairness, Bound: 0.15}, Bound{Value: 0.2, Estimate: 0.1, Rows: 100}, 400},
		{choose.Rule{Kind: choose.MinAccuracy, Bound: 0.7}, Bound{Value: 0.6, Estimate: 0.75, Rows: 100}, 900},
		{choose.Rule{Kind: choose.MaxUnfairness, Bound: 0.05}, Bound{Value: 0.2, Estimate: 0.1, Rows: 100}, -1},
		{choose.Rule{Kind: choose.MaxUnfairness, Bound: 0.3}, Bound{Value: 0.2, Estimate: 0.1, Rows: 100}, 100},
		{choose.Rule{Kind: choose.MinRatio, Bound: 0.8}, Bound{Value: 0.7, Estimate: 0.9, Rows: 100}, 400},
		// A network that selects no one: ratio 0/0, estimate 1, bound 0 at
		// any number of rows.
		{choose.Rule{Kind: choose.MinRatio, Bound: 0.8}, Bound{Value: 0, Estimate: 1, Rows: 100}, -1},
	} {
		got := RowsNeeded(c.r, c.b)
		if (got == nil) != (c.want < 0) || (got != nil && *got != c.want) {
			t.Errorf("%v, %+v: rows needed %v, want %d", c.r, c.b, got, c.want)
		}
	}
}

func TestQuantity(t *testing.T) {
	for _, c := range []struct {
		r      choose.Rule
		metric string
		name   string
		upper  bool
	}{
		{choose.Rule{Kind: choose.MaxUnfairness}, "dp", "dp", true},
		{choose.Rule{Kind: choose.MaxRisk}, "ato", "risk", true},
		{choose.Rule{Kind: choose.MinAccuracy}, "ato", "accuracy", false},
		{choose.Rule{Kind: choose.MinRatio}, records.MetricDPRatio, records.MetricDPRatio, false},
	} {
		name, upper, err := Quantity(c.r, c.metric)
		if err != nil || name != c.name || upper != c.upper {
			t.Errorf("%v on %s: %s, upper %v, %v", c.r, c.metric, name, upper, err)
		}
	}
	if _, _, err := Quantity(choose.Rule{Kind: choose.Knee}, "ato"); err == nil {
		t.Error("the knee accepted")
	}
}

// The guarantee, on fixed networks whose population values are known:
// eight candidates along λ, z = x + s·a with s falling as λ grows, the
// requirement dp_diff ≤ U set between their population values so that
// some break it and some barely meet it. Over 200 draws of 600 deciding
// rows, the share of draws in which some certified candidate breaks U in
// the population is at most 1 − C = 0.1, within two standard errors.
func TestFalseCertificationIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("200 draws of a certified pick")
	}
	shifts := []float64{0, 0.1, 0.2, 0.3, 0.4, 0.6, 0.8, 1.2} // by λ from 1 down to 0: the order of a requirement on unfairness
	draw := func(n int, rng *rand.Rand) (x, y, a []float64) {
		x, y, a = make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range n {
			x[i] = rng.NormFloat64()
			if rng.Float64() < 0.3 {
				a[i] = 1
			}
			if rng.Float64() < model.Sigmoid(1.5*x[i]+0.5*a[i]) {
				y[i] = 1
			}
		}
		return x, y, a
	}
	logits := func(x, a []float64, s float64) []float64 {
		z := make([]float64, len(x))
		for i := range x {
			z[i] = x[i] + s*a[i]
		}
		return z
	}
	rng := rand.New(rand.NewPCG(41, 42))
	px, py, pa := draw(400_000, rng)
	truth := make([]float64, len(shifts))
	for k, s := range shifts {
		d, err := fairness.DecideLogits(logits(px, pa, s), py, groupsOf(pa), 0.5)
		if err != nil {
			t.Fatal(err)
		}
		truth[k] = d.DPDiff
	}
	// U between the third and fourth candidates' values: a point pick at
	// these rows often takes the fourth.
	U := (truth[2] + truth[3]) / 2
	const C, reps, n = 0.9, 200, 600
	r := choose.Rule{Kind: choose.MaxUnfairness, Bound: U}
	order := []int{0, 1, 2, 3, 4, 5, 6, 7}
	var wrong, certifiedAny, pointWrong int
	for range reps {
		x, y, a := draw(n, rng)
		cert, _ := Sequence(order, r, func(k int) Bound {
			s, err := bootstrap.NewLogits(logits(x, a, shifts[k]), y, groupsOf(a), 2, nil)
			if err != nil {
				t.Fatal(err)
			}
			iv, err := s.Intervals(500, 2*C-1, rng)
			if err != nil {
				return Bound{Note: err.Error()}
			}
			return Bound{Value: iv.DPDiff.Hi}
		})
		if len(cert) > 0 {
			certifiedAny++
		}
		if slices.ContainsFunc(cert, func(k int) bool { return truth[k] > U }) {
			wrong++
		}
		// The point pick: the largest shift (the least constrained, as
		// its risk is lowest) whose estimate meets U.
		for k := len(shifts) - 1; k >= 0; k-- {
			d, _ := fairness.DecideLogits(logits(x, a, shifts[k]), y, groupsOf(a), 0.5)
			if d.DPDiff <= U {
				if truth[k] > U {
					pointWrong++
				}
				break
			}
		}
	}
	limit := (1 - C) + 2*math.Sqrt(C*(1-C)/reps)
	t.Logf("U = %.4f, population dp_diff %v; certified in %d of %d draws, a certified candidate broke U in %d; the point pick broke it in %d",
		U, truth, certifiedAny, reps, wrong, pointWrong)
	if share := float64(wrong) / reps; share > limit {
		t.Errorf("a certified candidate broke the requirement in %d of %d draws (%.3f), want at most %.3f", wrong, reps, share, limit)
	}
	if certifiedAny < reps/2 {
		t.Errorf("certified in %d of %d draws only: the test lacks power", certifiedAny, reps)
	}
	if pointWrong < reps/10 {
		t.Errorf("the point pick broke the requirement in %d of %d draws only: the case is not the hard one it should be", pointWrong, reps)
	}
}

// groupsOf is the groups of the 0/1 attribute a that draw gives.
func groupsOf(a []float64) []int {
	z, err := fairness.BinaryGroups(a)
	if err != nil {
		panic(err)
	}
	return z
}

// Rows to reach a candidate are the most any candidate up to it in the
// order needs; one whose estimate breaks the requirement blocks every later
// one. Bounds are asked in order, only as far as needed and never past a
// blocking one.
func TestReachNeeds(t *testing.T) {
	r := choose.Rule{Kind: choose.MaxUnfairness, Bound: 0.15}
	bounds := map[int]Bound{
		3: {Value: 0.12, Estimate: 0.1, Rows: 100}, // holds: its own rows
		1: {Value: 0.2, Estimate: 0.1, Rows: 100},  // 4 × the rows
		0: {Value: 0.14, Estimate: 0.1, Rows: 200}, // holds, but after 1
		2: {Value: 0.3, Estimate: 0.2, Rows: 100},  // its estimate breaks r
		4: {Value: 0.1, Estimate: 0.05, Rows: 100}, // holds, but after 2
	}
	var asked []int
	reach := reachNeeds([]int{3, 1, 0, 2, 4}, r, func(i int) Bound {
		asked = append(asked, i)
		return bounds[i]
	})
	for _, c := range []struct {
		i     int
		want  int // −1: none
		asked []int
	}{
		{1, 400, []int{3, 1}},
		{3, 100, []int{3, 1}},
		{0, 400, []int{3, 1, 0}},
		{4, -1, []int{3, 1, 0, 2}}, // past a blocked one, nothing more is bounded
		{2, -1, []int{3, 1, 0, 2}},
	} {
		got := reach(c.i)
		if (got == nil) != (c.want < 0) || (got != nil && *got != c.want) {
			t.Errorf("candidate %d: rows %v, want %d", c.i, got, c.want)
		}
		if !slices.Equal(asked, c.asked) {
			t.Errorf("candidate %d: bounds asked %v, want %v", c.i, asked, c.asked)
		}
	}
}

// A refusal whose closest candidate already meets the requirement says
// that the sequence, not the candidate's own bound, keeps it out.
func TestRefusalTextWhenTheClosestHolds(t *testing.T) {
	bound, est, n := 0.17, 0.1, 740
	shown := choose.Shown{Method: "cheb", Penalty: "ato-penultimate", Split: 0, Lambda: 0.005, Run: "run"}
	for _, c := range []struct {
		holds bool
		rows  *int
		want  string
	}{
		{true, &n, "which meets the requirement, but the sequence stops before it: about 740 deciding rows would carry the sequence to it"},
		{true, nil, "which meets the requirement, but the sequence stops before it, and a candidate it tests before it has an estimate that breaks"},
		{false, &n, ": about 740 deciding rows would certify it"},
		{false, nil, "breaks the requirement (or has no bound), so more rows would not certify it"},
	} {
		cert := Certificate{Confidence: 0.9, Requirement: "dp_diff ≤ 0.2", Bound: &bound, Estimate: &est, BoundRows: 377,
			BoundOn: "selection", Closest: &shown, RowsNeeded: c.rows, ClosestHolds: c.holds}
		if got := cert.Text(); !strings.Contains(got, c.want) {
			t.Errorf("holds %v, rows %v: %q, want it to hold %q", c.holds, c.rows, got, c.want)
		}
	}
}

// A certificate on an ATO that fp judged unreliable says so on its line.
func TestCertifiedTextCarriesTheCaution(t *testing.T) {
	b, e := 0.008, 0.004
	c := Certificate{Certified: true, Confidence: 0.9, Requirement: "ato ≤ 0.01", Bound: &b, Estimate: &e, BoundRows: 250, BoundOn: "selection", Tested: 3, CertifiedCount: 2}
	if strings.Contains(c.Text(), "caution") {
		t.Errorf("a caution without one: %s", c.Text())
	}
	c.Caution = "the bound may hold less often than stated: its split's ATO is judged unreliable (few rows)"
	if got := c.Text(); !strings.HasPrefix(got, "certified: ato ≤ 0.01 holds") || !strings.HasSuffix(got, "; caution: "+c.Caution) {
		t.Errorf("certificate text without its caution: %s", got)
	}
}

// The caution of a certificate: the split's ATO judged unreliable for a
// requirement on the ATO, the interval's own caution on the deciding rows
// for one on any fairness metric, nothing for risk or accuracy.
func TestCaution(t *testing.T) {
	isReliable, notReliable := true, false
	reliable := records.Record{ATOReliable: &isReliable}
	unreliable := records.Record{ATOReliable: &notReliable, ATOUnreliableReason: "one row carries 30% of group a = 1's weight"}
	few := Bound{Rows: 250, Basis: "selection", Caution: "in run split 0, a group has fewer than 30 rows within a class"}
	for _, c := range []struct {
		name string
		rec  records.Record
		b    Bound
		q    string
		want []string // "" alone: no caution
	}{
		{"ato, reliable, no caution", reliable, Bound{Rows: 250}, "ato", []string{""}},
		{"ato, unreliable", unreliable, Bound{Rows: 250}, "ato", []string{"its split's ATO is judged unreliable (one row carries 30%"}},
		{"ato, unreliable, few rows", unreliable, few, "ato", []string{"judged unreliable", "on its 250 selection rows that decided, in run split 0, a group has fewer"}},
		{"eo, few rows", reliable, few, "eo", []string{"on its 250 selection rows that decided"}},
		{"dp_diff of an unreliable split", unreliable, Bound{Rows: 250}, "dp_diff", []string{""}},
		{"accuracy, few rows", unreliable, few, "accuracy", []string{""}},
		{"risk, few rows", unreliable, few, "risk", []string{""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := caution(&c.rec, c.b, c.q)
			if c.want[0] == "" {
				if got != "" {
					t.Errorf("caution %q, want none", got)
				}
				return
			}
			if !strings.HasPrefix(got, "the bound may hold less often than stated: ") {
				t.Errorf("caution %q", got)
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("caution %q lacks %q", got, w)
				}
			}
		})
	}
}
