package penalties

import (
	"fmt"
	"strings"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/train"
	G "gorgonia.org/gorgonia"
)

// Net is the graph view of a network that a penalty reads. Every node has a
// fixed batch dimension (the trainer's batch size); rows past the batch's
// real size are padding, with zero weight everywhere in BatchNodes.
type Net struct {
	// Hidden holds the pre-activations h^(1) … h^(L−1) of the hidden layers,
	// each a batch×H matrix (docs/method.md §2): for a λ-conditioned network
	// the modulated ones, or those before the modulation when the spec's
	// FiLMPenalty is "before" (docs/method.md §12).
	Hidden []*G.Node
	// Logit is the output before the sigmoid, a batch vector.
	Logit *G.Node
}

// BatchNodes are a mini-batch's per-row inputs as graph vectors (length =
// batch size). Padding rows are 0 in every one of them.
type BatchNodes struct {
	A  *G.Node // sensitive attribute, 0 or 1
	Y  *G.Node // label, 0 or 1
	W  *G.Node // overlap weights from the calibrated propensity model
	SW *G.Node // 1/n on the batch's n real rows: Σ SW·o is the batch mean of o
	// Columns holds one vector per input column the trainer's terms
	// declared (train.Term.Inputs), by name.
	Columns map[string]*G.Node
}

// Column returns the node of the input column called name, or an error
// naming the columns there are when the penalty did not declare it.
func (b BatchNodes) Column(name string) (*G.Node, error) {
	if n, ok := b.Columns[name]; ok {
		return n, nil
	}
	var have []string
	for k := range b.Columns {
		have = append(have, k)
	}
	return nil, fmt.Errorf("no input column %q in the batch (columns: %v): declare it in the penalty's Inputs", name, have)
}

// Penalty is an unfairness term U written as graph code: it returns a scalar
// node built from the network's nodes and the batch. Gradients come from
// Gorgonia's automatic differentiation, and the result plugs into the same
// standardization and scalarization as the built-in penalties. As a
// train.Term it states its name, the version of its code and the per-row
// input columns Node reads.
type Penalty interface {
	train.Term
	// Node builds U for one batch. It is called once, when the trainer's
	// graph is built; the batch values change between steps.
	Node(net Net, b BatchNodes) (*G.Node, error)
}

// NewPenalty wraps a function as a Penalty. name identifies it in records;
// version identifies its code and enters a sweep's digest, so change it
// whenever build computes something else (otherwise a rerun resumes from
// records of the old code). inputs are the per-row columns build reads
// through BatchNodes.Column (for instance Group1Mean and Group0Mean).
func NewPenalty(name, version string, inputs []train.Input, build func(Net, BatchNodes) (*G.Node, error)) Penalty {
	return funcPenalty{name: name, version: version, inputs: inputs, f: build}
}

type funcPenalty struct {
	name, version string
	inputs        []train.Input
	f             func(Net, BatchNodes) (*G.Node, error)
}

func (p funcPenalty) Name() string                              { return p.name }
func (p funcPenalty) Version() string                           { return p.version }
func (p funcPenalty) Inputs() []train.Input                     { return p.inputs }
func (p funcPenalty) Node(n Net, b BatchNodes) (*G.Node, error) { return p.f(n, b) }

// Names of the built-in penalties.
const (
	NameATOPenultimate           = "ato-penultimate"
	NameATOAll                   = "ato-all"
	NameATOPenultimateNormalized = "ato-penultimate-normalized"
	NameATOOutput                = "ato-output"
	NameDPMean                   = "dp-mean"
	NameEOMean                   = "eo-mean"
	NameDPMV                     = "dp-mv"
	NameEOMV                     = "eo-mv"
	NameDPRate                   = "dp-rate"
	NameEORate                   = "eo-rate"
)

// BuiltinNames lists the names Builtin accepts.
var BuiltinNames = []string{NameATOPenultimate, NameATOAll, NameATOPenultimateNormalized, NameATOOutput,
	NameDPMean, NameEOMean, NameDPMV, NameEOMV, NameDPRate, NameEORate}

// ATOPenultimate is U = |τ̂(h^(L−1))|, the ATO of the sensitive attribute on
// the last hidden layer's pre-activations, summed over units (docs/method.md §3).
var ATOPenultimate Penalty = atoPenalty{all: false}

// ATOAll is U = Σ_l |τ̂(h^(l))| over every hidden layer (docs/method.md §3).
var ATOAll Penalty = atoPenalty{all: true}

type atoPenalty struct{ all bool }

func (p atoPenalty) Name() string {
	if p.all {
		return NameATOAll
	}
	return NameATOPenultimate
}

// Version is empty: the built-ins are identified by fp's own version.
func (atoPenalty) Version() string { return "" }

// Inputs is the ATO contrast.
func (atoPenalty) Inputs() []train.Input { return []train.Input{Contrast} }

// ATOAllLayers says which hidden layers the penalty covers (all, or the last
// one). It is how the handwritten engine recognises the built-in ATO
// penalties, whose gradient it knows by hand (backprop.ATOPenalty).
func (p atoPenalty) ATOAllLayers() bool { return p.all }

// Builtin returns a built-in penalty by name, dp-rate and eo-rate at the
// default decision threshold (fairness.DefaultThreshold).
func Builtin(name string) (Penalty, error) {
	return BuiltinAt(name, fairness.DefaultThreshold)
}

// BuiltinAt returns a built-in penalty by name, the penalties that decide
// (dp-rate, eo-rate) at decision threshold t in (0, 1); the others do not
// read t.
func BuiltinAt(name string, t float64) (Penalty, error) {
	switch name {
	case NameATOPenultimate:
		return ATOPenultimate, nil
	case NameATOAll:
		return ATOAll, nil
	case NameATOPenultimateNormalized:
		return ATOPenultimateNormalized, nil
	case NameATOOutput:
		return ATOOutput, nil
	case NameDPMean:
		return DPMean, nil
	case NameEOMean:
		return EOMean, nil
	case NameDPMV:
		return DPMV, nil
	case NameEOMV:
		return EOMV, nil
	case NameDPRate:
		return DPRate(t)
	case NameEORate:
		return EORate(t)
	}
	return nil, fmt.Errorf("penalty %q: want one of %s", name, strings.Join(BuiltinNames, ", "))
}
