package penalties_test

import (
	"math"
	"strings"
	"testing"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/train"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// groupRun evaluates penalty p on a graph whose last hidden layer holds
// hidden (rows×h) and whose logit is logit, with the batch columns cols by
// name; it returns U and dU/d(hidden) or dU/d(logit), whichever p reads.
func groupRun(t *testing.T, p penalties.Penalty, hidden []float64, rows, h int, logit []float64, cols map[string][]float64) (float64, []float64) {
	t.Helper()
	g := G.NewGraph()
	hn := G.NewMatrix(g, tensor.Float64, G.WithShape(rows, h), G.WithName("h"),
		G.WithValue(tensor.New(tensor.WithShape(rows, h), tensor.WithBacking(append([]float64(nil), hidden...)))))
	zn := G.NewVector(g, tensor.Float64, G.WithShape(rows), G.WithName("z"),
		G.WithValue(tensor.New(tensor.WithShape(rows), tensor.WithBacking(append([]float64(nil), logit...)))))
	b := penalties.BatchNodes{Columns: map[string]*G.Node{}}
	var ins G.Nodes
	for name, v := range cols {
		n := G.NewVector(g, tensor.Float64, G.WithShape(rows), G.WithName(name),
			G.WithValue(tensor.New(tensor.WithShape(rows), tensor.WithBacking(append([]float64(nil), v...)))))
		b.Columns[name] = n
		ins = append(ins, n)
	}
	u, err := p.Node(penalties.Net{Hidden: []*G.Node{hn}, Logit: zn}, b)
	if err != nil {
		t.Fatal(err)
	}
	wrt := hn
	if p.Name() == penalties.NameATOOutput {
		wrt = zn
	}
	ins = append(ins, wrt)
	grads, err := G.Grad(u, wrt)
	if err != nil {
		t.Fatal(err)
	}
	var uv, gv G.Value
	prog, locs, err := G.CompileFunction(g, ins, G.Nodes{G.Read(u, &uv), G.Read(grads[0], &gv)})
	if err != nil {
		t.Fatal(err)
	}
	m := G.NewTapeMachine(g, G.WithPrecompiled(prog, locs))
	defer m.Close()
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	var uf float64
	switch v := uv.(type) {
	case *G.F64:
		uf = float64(*v)
	default:
		uf = v.Data().(float64)
	}
	return uf, append([]float64(nil), gv.Data().([]float64)...)
}

// groupBatch fills the overlap-mean columns of R groups (and the binary
// contrast of a against the rest when a holds 0/1) from group codes a and
// weights w.
func groupBatch(a, w []float64, groups int, inputs ...train.Input) *train.Batch {
	b := train.NewBatch(len(a), 1, 1, 1, inputs...)
	copy(b.A, a)
	copy(b.W, w)
	b.N, b.Groups = len(a), groups
	b.Derive()
	return b
}

func columns(b *train.Batch, inputs []train.Input) map[string][]float64 {
	cols := map[string][]float64{}
	for _, in := range inputs {
		cols[in.Name] = b.Column(in.Name)
	}
	return cols
}

// A batch worked by hand: 6 rows in 3 groups, 2 units.
//
//	a = [0 0 1 1 2 2], w = [1 3 1 1 2 2]: g_0 = [1/4 3/4 0 0 0 0],
//	g_1 = [0 0 1/2 1/2 0 0], g_2 = [0 0 0 0 1/2 1/2].
//	h = [4 0; 0 1; 1 2; 3 2; 2 2; 2 2]:
//	unit 1: m = [1, 2, 2]: max 2 (groups 1 and 2 tie: group 1), min 1 (group 0), D = 1;
//	unit 2: m = [3/4, 2, 2]: max 2 (group 1), min 3/4 (group 0), D = 5/4.
//
// U = 9/4; dU/dh_iu = g_1,i − g_0,i for both units (the tie goes to group 1,
// the lower index, never to group 2).
func TestGroupPenaltyHandWorked(t *testing.T) {
	a := []float64{0, 0, 1, 1, 2, 2}
	w := []float64{1, 3, 1, 1, 2, 2}
	p, err := penalties.ForGroups(penalties.ATOPenultimate, 3)
	if err != nil {
		t.Fatal(err)
	}
	b := groupBatch(a, w, 3, p.Inputs()...)
	if !b.Complete {
		t.Fatal("a batch with all three groups is not complete")
	}
	h := []float64{4, 0, 0, 1, 1, 2, 3, 2, 2, 2, 2, 2}
	u, dh := groupRun(t, p, h, 6, 2, make([]float64, 6), columns(b, p.Inputs()))
	if math.Abs(u-9.0/4) > 1e-15 {
		t.Errorf("U = %.17g, want 9/4", u)
	}
	g0 := []float64{0.25, 0.75, 0, 0, 0, 0}
	g1 := []float64{0, 0, 0.5, 0.5, 0, 0}
	for i := 0; i < 6; i++ {
		for j := 0; j < 2; j++ {
			if want := g1[i] - g0[i]; math.Abs(dh[2*i+j]-want) > 1e-15 {
				t.Fatalf("dU/dh = %v, want rows g_1 − g_0 = %v", dh, want)
			}
		}
	}
}

// The point of the R-group penalty: a majority group 0 and two minority
// groups treated in opposite directions (group 1 at +1, group 2 at −1, the
// majority at 0), of equal total weight. Merged into "the rest", the
// minorities average to the majority's 0, so the binary penalty (group 0
// against the rest) is 0, while the R-group penalty sees the spread of 2.
func TestGroupPenaltyCatchesOppositeEffects(t *testing.T) {
	const rows = 12
	a := make([]float64, rows)   // R-group codes
	bin := make([]float64, rows) // the binary attribute: 1 for the rest
	w := make([]float64, rows)
	h := make([]float64, rows)     // one unit
	logit := make([]float64, rows) // σ(z) at 1/2 ± a shift, by group
	for i := range a {
		switch {
		case i < 6:
			a[i], h[i], logit[i] = 0, 0, 0
		case i < 9:
			a[i], h[i], logit[i] = 1, 1, 1.5
		default:
			a[i], h[i], logit[i] = 2, -1, -1.5
		}
		bin[i] = math.Min(a[i], 1)
		w[i] = 0.5 + 0.1*float64(i%3) // the same weights in groups 1 and 2
	}
	for _, base := range []penalties.Penalty{penalties.ATOPenultimate, penalties.ATOOutput} {
		t.Run(base.Name(), func(t *testing.T) {
			p, err := penalties.ForGroups(base, 3)
			if err != nil {
				t.Fatal(err)
			}
			rb := groupBatch(a, w, 3, p.Inputs()...)
			ur, _ := groupRun(t, p, h, rows, 1, logit, columns(rb, p.Inputs()))
			bb := groupBatch(bin, w, 0, penalties.Contrast)
			ub, _ := groupRun(t, base, h, rows, 1, logit, columns(bb, base.Inputs()))
			// The spread, recomputed independently from the definition.
			want := 2.0
			if base == penalties.ATOOutput {
				want = 1/(1+math.Exp(-1.5)) - 1/(1+math.Exp(1.5))
			}
			if math.Abs(ur-want) > 1e-12 {
				t.Errorf("R-group penalty %.17g, want %.17g", ur, want)
			}
			if !(ur > 0.5) || !(math.Abs(ub) < 0.01*ur) {
				t.Errorf("binary penalty %.3g, R-group penalty %.3g: want the binary one below 1%% of a clearly positive R-group one", ub, ur)
			}
			z := make([]int, rows)
			o := h
			if base == penalties.ATOOutput {
				o = make([]float64, rows)
				for i, v := range logit {
					o[i] = 1 / (1 + math.Exp(-v))
				}
			}
			for i := range z {
				z[i] = int(a[i])
			}
			metric, err := fairness.ATO(o, z, w)
			if err != nil || math.Abs(metric-ur) > 1e-12 {
				t.Errorf("fairness.ATO = %v (%v), the penalty %v", metric, err, ur)
			}
		})
	}
}

// At R = 2 the R-group form computes the binary penalty: max − min of the
// two means is |m_1 − m_0| = |τ̂|.
func TestGroupPenaltyTwoGroupsIsBinary(t *testing.T) {
	const rows, h = 7, 3
	a := []float64{1, 0, 1, 1, 0, 0, 1}
	w := []float64{0.3, 0.7, 0.55, 0.2, 0.45, 0.9, 0.1}
	hidden := make([]float64, rows*h)
	logit := make([]float64, rows)
	for i := range hidden {
		hidden[i] = math.Sin(float64(3*i+1)) * 2
	}
	for i := range logit {
		logit[i] = math.Cos(float64(5 * i))
	}
	for _, base := range []penalties.Penalty{penalties.ATOPenultimate, penalties.ATOOutput} {
		p, err := penalties.ForGroups(base, 2)
		if err != nil {
			t.Fatal(err)
		}
		inputs := append(p.Inputs(), penalties.Contrast)
		b := groupBatch(a, w, 0, inputs...)
		ug, dg := groupRun(t, p, hidden, rows, h, logit, columns(b, p.Inputs()))
		ub, db := groupRun(t, base, hidden, rows, h, logit, columns(b, base.Inputs()))
		if math.Abs(ug-ub) > 1e-14*math.Abs(ub) || !(ub > 0) {
			t.Errorf("%s: R-group form at R = 2 gives %.17g, the binary penalty %.17g", base.Name(), ug, ub)
		}
		for i := range db {
			if math.Abs(dg[i]-db[i]) > 1e-14 {
				t.Fatalf("%s: gradient %v, binary %v", base.Name(), dg, db)
			}
		}
	}
}

// Central finite differences of the graph form, R = 3 and 4, on a hidden
// layer and on the logit, with two padding rows.
func TestGroupPenaltyFiniteDifferences(t *testing.T) {
	const rows, h = 11, 4
	for _, groups := range []int{3, 4} {
		for _, base := range []penalties.Penalty{penalties.ATOPenultimate, penalties.ATOOutput} {
			p, err := penalties.ForGroups(base, groups)
			if err != nil {
				t.Fatal(err)
			}
			a := make([]float64, rows)
			w := make([]float64, rows)
			for i := range a {
				a[i] = float64(i % groups)
				w[i] = 0.2 + 0.7*math.Abs(math.Sin(float64(i+groups)))
			}
			b := groupBatch(a, w, groups, p.Inputs()...)
			for _, in := range p.Inputs() { // rows 9 and 10 become padding
				col := b.Column(in.Name)
				col[9], col[10] = 0, 0
			}
			cols := columns(b, p.Inputs())
			x := make([]float64, rows*h)
			for i := range x {
				x[i] = math.Sin(float64(7*i+groups)) * 2
			}
			if base == penalties.ATOOutput {
				x = x[:rows]
			}
			run := func(x []float64) (float64, []float64) {
				if base == penalties.ATOOutput {
					return groupRun(t, p, make([]float64, rows*h), rows, h, x, cols)
				}
				return groupRun(t, p, x, rows, h, make([]float64, rows), cols)
			}
			u, an := run(x)
			if !(u > 0) {
				t.Fatalf("R = %d %s: U = %v", groups, base.Name(), u)
			}
			const step = 1e-6
			var diff, ref float64
			for i := range x {
				old := x[i]
				x[i] = old + step
				up, _ := run(x)
				x[i] = old - step
				down, _ := run(x)
				x[i] = old
				num := (up - down) / (2 * step)
				diff += (an[i] - num) * (an[i] - num)
				ref += num * num
			}
			if e := math.Sqrt(diff / ref); !(e < 1e-7) {
				t.Errorf("R = %d %s: ‖analytic − numeric‖/‖numeric‖ = %.3g", groups, base.Name(), e)
			}
		}
	}
}

// The columns: each g_r sums to 1 over a complete batch and is 0 on every
// row of a batch that lacks a group or whose group has zero total weight.
func TestGroupMeanColumns(t *testing.T) {
	in := penalties.GroupMeans(3)
	if in[2].Name != "overlap-mean-2-of-3" {
		t.Errorf("column name %q", in[2].Name)
	}
	cases := []struct {
		name     string
		a, w     []float64
		complete bool
	}{
		{"complete", []float64{0, 1, 2, 2, 0}, []float64{1, 2, 3, 1, 1}, true},
		{"missing group 1", []float64{0, 2, 2, 0, 0}, []float64{1, 2, 3, 1, 1}, false},
		{"group 1 without weight", []float64{0, 1, 2, 2, 0}, []float64{1, 0, 3, 1, 1}, true},
	}
	for _, c := range cases {
		b := groupBatch(c.a, c.w, 3, in...)
		if b.Complete != c.complete {
			t.Errorf("%s: Complete = %v", c.name, b.Complete)
		}
		zero := !c.complete || c.name == "group 1 without weight"
		for r, col := range in {
			var s float64
			for i, v := range b.Column(col.Name) {
				s += v
				if v != 0 && c.a[i] != float64(r) {
					t.Errorf("%s: g_%d is %v on row %d of group %v", c.name, r, v, i, c.a[i])
				}
			}
			if zero && s != 0 || !zero && math.Abs(s-1) > 1e-15 {
				t.Errorf("%s: g_%d sums to %v", c.name, r, s)
			}
		}
	}
}

func TestForGroups(t *testing.T) {
	for _, base := range []penalties.Penalty{penalties.ATOPenultimate, penalties.ATOAll, penalties.ATOPenultimateNormalized, penalties.ATOOutput} {
		p, err := penalties.ForGroups(base, 4)
		if err != nil {
			t.Fatal(err)
		}
		if p.Name() != base.Name() || p.Version() != base.Version() || train.TermGroups(p) != 4 || len(p.Inputs()) != 4 {
			t.Errorf("%s: name %q version %q groups %d inputs %d", base.Name(), p.Name(), p.Version(), train.TermGroups(p), len(p.Inputs()))
		}
		if train.TermGroups(base) != 2 {
			t.Errorf("%s: a binary penalty compares %d groups", base.Name(), train.TermGroups(base))
		}
	}
	custom := penalties.NewPenalty("mine", "1", nil, func(penalties.Net, penalties.BatchNodes) (*G.Node, error) { return nil, nil })
	if _, err := penalties.ForGroups(custom, 3); err == nil || !strings.Contains(err.Error(), "mine") {
		t.Errorf("a custom penalty: %v", err)
	}
	if _, err := penalties.ForGroups(penalties.ATOAll, 1); err == nil || !strings.Contains(err.Error(), "1 groups") {
		t.Errorf("one group: %v", err)
	}
	p, _ := penalties.ForGroups(penalties.ATOAll, 3)
	if _, err := p.Node(penalties.Net{Hidden: []*G.Node{nil}}, penalties.BatchNodes{}); err == nil || !strings.Contains(err.Error(), "overlap-mean-0-of-3") {
		t.Errorf("a batch without the columns: %v", err)
	}
}
