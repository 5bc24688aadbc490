// Package graph is fp's Gorgonia engine: it assembles a network (layers), a
// risk (losses), a penalty (penalties) and a scalarization (graph/scalarizations,
// after the standardization, as ObjectiveNode) into one graph, differentiates
// it, and trains it through the train.Trainer contract that train.Fit drives.
// Custom risks, penalties and scalarizations written as graph code
// (losses.NewRisk, penalties.NewPenalty, scalarizations.New) work here and
// only here: Engine.Check accepts any losses.Risk, penalties.Penalty and
// scalarizations.Scalarization, and the batch's input columns a penalty
// declares become vectors of the graph.
//
// # Built once, compiled once
//
// New builds the graph for one spec (architecture, batch size, objective
// with its standardization constants baked in as constants, and λ as a
// scalar input that SetLambda rewrites) and compiles it into two programs,
// each pruned to what its outputs need:
//
//   - the training program: the objective, R, U and the gradient with
//     respect to every parameter, in training mode (dropout masks applied);
//   - the evaluation program: the logits of a second input through the same
//     parameter nodes without dropout, used by Predict.
//
// The evaluation program has its own input, so predicting between training
// steps leaves the training inputs and trajectory untouched. Nothing is
// rebuilt per step: a batch is copied into the slices that back the input
// nodes' values, and the optimizer (in train.Fit) updates the slices backing
// the parameter nodes in place, which the next run reads.
//
// # The λ-conditioned network
//
// For a spec with a conditioning network (spec.FiLM), NewConditioned builds
// it as graph code (layers.FiLM): the encoding of λ is a 1×2 input, and
// every hidden pre-activation z_l of the MLP becomes γ_l(λ) ⊙ z_l + δ_l(λ)
// before ReLU and dropout, in both programs. The penalties read that
// modulated layer (ato-output the output), or, with spec.FiLMPenalty
// "before", the z_l themselves, which only this engine can train: the
// fold has no z_l. The gradient reaches the
// conditioning network's weights through Gorgonia's differentiation, with
// no hand-written chain rule: the handwritten engine folds the modulation
// into the weights instead (train.Folded), and the two are checked against
// each other (docs/method.md §12).
//
// # Padding
//
// Both programs have a fixed batch size. A short batch is padded with rows
// whose weights are zero in every per-row input (train.Batch does this), which
// is exact: padded and unpadded batches give the same loss and gradient.
// Predict runs any number of rows in chunks of the batch size, padding the
// last one.
//
// # Gorgonia pitfalls avoided (v0.9.18)
//
//   - G.Dropout's gradient is 4× too large at p = 0.2 and its masks are
//     clock-seeded: dropout is a product with a mask input filled by the
//     caller from a seeded generator (layers.Dropout).
//   - Gorgonia's weight initialisers are clock-seeded: parameters come from
//     model.Init and are bound with fresh slices, never shared between graphs.
//   - Gorgonia's tape machine starts a goroutine and locks an OS thread on
//     every run, reuses registers so that a node's Value() may be
//     overwritten later in the same run, and must be rewound (Reset drops
//     every register, so each step reallocates every intermediate tensor).
//     The trainer runs neither it nor G.Read: its own executor (machine.go)
//     walks the program's nodes in topological order on the calling
//     goroutine, gives every node a value of its own kept from run to run,
//     and copies the outputs (objective, R, U, gradients, logits) into the
//     trainer's buffers. Reusing values is switched on only after a probe
//     run shows it gives the same outputs to the last bit as fresh values.
//   - Gorgonia's ops allocate on every call (iterators, shape copies, scalar
//     results) and its matrix products go through gonum's Dgemm, which
//     starts goroutines. The ops of an MLP step (products, elementwise
//     arithmetic and comparisons, row sums, reshapes, broadcasts) have fast
//     paths that write into last run's value (fastops.go); other ops, a
//     custom penalty's included, run as Gorgonia implements them.
//   - BindDualValues accumulates gradients across runs: not used; gradients
//     are read from the gradient nodes.
//   - The Chebyshev maximum is 0.5·(a+b+|a−b|) on scalar nodes (Max double
//     counts ties, MaxBetween rejects scalars, reshaping scalars breaks the
//     backward pass); BCE is softplus(z) − y·z from logits.
//   - Building graphs concurrently is a data race inside Gorgonia: New holds
//     a package lock while building and compiling. Trainers, once built, run
//     concurrently without sharing anything.
//   - Gorgonia merges input nodes of equal name and shape: every input has its
//     own name, and layers.Input checks it.
//   - G.Grad refuses parameters the objective does not depend on (the output
//     layer, for a penalty alone): their gradient is left at zero.
//
// A panic inside Gorgonia or inside user graph code while building becomes
// an error from New.
//
// # Speed
//
// The matrix products of the fast paths use fp's AVX2/FMA kernel
// (internal/gemm) on CPUs that have it; a step then takes about twice the
// CPU time of the handwritten engine's for a 4×4 network on batches of 150,
// and under 2× for a 10×32 network on batches of 1000, with 24 allocations
// (BenchmarkStep in package backprop, one core). Elsewhere, and with the
// noasm tag, the wide products go through gonum's BLAS; building with the
// blas tag sends them, and the products the fast paths leave to Gorgonia,
// to OpenBLAS through cgo instead:
//
//	apt-get install libopenblas-dev
//	go build -tags blas ./...
//
// BLAS reports which BLAS a binary uses.
package graph
