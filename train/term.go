package train

import (
	"errors"
	"fmt"

	"github.com/fpareto/fp/scalarize"
)

// Input is a per-row column of a mini-batch that a term reads besides the
// rows' features, labels, groups, overlap weights and SW. A term that needs a
// new per-row quantity declares an Input; the batch computes it, and only the
// engines that implement the term read it.
type Input struct {
	// Name keys the column (Batch.Column). Inputs with the same name must
	// compute the same column: a batch keeps the first.
	Name string
	// Fill writes the column's values on the batch's real rows into
	// col (len(col) = b.N), from b.Y, b.A and b.W of those rows. Padding
	// rows stay zero; when b.Complete is false a penalty's input should be
	// zero too, so that the penalty vanishes on that batch.
	Fill func(b *Batch, col []float64)
}

// Term describes a risk R or a penalty U to the engines without saying how
// any engine computes it: its name, the version of its code and the per-row
// inputs it reads. Engines recognise the terms they implement (the graph
// engine any term with a graph form, the handwritten engine its built-ins)
// and refuse the rest in Engine.Check.
type Term interface {
	// Name identifies the term in records (e.g. "ato-penultimate").
	Name() string
	// Version identifies the term's code; it enters a sweep's digest, so
	// change it whenever the term computes something else.
	Version() string
	// Inputs are the per-row batch columns the term reads.
	Inputs() []Input
}

// GroupTerm is a term computed over the R groups of a sensitive attribute
// with R values (docs/method.md §3.3) instead of over a 0/1 attribute.
// The data it is trained on must have exactly R groups (Data.GroupCount).
type GroupTerm interface {
	Term
	// Groups is R ≥ 2.
	Groups() int
}

// TermGroups is the number of groups t compares: a GroupTerm's R, and 2 for
// any other term (a 0/1 attribute).
func TermGroups(t Term) int {
	if g, ok := t.(GroupTerm); ok {
		return g.Groups()
	}
	return 2
}

// Requirements are what a training job asks of an engine, known before any
// data is read: the penalty and the risk its networks are trained on, and
// the scalarization that combines them.
type Requirements struct {
	// Penalty is U; nil when no network of the job uses a penalty.
	Penalty Term
	// Risk is R; nil means the built-in binary cross-entropy.
	Risk Term
	// Scalarization combines R̃ and Ũ; nil when no network of the job is
	// trained on a scalarized objective.
	Scalarization scalarize.Scalarization
	// PenaltyBeforeFiLM is set when the penalty is to read a conditioned
	// network's hidden layers before the modulation (Spec.FiLMPenalty).
	PenaltyBeforeFiLM bool
}

// ErrUnsupported is wrapped by the errors of Engine.Check (and of
// NewTrainer) for a term an engine cannot train.
var ErrUnsupported = errors.New("not supported by this engine")

// UnsupportedError says that an engine cannot train a term.
type UnsupportedError struct {
	Engine string // the engine's name
	Kind   string // "penalty", "risk", "scalarization" or "penalty position"
	Term   string // the term's name
	Hint   string // what would work instead; may be empty
}

func (e *UnsupportedError) Error() string {
	s := fmt.Sprintf("the %s engine cannot train the %s %q", e.Engine, e.Kind, e.Term)
	if e.Hint != "" {
		s += ": " + e.Hint
	}
	return s
}

// Unwrap makes errors.Is(err, ErrUnsupported) true.
func (e *UnsupportedError) Unwrap() error { return ErrUnsupported }

// Inputs is the union of the inputs of the spec's penalty (when its
// objective uses one) and risk, by name, penalty first.
func (s Spec) Inputs() []Input {
	var in []Input
	seen := map[string]bool{}
	add := func(t Term) {
		if t == nil {
			return
		}
		for _, i := range t.Inputs() {
			if !seen[i.Name] {
				seen[i.Name] = true
				in = append(in, i)
			}
		}
	}
	if s.Objective.UsesPenalty() {
		add(s.Penalty)
	}
	add(s.Risk)
	return in
}

// Requirements are the spec's terms as Engine.Check takes them (the
// penalty even when the objective does not use it: an engine refuses a
// spec with a penalty it cannot train).
func (s Spec) Requirements() Requirements {
	return Requirements{Penalty: s.Penalty, Risk: s.Risk, Scalarization: s.Objective.Scalar(),
		PenaltyBeforeFiLM: s.FiLMPenalty == PenaltyBeforeFiLM}
}
