// Package graph is fp's Gorgonia engine: it assembles a network (layers), a
// risk (losses), a penalty (penalties) and a scalarization (scalarize, as
// ObjectiveNode) into one graph, differentiates it, and trains it through the
// train.Trainer contract that train.Fit drives. Custom risks and penalties
// written as graph code (losses.NewRisk, penalties.NewPenalty) work here and
// only here: Engine.Check accepts any losses.Risk and penalties.Penalty, and
// the batch's input columns a penalty declares become vectors of the graph.
//
// # Built once, compiled once
//
// New builds the graph for one spec (architecture, batch size, objective
// with its λ and standardization constants baked in as constants) and
// compiles it into two programs with G.CompileFunction, each pruned to what
// its outputs need:
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
//   - A node's Value() after a run may have been overwritten by a later
//     instruction reusing its register: every value read out (objective, R,
//     U, gradients, logits) goes through G.Read, which copies it as soon as it
//     is computed straight into the trainer's own buffers.
//   - A tape machine does nothing on its next RunAll unless it is rewound.
//     Its Reset rewinds it but also drops every register, so each step
//     would allocate every intermediate tensor again (12 MB a step for a
//     10×32 network on batches of 1000). The trainer rewinds the program
//     counter alone, so each instruction writes into the tensor it made the
//     step before; that reuse is switched on only after a probe run shows it
//     gives the same outputs to the last bit as fresh registers, and falls
//     back to Reset otherwise (see machine.go).
//   - The machines are made with an empty watch list, which turns the
//     per-instruction debug-watch lookups into no-ops.
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
// The default build is pure Go (gonum's BLAS), and one step takes about
// 0.2 ms for a 4×4 network on batches of 150 and 12 ms for a 10×32 network
// on batches of 1000 (BenchmarkGraphStep, one core). Building with the blas
// tag sends the matrix products to OpenBLAS through cgo, about 2.7× faster
// for the larger network:
//
//	apt-get install libopenblas-dev
//	go build -tags blas ./...
//
// BLAS reports which one a binary uses.
package graph
