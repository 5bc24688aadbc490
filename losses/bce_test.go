package losses

import (
	"math"
	"testing"

	"github.com/fpareto/fp/model"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// riskRun evaluates r on logits z, labels y and weights sw, returning R and dR/dz.
func riskRun(t *testing.T, r Risk, z, y, sw []float64) (float64, []float64) {
	t.Helper()
	n := len(z)
	g := G.NewGraph()
	vec := func(name string, v []float64) *G.Node {
		return G.NewVector(g, tensor.Float64, G.WithShape(n), G.WithName(name),
			G.WithValue(tensor.New(tensor.WithShape(n), tensor.WithBacking(append([]float64(nil), v...)))))
	}
	zn, yn, swn := vec("z", z), vec("y", y), vec("sw", sw)
	out, err := r.Node(zn, yn, swn)
	if err != nil {
		t.Fatal(err)
	}
	grads, err := G.Grad(out, zn)
	if err != nil {
		t.Fatal(err)
	}
	var rv, gv G.Value
	prog, locs, err := G.CompileFunction(g, G.Nodes{zn, yn, swn}, G.Nodes{G.Read(out, &rv), G.Read(grads[0], &gv)})
	if err != nil {
		t.Fatal(err)
	}
	m := G.NewTapeMachine(g, G.WithPrecompiled(prog, locs))
	defer m.Close()
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	var v float64
	switch x := rv.(type) {
	case *G.F64:
		v = float64(*x)
	default:
		v = x.Data().(float64)
	}
	return v, gv.Data().([]float64)
}

// BCE from logits is finite and exact where the naive form overflows; its
// gradient is sw·(σ(z) − y).
func TestBCENode(t *testing.T) {
	z := []float64{-800, -30, -2, 0, 0.5, 3, 30, 800}
	y := []float64{1, 0, 1, 0, 1, 0, 0, 1}
	n := float64(len(z))
	sw := make([]float64, len(z))
	for i := range sw {
		sw[i] = 1 / n
	}
	r, dz := riskRun(t, BCE, z, y, sw)
	// By hand: softplus(z) − y·z is −z for z = −800, y = 1 (800); 0 (to 1e-13)
	// for z = −30, y = 0; log 2 at z = 0; z itself for z = 30, y = 0; 0 for
	// z = 800, y = 1.
	want := BCEValue(z, y)
	if math.IsInf(r, 0) || math.IsNaN(r) {
		t.Fatalf("BCE = %v at extreme logits", r)
	}
	if math.Abs(r-want) > 1e-12*want {
		t.Errorf("BCE node = %.17g, BCEValue = %.17g", r, want)
	}
	hand := (800 + model.Softplus(-30) + (model.Softplus(-2) + 2) + math.Ln2 + (model.Softplus(0.5) - 0.5) +
		model.Softplus(3) + 30 + 0) / n
	if math.Abs(want-hand) > 1e-12*hand {
		t.Errorf("BCEValue = %.17g, by hand %.17g", want, hand)
	}
	for i := range z {
		g := sw[i] * (model.Sigmoid(z[i]) - y[i])
		if math.Abs(dz[i]-g) > 1e-9/n {
			t.Errorf("dR/dz[%d] at z = %v: %v, want sw·(σ(z)−y) = %v", i, z[i], dz[i], g)
		}
	}
}

// Rows with sw = 0 (padding) change neither R nor the gradient of the others.
func TestBCEPaddingRows(t *testing.T) {
	z := []float64{0.3, -1.2, 2.5}
	y := []float64{1, 0, 0}
	sw := []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}
	r, dz := riskRun(t, BCE, z, y, sw)
	rp, dzp := riskRun(t, BCE, append(z, 0, 0), append(y, 0, 0), append(sw, 0, 0))
	if r != rp {
		t.Errorf("padded R = %v, unpadded %v", rp, r)
	}
	for i := range dz {
		if dz[i] != dzp[i] {
			t.Errorf("padded gradient %v, unpadded %v", dzp, dz)
		}
	}
	if dzp[3] != 0 || dzp[4] != 0 {
		t.Errorf("padding rows have gradient %v", dzp[3:])
	}
}

func TestBCEValue(t *testing.T) {
	if v := BCEValue(nil, nil); v != 0 {
		t.Errorf("BCEValue of nothing = %v, want 0", v)
	}
	// Mean of log 2 (z = 0) and softplus(−1) (z = 1, y = 1).
	if v, want := BCEValue([]float64{0, 1}, []float64{0, 1}), (math.Ln2+math.Log1p(math.Exp(-1)))/2; math.Abs(v-want) > 1e-15 {
		t.Errorf("BCEValue = %v, want %v", v, want)
	}
	if BCE.Name() != "bce" {
		t.Errorf("BCE.Name() = %q", BCE.Name())
	}
}

// A risk built with NewRisk is differentiated by Gorgonia like the built-in one.
func TestNewRiskGradient(t *testing.T) {
	brier := NewRisk("brier", "1", func(z, y, sw *G.Node) (*G.Node, error) {
		d := G.Must(G.Sub(G.Must(G.Sigmoid(z)), y))
		return G.Sum(G.Must(G.HadamardProd(sw, G.Must(G.Square(d)))))
	})
	if brier.Name() != "brier" {
		t.Errorf("name %q", brier.Name())
	}
	z := []float64{-1, 0.2, 2}
	y := []float64{0, 1, 1}
	sw := []float64{0.5, 0.25, 0.25}
	r, dz := riskRun(t, brier, z, y, sw)
	var want float64
	for i := range z {
		p := model.Sigmoid(z[i])
		want += sw[i] * (p - y[i]) * (p - y[i])
		// d/dz sw(σ−y)² = 2 sw (σ−y) σ(1−σ)
		if g := 2 * sw[i] * (p - y[i]) * p * (1 - p); math.Abs(dz[i]-g) > 1e-12 {
			t.Errorf("dR/dz[%d] = %v, want %v", i, dz[i], g)
		}
	}
	if math.Abs(r-want) > 1e-15 {
		t.Errorf("R = %v, want %v", r, want)
	}
}
