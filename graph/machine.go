package graph

import (
	"fmt"
	"math"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// machine runs the part of a graph that computes a set of output nodes,
// again and again, without Gorgonia's tape machine.
//
// It walks the nodes in topological order and calls each node's op on the
// values of its children. Every node has a value of its own, kept between
// runs: an op that can write into a given value (Gorgonia's UsePreallocDoer)
// writes into the one it produced last time, so a step allocates little,
// and the run happens on the calling goroutine, with no goroutine started and
// no OS thread locked per run (the tape machine does both). Leaves (inputs,
// parameters) are read from their nodes on every run, so refilling their
// backing slices or updating parameters in place is seen by the next run.
//
// Reusing values relies on each op writing all of its output. That is true
// of Gorgonia's ops, but a custom op may not honour it, so reuse is switched
// on only after a probe: the first run is made with fresh values, then
// repeated on the same inputs with the values kept; only if every output
// agrees to the last bit is reuse kept. Otherwise the machine makes fresh
// values on every run for good.
type machine struct {
	steps []step
	leaf  []leaf
	vals  []G.Value     // per node of the program, in steps' numbering
	idx   map[int64]int // node ID → index in vals
	outs  []output

	reuse  bool // write into last run's values
	probed bool
	// record appends every output's value (the probe compares them).
	record func([]float64) []float64
	a, b   []float64
}

// fastOps switches the fast paths of fastops.go on (tests compare with
// Gorgonia's own ops by switching them off).
var fastOps = true

// step runs one op node.
type step struct {
	node *G.Node
	op   G.Op
	pd   G.UsePreallocDoer // nil: the op always allocates
	fast fastFn            // nil: no fast path (fastops.go)
	args []int             // value indices of the children, in order
	in   []G.Value         // reused argument slice
	out  int
	// fresh marks an op whose result shares memory with an argument (a
	// reshape, say): writing into it would overwrite the argument.
	fresh bool
}

// leaf is a node whose value is bound, not computed.
type leaf struct {
	node *G.Node
	out  int
}

// output copies a computed value to where the trainer reads it.
type output struct {
	idx     int
	dst     *G.Value
	src, to view
}

// newMachine prepares the program computing outs[i] into *dsts[i]. A *dst
// that holds a float64 tensor of the right size is filled in place (the
// trainer's gradient buffers); any other is replaced by a copy.
func newMachine(g *G.ExprGraph, outs G.Nodes, dsts []*G.Value, record func([]float64) []float64) (*machine, error) {
	sub := g.ExactSubgraphRoots(outs...)
	sorted, err := G.Sort(sub)
	if err != nil {
		return nil, fmt.Errorf("ordering the program: %w", err)
	}
	m := &machine{record: record, reuse: true}
	idx := make(map[int64]int, len(sorted))
	for i := len(sorted) - 1; i >= 0; i-- { // Sort puts the roots first
		n := sorted[i]
		k := len(idx)
		idx[n.ID()] = k
		op := n.Op()
		if op == nil {
			if n.Value() == nil {
				return nil, fmt.Errorf("node %v has neither an op nor a value", n)
			}
			m.leaf = append(m.leaf, leaf{node: n, out: k})
			continue
		}
		s := step{node: n, op: op, out: k}
		s.pd, _ = op.(G.UsePreallocDoer)
		if fmt.Sprintf("%T", op) == "gorgonia.sliceIncrOp" {
			// Its UsePreallocDo adds into the value without zeroing it
			// first (Gorgonia v0.9.18), so a reused value accumulates.
			s.pd = nil
		}
		var ch []*G.Node
		children := g.From(n.ID())
		for children.Next() {
			c := children.Node().(*G.Node)
			j, ok := idx[c.ID()]
			if !ok {
				return nil, fmt.Errorf("node %v is ordered before its input %v", n, c)
			}
			s.args = append(s.args, j)
			ch = append(ch, c)
		}
		if fastOps {
			s.fast = fastOp(n, ch)
		}
		s.in = make([]G.Value, len(s.args))
		m.steps = append(m.steps, s)
	}
	m.vals = make([]G.Value, len(idx))
	m.idx = idx
	for i, n := range outs {
		m.outs = append(m.outs, output{idx: idx[n.ID()], dst: dsts[i]})
	}
	return m, nil
}

// run runs the program once; the outputs are in their destinations afterwards.
func (m *machine) run() error {
	if !m.probed {
		return m.probe()
	}
	return m.exec(m.reuse)
}

// exec runs every step, writing into last run's values if reuse is set.
func (m *machine) exec(reuse bool) error {
	for _, l := range m.leaf {
		m.vals[l.out] = l.node.Value()
	}
	for i := range m.steps {
		s := &m.steps[i]
		for j, a := range s.args {
			s.in[j] = m.vals[a]
		}
		var v G.Value
		var err error
		prev := m.vals[s.out]
		if !reuse {
			prev = nil
		}
		ok := false
		if s.fast != nil {
			v, ok = s.fast(prev, s.in)
		}
		if ok {
			// computed by the fast path
		} else if reuse && prev != nil && s.pd != nil && !s.fresh {
			if v, err = s.pd.UsePreallocDo(prev, s.in...); err != nil {
				// As the tape machine does; and not tried again (scalar
				// results, for one, cannot be written into).
				s.pd = nil
				v, err = s.op.Do(s.in...)
			}
		} else {
			v, err = s.op.Do(s.in...)
		}
		if err != nil {
			return fmt.Errorf("%v: %w", s.node, err)
		}
		if !ok && !s.fresh && sharesMemory(v, s.in) { // fast paths own their values
			s.fresh = true
		}
		m.vals[s.out] = v
		clear(s.in) // the values stay reachable through vals alone
	}
	for i := range m.outs {
		o := &m.outs[i]
		if err := o.deliver(m.vals[o.idx]); err != nil {
			return err
		}
	}
	return nil
}

// probe makes the first run with fresh values and repeats it with the
// values kept, keeping reuse only if both give the same outputs.
func (m *machine) probe() error {
	m.probed = true
	if err := m.exec(false); err != nil {
		return err
	}
	m.a = m.record(m.a[:0])
	err := m.exec(true)
	if err == nil {
		m.b = m.record(m.b[:0])
		if sameBits(m.a, m.b) {
			m.a, m.b = nil, nil
			return nil
		}
	}
	// Fresh values for good, and the run redone that way so that the
	// outputs are right.
	m.reuse = false
	m.a, m.b = nil, nil
	return m.exec(false)
}

// reuses reports whether the machine keeps its values between runs.
func (m *machine) reuses() bool { return m.probed && m.reuse }

// deliver copies v into *dst.
func (o *output) deliver(v G.Value) error {
	switch s := v.(type) {
	case *G.F64:
		if d, ok := (*o.dst).(*G.F64); ok {
			*d = *s
		} else {
			c := *s
			*o.dst = &c
		}
		return nil
	case tensor.Tensor:
		size := s.Shape().TotalSize()
		if src, ok := o.src.of(s, size); ok {
			if to, ok := o.to.of(*o.dst, size); ok {
				copy(to, src)
				return nil
			}
		}
		*o.dst = s.Clone().(tensor.Tensor)
		return nil
	}
	return fmt.Errorf("output %v (%T) is not a float64 value", v, v)
}

// sharesMemory reports whether the tensor v uses the memory of one of args.
func sharesMemory(v G.Value, args []G.Value) bool {
	t, ok := v.(tensor.Tensor)
	if !ok || t.Uintptr() == 0 {
		return false
	}
	lo, hi := t.Uintptr(), t.Uintptr()+uintptr(t.MemSize())
	for _, a := range args {
		at, ok := a.(tensor.Tensor)
		if !ok {
			continue
		}
		alo, ahi := at.Uintptr(), at.Uintptr()+uintptr(at.MemSize())
		if lo < ahi && alo < hi {
			return true
		}
	}
	return false
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// freshValues makes the machine compute fresh values on every run, as the
// probe's fallback does.
func (m *machine) freshValues() { m.probed, m.reuse = true, false }

// value returns node n's value from the last run, if the program computes it.
func (m *machine) value(n *G.Node) (G.Value, bool) {
	i, ok := m.idx[n.ID()]
	if !ok || m.vals[i] == nil {
		return nil, false
	}
	return m.vals[i], true
}
