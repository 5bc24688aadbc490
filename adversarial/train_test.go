package adversarial

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fpareto/fp/graph"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/train"
)

// TestTrainForward checks the training-mode forward pass the adversary is
// fed: without dropout it is model.Params.Forward; with dropout it applies
// one inverted-dropout mask per hidden layer, drawn in layer order from the
// generator, after the ReLU.
func TestTrainForward(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	arch, dim := model.Arch{Layers: 4, Hidden: 5}, 3
	p := model.Init(arch, dim, rng)
	x := []float64{0.3, -1.2, 2}
	want := make([]float64, 1)
	p.Forward(x, 1, want)
	if got := newTrainForward(arch, dim, 0).logit(p.Tensors(), x, nil); math.Abs(got-want[0]) > 1e-14 {
		t.Errorf("no dropout: logit %.17g, model.Forward %.17g", got, want[0])
	}

	const drop = 0.4
	got := newTrainForward(arch, dim, drop).logit(p.Tensors(), x, rand.New(rand.NewPCG(9, 9)))
	masks := rand.New(rand.NewPCG(9, 9))
	in := x
	for l, s := range arch.Shapes(dim) {
		out := append([]float64(nil), p.B[l]...)
		for k, v := range in {
			for j := range out {
				out[j] += v * p.W[l][k*s.Out+j]
			}
		}
		if l < arch.HiddenLayers() {
			m := make([]float64, s.Out)
			model.FillMask(masks, m, drop)
			for j := range out {
				out[j] = math.Max(out[j], 0) * m[j]
			}
		}
		in = out
	}
	if math.Abs(got-in[0]) > 1e-14 {
		t.Errorf("dropout %g: logit %.17g, by hand %.17g", drop, got, in[0])
	}
}

// TestTrainVersions checks that both schedules train deterministically
// from a seed, that they are different schedules, and that an unknown
// version is refused.
func TestTrainVersions(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	const n, dim = 60, 3
	d := train.Data{X: make([]float64, n*dim), N: n, Dim: dim, Y: make([]float64, n), A: make([]float64, n)}
	for i := 0; i < n; i++ {
		for k := 0; k < dim; k++ {
			d.X[i*dim+k] = rng.NormFloat64()
		}
		d.A[i] = float64(i % 2)
		if d.X[i*dim]+0.5*d.A[i] > 0 {
			d.Y[i] = 1
		}
	}
	setup := func(v int) Setup {
		return Setup{Engine: graph.Engine{}, Arch: model.Arch{Layers: 3, Hidden: 4}, Batch: 16, Dropout: 0.2,
			Adam: optim.DefaultAdam, Beta: 0.5, Rounds: 4, PretrainClf: 2, PretrainAdv: 1, Version: v}
	}
	nets := map[int]*model.Params{}
	for _, v := range []int{VersionEvalFreshAdam, VersionLouppe} {
		var first *model.Params
		for range 2 {
			r, err := Train(context.Background(), setup(v), d, rand.New(rand.NewPCG(1, 1)))
			if err != nil {
				t.Fatal(err)
			}
			if first != nil && !equal(first, r.Network) {
				t.Errorf("version %d: two runs from one seed differ", v)
			}
			first = r.Network
		}
		nets[v] = first
	}
	if equal(nets[VersionEvalFreshAdam], nets[VersionLouppe]) {
		t.Error("the two schedules trained the same network")
	}
	def, err := Train(context.Background(), setup(0), d, rand.New(rand.NewPCG(1, 1)))
	if err != nil || !equal(def.Network, nets[Version]) {
		t.Errorf("version 0 is not the default schedule (err %v)", err)
	}
	if _, err := Train(context.Background(), setup(3), d, rand.New(rand.NewPCG(1, 1))); err == nil || !strings.Contains(err.Error(), "version 3") {
		t.Errorf("version 3: err = %v", err)
	}
}

// TestClfSteps checks the classifier's budget: K steps per round give
// exactly P·⌈n/batch⌉ + rounds·K Adam steps, with one step per round the
// schedule is that of the zero value (the paper's), and K > 1 (which runs
// through the data more than once a round here) trains a different
// network. The earlier schedule refuses K > 1.
func TestClfSteps(t *testing.T) {
	d := toyData(60, 3)
	setup := Setup{Engine: graph.Engine{}, Arch: model.Arch{Layers: 3, Hidden: 4}, Batch: 16, Dropout: 0.2,
		Adam: optim.DefaultAdam, Beta: 0.5, Rounds: 4, PretrainClf: 2, PretrainAdv: 1}
	nets := map[int]*model.Params{}
	for _, tc := range []struct{ k, steps int }{
		{0, 2*4 + 4},
		{1, 2*4 + 4},
		{3, 2*4 + 4*3},
		{7, 2*4 + 4*7}, // 7 batches of 16 from 60 rows: a round shuffles again
	} {
		s := setup
		s.ClfSteps = tc.k
		r, err := Train(context.Background(), s, d, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if r.Steps != tc.steps {
			t.Errorf("K = %d: %d classifier steps, want %d", tc.k, r.Steps, tc.steps)
		}
		nets[tc.k] = r.Network
	}
	if !equal(nets[0], nets[1]) {
		t.Error("K = 1 trained another network than the default schedule")
	}
	if equal(nets[1], nets[3]) || equal(nets[3], nets[7]) {
		t.Error("more classifier steps per round left the network unchanged")
	}
	s := setup
	s.Version, s.ClfSteps = VersionEvalFreshAdam, 2
	if _, err := Train(context.Background(), s, d, rand.New(rand.NewPCG(1, 1))); err == nil || !strings.Contains(err.Error(), "version 2") {
		t.Errorf("K = 2 on the earlier schedule: err = %v", err)
	}
}

// toyData is n rows of dim normal features, a alternating and y depending
// on the first feature and a.
func toyData(n, dim int) train.Data {
	rng := rand.New(rand.NewPCG(5, 5))
	d := train.Data{X: make([]float64, n*dim), N: n, Dim: dim, Y: make([]float64, n), A: make([]float64, n)}
	for i := 0; i < n; i++ {
		for k := 0; k < dim; k++ {
			d.X[i*dim+k] = rng.NormFloat64()
		}
		d.A[i] = float64(i % 2)
		if d.X[i*dim]+0.5*d.A[i] > 0 {
			d.Y[i] = 1
		}
	}
	return d
}

func equal(a, b *model.Params) bool {
	ta, tb := a.Tensors(), b.Tensors()
	for k := range ta {
		for i := range ta[k] {
			if ta[k][i] != tb[k][i] {
				return false
			}
		}
	}
	return true
}
