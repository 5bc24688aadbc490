package graph

import (
	"fmt"
	"math"

	"github.com/fpareto/fp/layers"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/train"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Name is the engine's name in records.
const Name = "graph"

// Engine is the Gorgonia graph engine. Its zero value is ready to use.
type Engine struct{}

// Name is "graph", the engine's name in records.
func (Engine) Name() string { return Name }

// Check accepts any risk that is a losses.Risk and any penalty that is a
// penalties.Penalty: the graph engine differentiates whatever graph code
// they build.
func (Engine) Check(req train.Requirements) error {
	_, _, err := graphTerms(req)
	return err
}

// NewTrainer builds a trainer for spec: New's, or NewConditioned's for a
// spec with a conditioning network (spec.FiLM).
func (Engine) NewTrainer(spec train.Spec) (train.Trainer, error) {
	if spec.FiLM != nil {
		return NewConditioned(spec)
	}
	return New(spec)
}

var _ train.Engine = Engine{}

// Trainer trains one network on one objective with a graph built and
// compiled once. It implements train.Trainer; like every trainer it is used
// by one goroutine at a time, while separate trainers may run concurrently.
type Trainer struct {
	spec train.Spec
	prog *Program
	mlp  *layers.MLP

	trainM, evalM *machine

	params, grads [][]float64
	// Values the read instructions copy into. gradVals are backed by grads;
	// the scalars are allocated by the first run and reused.
	gradVals      []G.Value
	objV, rV, uV  G.Value
	evalV         G.Value
	feedX         []float64
	feedMasks     [][]float64
	feeds         []rowInput
	evalX         []float64
	evalLogits    []float64
	hidden, width int
}

var _ train.Trainer = (*Trainer)(nil)

// New builds and compiles the graph for spec: the network spec.Init (copied)
// applied to a BatchSize-row input with dropout masks, the risk (spec.Risk,
// default losses.BCE), the penalty when the objective uses one, the
// objective and its gradient; and an evaluation path without dropout. A
// spec with a conditioning network is NewConditioned's.
func New(spec train.Spec) (*Trainer, error) {
	if spec.FiLM != nil {
		return nil, fmt.Errorf("graph engine: the spec has a conditioning network: build it with NewConditioned")
	}
	return newTrainer(spec)
}

func newTrainer(spec train.Spec) (*Trainer, error) {
	if err := spec.Validate(); err != nil {
		return nil, fmt.Errorf("graph engine: %w", err)
	}
	if err := (Engine{}).Check(spec.Requirements()); err != nil {
		return nil, err
	}
	t := &Trainer{spec: spec, hidden: spec.Arch.HiddenLayers(), width: spec.Arch.Hidden}
	for _, s := range spec.Arch.Shapes(spec.Dim) {
		t.grads = append(t.grads, make([]float64, s.In*s.Out), make([]float64, s.Out))
	}
	if spec.FiLM != nil {
		for _, p := range spec.FiLM.Tensors() {
			t.grads = append(t.grads, make([]float64, len(p)))
		}
	}
	if err := build(spec, t); err != nil {
		return nil, fmt.Errorf("graph engine: %v network: %w", spec.Arch, err)
	}
	t.params = t.mlp.Values()
	if t.prog.FiLM != nil {
		t.params = append(t.params, t.prog.FiLM.Values()...)
	}
	return t, nil
}

// SetLambda sets the λ of the trainer's objective for the following
// Gradient calls (train.LambdaSetter), and for a conditioned network also
// the λ its conditioning network reads, in Predict too. It is refused for
// an objective that is not a scalarization and for λ outside [0, 1].
func (t *Trainer) SetLambda(lambda float64) error {
	if err := train.CheckLambda(t.spec.Objective, lambda); err != nil {
		return fmt.Errorf("graph engine: %w", err)
	}
	if err := G.Let(t.prog.Lambda, G.NewF64(lambda)); err != nil {
		return fmt.Errorf("graph engine: set λ: %w", err)
	}
	if t.prog.FiLM != nil {
		if err := t.prog.FiLM.SetLambda(lambda); err != nil {
			return fmt.Errorf("graph engine: %w", err)
		}
	}
	t.spec.Objective.Lambda = lambda
	return nil
}

// Program returns the trainer's graph and its nodes.
func (t *Trainer) Program() *Program { return t.prog }

// Spec is the spec the trainer was built for.
func (t *Trainer) Spec() train.Spec { return t.spec }

// BatchSize is the number of rows every batch must have.
func (t *Trainer) BatchSize() int { return t.spec.BatchSize }

// Params returns the slices backing the parameter nodes (W0, B0, W1, B1, …);
// the next run reads whatever is written to them.
func (t *Trainer) Params() [][]float64 { return t.params }

// Grads returns the gradient buffers, filled by Gradient.
func (t *Trainer) Grads() [][]float64 { return t.grads }

// Network returns a copy of the current weights.
func (t *Trainer) Network() *model.Params { return t.mlp.Network() }

// Gradient runs the training program on b: the objective, R, U and the
// gradient, which it writes into Grads. Masks are used when the spec has
// dropout; without dropout they are ignored (train.Fit makes them all ones).
func (t *Trainer) Gradient(b *train.Batch) (train.Loss, error) {
	if err := t.check(b); err != nil {
		return train.Loss{}, err
	}
	copy(t.feedX, b.X)
	for l, m := range t.feedMasks {
		copy(m, b.Masks[l])
	}
	for _, f := range t.feeds {
		copy(f.data, f.rows(b))
	}
	if err := t.trainM.run(); err != nil {
		return train.Loss{}, fmt.Errorf("graph engine: training step: %w", err)
	}
	var l train.Loss
	var err error
	if l.Objective, err = scalar(t.objV); err != nil {
		return train.Loss{}, fmt.Errorf("graph engine: objective: %w", err)
	}
	if l.R, err = scalar(t.rV); err != nil {
		return train.Loss{}, fmt.Errorf("graph engine: risk: %w", err)
	}
	if t.prog.U != nil {
		if l.U, err = scalar(t.uV); err != nil {
			return train.Loss{}, fmt.Errorf("graph engine: penalty: %w", err)
		}
	}
	return l, nil
}

func (t *Trainer) check(b *train.Batch) error {
	n, dim := t.spec.BatchSize, t.spec.Dim
	if b == nil || b.Size != n || b.Dim != dim || len(b.X) != n*dim {
		return fmt.Errorf("graph engine: batch is not %d rows × %d features", n, dim)
	}
	if b.N < 0 || b.N > n {
		return fmt.Errorf("graph engine: batch has %d real rows, more than its size %d", b.N, n)
	}
	for _, f := range t.feeds {
		if got := len(f.rows(b)); got != n {
			if f.column && got == 0 {
				return fmt.Errorf("graph engine: batch lacks the input column %q", f.name)
			}
			return fmt.Errorf("graph engine: batch vectors must have %d entries", n)
		}
	}
	if len(t.feedMasks) > 0 {
		if len(b.Masks) != t.hidden {
			return fmt.Errorf("graph engine: batch has %d dropout masks, want %d (one per hidden layer)", len(b.Masks), t.hidden)
		}
		for l, m := range b.Masks {
			if len(m) != n*t.width {
				return fmt.Errorf("graph engine: dropout mask %d has %d entries, want %d×%d", l+1, len(m), n, t.width)
			}
		}
	}
	return nil
}

// Predict writes the logits of the n rows of x (row-major n×Dim) into
// logits[:n], without dropout. It runs the evaluation program on chunks of
// BatchSize rows, the last one padded with zero rows; training inputs and
// state are untouched.
func (t *Trainer) Predict(x []float64, n int, logits []float64) error {
	dim, size := t.spec.Dim, t.spec.BatchSize
	if n < 0 || len(x) != n*dim || len(logits) < n {
		return fmt.Errorf("graph engine: predict: %d values and room for %d logits for %d rows of %d features",
			len(x), len(logits), n, dim)
	}
	for start := 0; start < n; start += size {
		k := min(size, n-start)
		copy(t.evalX, x[start*dim:(start+k)*dim])
		clear(t.evalX[k*dim:])
		if err := t.evalM.run(); err != nil {
			return fmt.Errorf("graph engine: predict rows %d–%d: %w", start+1, start+k, err)
		}
		copy(logits[start:start+k], t.evalLogits[:k])
	}
	return nil
}

// trainOutputs appends the training program's outputs: objective, R, U and
// the gradient.
func (t *Trainer) trainOutputs(dst []float64) []float64 {
	for _, v := range []G.Value{t.objV, t.rV, t.uV} {
		if v != nil {
			f, err := scalar(v)
			if err != nil {
				f = math.NaN() // never equal: the probe then falls back
			}
			dst = append(dst, f)
		}
	}
	for _, g := range t.grads {
		dst = append(dst, g...)
	}
	return dst
}

func (t *Trainer) evalOutputs(dst []float64) []float64 { return append(dst, t.evalLogits...) }

// scalar reads a float64 out of a scalar value, which Gorgonia returns
// either as *F64 or as a 0-dimensional tensor.
func scalar(v G.Value) (float64, error) {
	switch s := v.(type) {
	case *G.F64:
		return float64(*s), nil
	case tensor.Tensor:
		switch d := s.Data().(type) {
		case float64:
			return d, nil
		case []float64:
			if len(d) == 1 {
				return d[0], nil
			}
		}
	}
	return 0, fmt.Errorf("value %v (%T) is not a float64 scalar", v, v)
}
