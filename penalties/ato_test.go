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

// penaltyRun evaluates a penalty on fixed hidden pre-activations (rows×h
// each) and contrast c; it returns U and dU/dh for every layer.
func penaltyRun(t *testing.T, p penalties.Penalty, hidden [][]float64, rows, h int, c []float64) (float64, [][]float64) {
	t.Helper()
	g := G.NewGraph()
	var net penalties.Net
	for l, v := range hidden {
		net.Hidden = append(net.Hidden, G.NewMatrix(g, tensor.Float64, G.WithShape(rows, h), G.WithName("h"+string(rune('1'+l))),
			G.WithValue(tensor.New(tensor.WithShape(rows, h), tensor.WithBacking(append([]float64(nil), v...))))))
	}
	cn := G.NewVector(g, tensor.Float64, G.WithShape(rows), G.WithName("C"),
		G.WithValue(tensor.New(tensor.WithShape(rows), tensor.WithBacking(append([]float64(nil), c...)))))
	u, err := p.Node(net, penalties.BatchNodes{Columns: map[string]*G.Node{penalties.Contrast.Name: cn}})
	if err != nil {
		t.Fatal(err)
	}
	used := net.Hidden
	if !p.(interface{ ATOAllLayers() bool }).ATOAllLayers() {
		used = used[len(used)-1:]
	}
	grads, err := G.Grad(u, used...)
	if err != nil {
		t.Fatal(err)
	}
	var uv G.Value
	gv := make([]G.Value, len(grads))
	outs := G.Nodes{G.Read(u, &uv)}
	for i, gr := range grads {
		outs = append(outs, G.Read(gr, &gv[i]))
	}
	prog, locs, err := G.CompileFunction(g, append(G.Nodes{cn}, used...), outs)
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
	dh := make([][]float64, len(hidden))
	off := len(hidden) - len(used)
	for i := range gv {
		dh[off+i] = gv[i].Data().([]float64)
	}
	return uf, dh
}

// A batch worked by hand: 4 rows, two hidden layers of 2 units.
//
//	a = [1 1 0 0], w = [0.5 0.25 0.2 0.6]: Σaw = 0.75, Σ(1−a)w = 0.8, so
//	c = [0.5/0.75, 0.25/0.75, −0.2/0.8, −0.6/0.8] = [2/3, 1/3, −1/4, −3/4].
//
//	h1 = [1 2; 4 −1; 0 3; 2 2]: τ̂ = h1ᵀc = [2/3+4/3−3/2, 4/3−1/3−3/4−3/2] = [1/2, −5/4], Σ|τ̂| = 7/4.
//	h2 = [0 1; 1 0; 2 2; −1 3]: τ̂ = [1/3−1/2+3/4, 2/3−1/2−9/4] = [7/12, −25/12], Σ|τ̂| = 8/3.
//
// So ato-penultimate = 8/3 and ato-all = 7/4 + 8/3 = 53/12. The gradient of
// |τ̂_j| with respect to h_ij is c_i·sign(τ̂_j): rows c_i·[+1, −1] for both layers.
func TestATOPenaltiesHandWorked(t *testing.T) {
	a := []float64{1, 1, 0, 0}
	w := []float64{0.5, 0.25, 0.2, 0.6}
	c := make([]float64, 4)
	if !fairness.Contrast(a, w, c) {
		t.Fatal("Contrast: both groups are present")
	}
	wantC := []float64{2.0 / 3, 1.0 / 3, -0.25, -0.75}
	for i := range c {
		if math.Abs(c[i]-wantC[i]) > 1e-15 {
			t.Fatalf("c = %v, want %v", c, wantC)
		}
	}
	h1 := []float64{1, 2, 4, -1, 0, 3, 2, 2}
	h2 := []float64{0, 1, 1, 0, 2, 2, -1, 3}
	wantGrad := make([]float64, 8)
	for i := range c {
		wantGrad[2*i], wantGrad[2*i+1] = c[i], -c[i]
	}
	cases := []struct {
		p    penalties.Penalty
		u    float64
		used []bool
	}{
		{penalties.ATOPenultimate, 8.0 / 3, []bool{false, true}},
		{penalties.ATOAll, 53.0 / 12, []bool{true, true}},
	}
	for _, tc := range cases {
		t.Run(tc.p.Name(), func(t *testing.T) {
			u, dh := penaltyRun(t, tc.p, [][]float64{h1, h2}, 4, 2, c)
			if math.Abs(u-tc.u) > 1e-14 {
				t.Errorf("U = %.17g, want %.17g", u, tc.u)
			}
			for l, used := range tc.used {
				if !used {
					if dh[l] != nil {
						t.Errorf("layer %d is not part of the penalty but has a gradient", l+1)
					}
					continue
				}
				for i := range wantGrad {
					if math.Abs(dh[l][i]-wantGrad[i]) > 1e-15 {
						t.Errorf("dU/dh%d = %v, want %v", l+1, dh[l], wantGrad)
						break
					}
				}
			}
		})
	}
}

// A batch without one of the groups has c = 0 (Contrast); the penalty is then
// 0 and so is its gradient, because Gorgonia's tensor |x|′(0) is 0.
func TestATOPenaltyMissingGroup(t *testing.T) {
	a := []float64{1, 1, 1, 1}
	w := []float64{0.5, 0.25, 0.2, 0.6}
	c := []float64{9, 9, 9, 9}
	if fairness.Contrast(a, w, c) {
		t.Fatal("Contrast reports a batch with one group as complete")
	}
	for _, p := range []penalties.Penalty{penalties.ATOPenultimate, penalties.ATOAll} {
		u, dh := penaltyRun(t, p, [][]float64{{1, 2, 4, -1, 0, 3, 2, 2}, {0, 1, 1, 0, 2, 2, -1, 3}}, 4, 2, c)
		if u != 0 {
			t.Errorf("%s: U = %v, want 0", p.Name(), u)
		}
		for l, g := range dh {
			for _, v := range g {
				if v != 0 {
					t.Errorf("%s: dU/dh%d = %v, want 0", p.Name(), l+1, g)
					break
				}
			}
		}
	}
}

// Central finite differences on random pre-activations (3 layers of 5 units,
// 7 rows of which 2 are padding with c = 0).
func TestATOPenaltiesFiniteDifferences(t *testing.T) {
	const rows, h = 7, 5
	a := []float64{1, 0, 1, 1, 0, 0, 0}
	w := []float64{0.3, 0.7, 0.55, 0.2, 0.45, 0, 0}
	c := make([]float64, rows)
	fairness.Contrast(a, w, c)
	hidden := make([][]float64, 3)
	for l := range hidden {
		hidden[l] = make([]float64, rows*h)
		for i := range hidden[l] {
			hidden[l][i] = math.Sin(float64(7*l+3*i+1)) * 2 // fixed, irregular values
		}
	}
	for _, p := range []penalties.Penalty{penalties.ATOPenultimate, penalties.ATOAll} {
		_, dh := penaltyRun(t, p, hidden, rows, h, c)
		const step = 1e-6
		var diff, ref float64
		for l := range hidden {
			for i := range hidden[l] {
				old := hidden[l][i]
				hidden[l][i] = old + step
				up, _ := penaltyRun(t, p, hidden, rows, h, c)
				hidden[l][i] = old - step
				down, _ := penaltyRun(t, p, hidden, rows, h, c)
				hidden[l][i] = old
				num := (up - down) / (2 * step)
				var an float64
				if dh[l] != nil {
					an = dh[l][i]
				}
				diff += (an - num) * (an - num)
				ref += num * num
			}
		}
		if ref == 0 {
			t.Fatalf("%s: numeric gradient is zero", p.Name())
		}
		if e := math.Sqrt(diff / ref); e > 1e-6 {
			t.Errorf("%s: ‖analytic − numeric‖/‖numeric‖ = %.3g", p.Name(), e)
		}
	}
}

func TestPenaltyNamesAndErrors(t *testing.T) {
	for _, name := range []string{penalties.NameATOPenultimate, penalties.NameATOAll} {
		p, err := penalties.Builtin(name)
		if err != nil || p.Name() != name {
			t.Errorf("Builtin(%q) = %v, %v", name, p, err)
		}
		ato, ok := p.(interface{ ATOAllLayers() bool })
		if !ok || ato.ATOAllLayers() != (name == penalties.NameATOAll) {
			t.Errorf("%s does not say which layers it covers", name)
		}
		if in := p.Inputs(); len(in) != 1 || in[0].Name != penalties.Contrast.Name {
			t.Errorf("%s inputs %v, want the contrast", name, in)
		}
	}
	if _, err := penalties.Builtin("ato-first"); err == nil || !strings.Contains(err.Error(), "ato-penultimate") {
		t.Errorf("Builtin of an unknown name: %v", err)
	}
	custom := penalties.NewPenalty("mine", "2", []train.Input{penalties.Group1Mean}, func(penalties.Net, penalties.BatchNodes) (*G.Node, error) { return nil, nil })
	if custom.Name() != "mine" || custom.Version() != "2" || len(custom.Inputs()) != 1 || custom.Inputs()[0].Name != penalties.Group1Mean.Name {
		t.Errorf("NewPenalty: name %q, version %q, inputs %v", custom.Name(), custom.Version(), custom.Inputs())
	}
	if _, ok := custom.(interface{ ATOAllLayers() bool }); ok {
		t.Error("a custom penalty claims to be a built-in ATO penalty")
	}
	if _, err := penalties.ATOAll.Node(penalties.Net{Hidden: []*G.Node{nil}}, penalties.BatchNodes{}); err == nil || !strings.Contains(err.Error(), "ato-contrast") {
		t.Errorf("a batch without the contrast column: %v", err)
	}
	if _, err := penalties.ATOAll.Node(penalties.Net{}, penalties.BatchNodes{}); err == nil {
		t.Error("a network without hidden layers was accepted")
	}
}
