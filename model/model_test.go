package model_test

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/model"
)

func TestParseArch(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want model.Arch
		err  bool
	}{
		{"4x4", model.Arch{Layers: 4, Hidden: 4}, false},
		{" 10X32 ", model.Arch{Layers: 10, Hidden: 32}, false},
		{"32x10", model.Arch{Layers: 32, Hidden: 10}, false},
		{"1x4", model.Arch{}, true}, // no hidden layer
		{"4x0", model.Arch{}, true},
		{"4", model.Arch{}, true},
		{"axb", model.Arch{}, true},
	} {
		got, err := model.ParseArch(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParseArch(%q) = %v, %v", tc.in, got, err)
		}
	}
	a := model.Arch{Layers: 3, Hidden: 5}
	if s := a.Shapes(7); len(s) != 3 || s[0] != (model.Shape{In: 7, Out: 5}) || s[2] != (model.Shape{In: 5, Out: 1}) {
		t.Errorf("shapes %v", s)
	}
	if n := a.NumParams(7); n != 7*5+5+5*5+5+5+1 {
		t.Errorf("NumParams = %d", n)
	}
}

func TestInitIsSeededAndBounded(t *testing.T) {
	a := model.Arch{Layers: 3, Hidden: 8}
	p := model.Init(a, 16, rand.New(rand.NewPCG(1, 2)))
	q := model.Init(a, 16, rand.New(rand.NewPCG(1, 2)))
	r := model.Init(a, 16, rand.New(rand.NewPCG(1, 3)))
	same, differ := true, false
	for l, s := range a.Shapes(16) {
		bound := 1 / math.Sqrt(float64(s.In))
		for i, v := range p.W[l] {
			same = same && v == q.W[l][i]
			differ = differ || v != r.W[l][i]
			if math.Abs(v) > bound {
				t.Fatalf("layer %d weight %g outside ±%g", l, v, bound)
			}
		}
		for _, v := range p.B[l] {
			if math.Abs(v) > bound {
				t.Fatalf("layer %d bias %g outside ±%g", l, v, bound)
			}
		}
	}
	if !same || !differ {
		t.Errorf("same seed same weights: %v; other seed other weights: %v", same, differ)
	}
	if err := p.Validate(); err != nil {
		t.Error(err)
	}
}

func TestForwardByHand(t *testing.T) {
	// 2 inputs → 2 hidden (ReLU) → 1. W0 = [[1, −1], [2, 0.5]] (In×Out), b0 = [0, −1];
	// W1 = [[3], [−2]], b1 = [0.5].
	p := &model.Params{Arch: model.Arch{Layers: 2, Hidden: 2}, Dim: 2,
		W: [][]float64{{1, -1, 2, 0.5}, {3, -2}}, B: [][]float64{{0, -1}, {0.5}}}
	// x = (1, 2): h = (1+4, −1+1−1) = (5, −1) → ReLU (5, 0) → 15 + 0.5 = 15.5.
	// x = (−1, 0): h = (−1, 1−1) = (−1, 0) → (0, 0) → 0.5.
	z := make([]float64, 2)
	p.Forward([]float64{1, 2, -1, 0}, 2, z)
	if z[0] != 15.5 || z[1] != 0.5 {
		t.Errorf("logits %v, want [15.5 0.5]", z)
	}
}

func TestFillMask(t *testing.T) {
	m := make([]float64, 100000)
	model.FillMask(rand.New(rand.NewPCG(4, 4)), m, 0.2)
	zeros := 0
	for _, v := range m {
		switch v {
		case 0:
			zeros++
		case 1 / 0.8:
		default:
			t.Fatalf("mask value %g, want 0 or 1/(1−p)", v)
		}
	}
	if f := float64(zeros) / float64(len(m)); math.Abs(f-0.2) > 0.01 {
		t.Errorf("dropped share %g, want ≈ 0.2", f)
	}
	model.FillMask(nil, m[:3], 0)
	if m[0] != 1 || m[2] != 1 {
		t.Errorf("p = 0 must keep everything: %v", m[:3])
	}
}

func TestFileRoundTripAndPredict(t *testing.T) {
	a := model.Arch{Layers: 3, Hidden: 4}
	p := model.Init(a, 3, rand.New(rand.NewPCG(9, 9)))
	mean, sd := []float64{1, 2, 3}, []float64{2, 0, 0.5}
	path := filepath.Join(t.TempDir(), "net.json")
	if err := model.Save(path, model.NewFile(p, []string{"a", "b", "c"}, mean, sd)); err != nil {
		t.Fatal(err)
	}
	f, err := model.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{3, 7, 2, -1, 2, 4}
	got, err := f.Predict(x, 2)
	if err != nil {
		t.Fatal(err)
	}
	// By hand: standardize (sd 0 → 0), forward, sigmoid.
	std := []float64{1, 0, -2, -1, 0, 2}
	z := make([]float64, 2)
	p.Forward(std, 2, z)
	for i := range z {
		if math.Abs(got[i]-model.Sigmoid(z[i])) > 1e-15 {
			t.Errorf("row %d: %g, want %g", i, got[i], model.Sigmoid(z[i]))
		}
	}
	logits, err := f.Logits(x, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i := range z {
		if logits[i] != z[i] || got[i] != model.Sigmoid(logits[i]) {
			t.Errorf("row %d: logit %g, want %g; probability %g, want its sigmoid", i, logits[i], z[i], got[i])
		}
	}
	if _, err := f.Predict(x[:5], 2); err == nil {
		t.Error("predict with a wrong number of values: no error")
	}

	// A damaged file is refused with its name.
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"format":"fp-network/1","arch":"3x4","dim":3,"weights":[[1]],"biases":[[1]]}`), 0o644)
	if _, err := model.Load(bad); err == nil || !strings.Contains(err.Error(), "bad.json") {
		t.Errorf("damaged file: err = %v", err)
	}
}

func TestStableMath(t *testing.T) {
	for _, z := range []float64{-800, -30, 0, 30, 800} {
		s, sp := model.Sigmoid(z), model.Softplus(z)
		if math.IsNaN(s) || math.IsInf(sp, 0) || s < 0 || s > 1 {
			t.Errorf("z = %g: sigmoid %g softplus %g", z, s, sp)
		}
	}
	if math.Abs(model.Softplus(0)-math.Ln2) > 1e-15 || model.Softplus(800) != 800 {
		t.Errorf("softplus(0) = %g, softplus(800) = %g", model.Softplus(0), model.Softplus(800))
	}
}
