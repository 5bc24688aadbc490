package graph

import (
	"fmt"
	"sync"

	"github.com/fpareto/fp/graph/scalarizations"
	"github.com/fpareto/fp/layers"
	"github.com/fpareto/fp/losses"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/train"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// buildMu serialises graph construction: Gorgonia's G.Grad adds a shared
// global constant to the graph and node hashes are cached without
// synchronisation, so building two graphs at once is a data race. Running
// separately built graphs concurrently is safe.
var buildMu sync.Mutex

// Program is the graph a Trainer runs, for users who want to inspect it or
// read other nodes (through Trainer.Value). Its nodes belong to the trainer:
// treat them as read-only.
type Program struct {
	Graph *G.ExprGraph
	MLP   *layers.MLP
	// FiLM is the conditioning network of a λ-conditioned spec (nil for a
	// plain one); it modulates the MLP's hidden pre-activations in both
	// paths.
	FiLM *layers.FiLM
	// Lambda is the objective's trade-off weight λ, a scalar input that
	// SetLambda rewrites; nil when the objective is not a scalarization.
	Lambda *G.Node
	// X is the training batch input (BatchSize×Dim); Masks are the dropout
	// masks (BatchSize×H each, nil when the spec has no dropout).
	X     *G.Node
	Masks []*G.Node
	// Batch holds the per-row inputs a risk or penalty reads.
	Batch penalties.BatchNodes
	// Net is the network applied to X in training mode, as the penalty
	// reads it: for a conditioned spec with FiLMPenalty "before", Hidden
	// holds the pre-activations before the modulation.
	Net penalties.Net
	// R, U and Objective are the risk, the penalty (nil when the objective
	// does not use one) and the scalarized objective.
	R, U, Objective *G.Node
	// Grads are the gradients of Objective with respect to MLP.Params(),
	// then FiLM.Params(); an entry is nil where the objective does not
	// depend on the parameter.
	Grads G.Nodes
	// EvalX (BatchSize×Dim) and EvalLogit are the evaluation path: the same
	// parameters without dropout.
	EvalX, EvalLogit *G.Node
}

// input is a per-row batch input: its node and the slice backing its value.
type input struct {
	node *G.Node
	data []float64
}

func newInput(g *G.ExprGraph, name string, shape ...int) (input, error) {
	size := 1
	for _, d := range shape {
		size *= d
	}
	in := input{data: make([]float64, size)}
	var err error
	in.node, err = layers.Input(g, in.data, name, shape...)
	return in, err
}

// rowInput is a per-row vector of the graph and where a batch holds its
// values: one of the batch's fixed fields or an input column by name.
type rowInput struct {
	input
	name   string
	column bool
}

// rows returns the slice of b that feeds the input.
func (r rowInput) rows(b *train.Batch) []float64 {
	if r.column {
		return b.Column(r.name)
	}
	switch r.name {
	case "Y":
		return b.Y
	case "A":
		return b.A
	case "W":
		return b.W
	default:
		return b.SW
	}
}

// build constructs the trainer's graph and both programs. It runs under
// buildMu and turns a panic inside Gorgonia (or inside a user's risk or
// penalty) into an error.
func build(spec train.Spec, t *Trainer) (err error) {
	buildMu.Lock()
	defer buildMu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("building the graph failed: %v", r)
		}
	}()

	n, dim := spec.BatchSize, spec.Dim
	g := G.NewGraph()
	p := &Program{Graph: g}
	x, err := newInput(g, "X", n, dim)
	if err != nil {
		return err
	}
	p.X = x.node
	var masks []input
	if spec.Dropout > 0 {
		for l := 0; l < spec.Arch.HiddenLayers(); l++ {
			m, err := layers.NewMask(g, n, spec.Arch.Hidden, fmt.Sprintf("mask%d", l))
			if err != nil {
				return err
			}
			masks = append(masks, input{node: m.Node, data: m.Data})
			p.Masks = append(p.Masks, m.Node)
		}
	}
	// The batch's fixed fields, then one vector per declared input column.
	var rows []rowInput
	for _, name := range []string{"Y", "A", "W", "SW"} {
		in, err := newInput(g, name, n)
		if err != nil {
			return err
		}
		rows = append(rows, rowInput{input: in, name: name})
	}
	p.Batch = penalties.BatchNodes{Y: rows[0].node, A: rows[1].node, W: rows[2].node, SW: rows[3].node,
		Columns: map[string]*G.Node{}}
	for _, col := range spec.Inputs() {
		in, err := newInput(g, "col:"+col.Name, n)
		if err != nil {
			return err
		}
		rows = append(rows, rowInput{input: in, name: col.Name, column: true})
		p.Batch.Columns[col.Name] = in.node
	}

	mlp, err := layers.NewMLP(g, spec.Init)
	if err != nil {
		return err
	}
	p.MLP = mlp
	forward := mlp.Forward
	if spec.FiLM != nil {
		if p.FiLM, err = layers.NewFiLM(g, spec.FiLM, spec.Objective.Lambda); err != nil {
			return err
		}
		forward = func(x *G.Node, masks []*G.Node) (layers.Output, error) { return mlp.ForwardFiLM(x, masks, p.FiLM) }
	}
	out, err := forward(p.X, p.Masks)
	if err != nil {
		return err
	}
	p.Net = penalties.Net{Hidden: out.Hidden, Logit: out.Logit}
	if spec.FiLMPenalty == train.PenaltyBeforeFiLM {
		// The penalty reads z_l = v^(l−1) W_l + b_l, the same nodes the
		// modulation reads (spec.Validate has checked there is one); the
		// risk and every other path read the modulated network.
		p.Net.Hidden = out.Unmodulated
	}

	risk, pen, err := graphTerms(spec.Requirements())
	if err != nil {
		return err
	}
	if p.R, err = risk.Node(p.Net.Logit, p.Batch.Y, p.Batch.SW); err != nil {
		return fmt.Errorf("risk %s: %w", risk.Name(), err)
	}
	if err := wantScalar(p.R, "risk "+risk.Name()); err != nil {
		return err
	}
	if spec.Objective.UsesPenalty() {
		if p.U, err = pen.Node(p.Net, p.Batch); err != nil {
			return fmt.Errorf("penalty %s: %w", pen.Name(), err)
		}
		if err := wantScalar(p.U, "penalty "+pen.Name()); err != nil {
			return err
		}
	}
	if spec.Objective.Scalar() != nil {
		// λ is an input, not a constant, so that one graph serves every λ
		// (SetLambda); the numbers are the same to the last bit.
		p.Lambda = G.NewScalar(g, G.Float64, G.WithName("lambda"), G.WithValue(G.NewF64(spec.Objective.Lambda)))
	}
	if p.Objective, err = ObjectiveNodeAt(spec.Objective, p.R, p.U, p.Lambda); err != nil {
		return err
	}
	// Parameters the objective does not depend on (the output layer, for a
	// penalty on hidden layers alone) have a zero gradient; G.Grad refuses
	// them, so they are left out and their buffers stay zero.
	params := mlp.Params()
	if p.FiLM != nil {
		params = append(params, p.FiLM.Params()...)
	}
	objGraph := g.ExactSubgraphRoots(p.Objective)
	var wrt G.Nodes
	var wrtIdx []int
	for i, n := range params {
		if objGraph.Has(n.ID()) {
			wrt = append(wrt, n)
			wrtIdx = append(wrtIdx, i)
		}
	}
	if len(wrt) == 0 {
		return fmt.Errorf("the objective does not depend on the network")
	}
	grads, err := G.Grad(p.Objective, wrt...)
	if err != nil {
		return fmt.Errorf("gradient of the objective: %w", err)
	}
	p.Grads = make(G.Nodes, len(params))
	for k, i := range wrtIdx {
		p.Grads[i] = grads[k]
	}

	// The machine copies each output to where the trainer reads it: the
	// scalars into objV, rV and uV, the gradients into t.grads.
	outputs := G.Nodes{p.Objective, p.R}
	dsts := []*G.Value{&t.objV, &t.rV}
	if p.U != nil {
		outputs = append(outputs, p.U)
		dsts = append(dsts, &t.uV)
	}
	t.gradVals = make([]G.Value, len(params))
	for i, gr := range p.Grads {
		if gr == nil {
			continue
		}
		t.gradVals[i] = tensor.New(tensor.WithShape(params[i].Shape().Clone()...), tensor.WithBacking(t.grads[i]))
		outputs = append(outputs, gr)
		dsts = append(dsts, &t.gradVals[i])
	}
	sub := g.ExactSubgraphRoots(outputs...)
	t.feedX = x.data
	for _, m := range masks {
		t.feedMasks = append(t.feedMasks, m.data)
	}
	for _, r := range rows {
		if sub.Has(r.node.ID()) {
			t.feeds = append(t.feeds, r)
		}
	}
	if !sub.Has(p.X.ID()) {
		return fmt.Errorf("the objective does not depend on the input")
	}
	if t.trainM, err = newMachine(g, outputs, dsts, t.trainOutputs); err != nil {
		return fmt.Errorf("the training program: %w", err)
	}

	// The evaluation path shares the parameter nodes but has its own input,
	// so predicting never touches the training inputs.
	ex, err := newInput(g, "EvalX", n, dim)
	if err != nil {
		return err
	}
	p.EvalX = ex.node
	eout, err := forward(p.EvalX, nil)
	if err != nil {
		return err
	}
	p.EvalLogit = eout.Logit
	t.evalX = ex.data
	t.evalLogits = make([]float64, n)
	t.evalV = tensor.New(tensor.WithShape(n), tensor.WithBacking(t.evalLogits))
	if t.evalM, err = newMachine(g, G.Nodes{p.EvalLogit}, []*G.Value{&t.evalV}, t.evalOutputs); err != nil {
		return fmt.Errorf("the evaluation program: %w", err)
	}
	t.prog = p
	t.mlp = mlp
	return nil
}

// graphTerms returns the graph forms of req's terms: the risk (losses.BCE
// when req has none) and the penalty (nil when req has none). A term
// without a graph form is refused with a *train.UnsupportedError.
func graphTerms(req train.Requirements) (losses.Risk, penalties.Penalty, error) {
	risk := losses.BCE
	if req.Risk != nil {
		r, ok := req.Risk.(losses.Risk)
		if !ok {
			return nil, nil, &train.UnsupportedError{Engine: Name, Kind: "risk", Term: req.Risk.Name(),
				Hint: "a risk for the graph engine is graph code (losses.Risk, e.g. from losses.NewRisk)"}
		}
		risk = r
	}
	var pen penalties.Penalty
	if req.Penalty != nil {
		p, ok := req.Penalty.(penalties.Penalty)
		if !ok {
			return nil, nil, &train.UnsupportedError{Engine: Name, Kind: "penalty", Term: req.Penalty.Name(),
				Hint: "a penalty for the graph engine is graph code (penalties.Penalty, e.g. from penalties.NewPenalty)"}
		}
		pen = p
	}
	if req.Scalarization != nil {
		if _, err := scalarizations.Of(req.Scalarization); err != nil {
			return nil, nil, &train.UnsupportedError{Engine: Name, Kind: "scalarization", Term: req.Scalarization.Name(),
				Hint: "a scalarization for the graph engine is graph code (scalarizations.Scalarization, e.g. from scalarizations.New)"}
		}
	}
	return risk, pen, nil
}

func wantScalar(n *G.Node, what string) error {
	if n == nil {
		return fmt.Errorf("%s: returned no node", what)
	}
	if !n.IsScalar() {
		return fmt.Errorf("%s: returned a node of shape %v, want a scalar", what, n.Shape())
	}
	return nil
}
