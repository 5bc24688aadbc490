// Package train trains one network on one objective: the engine-neutral
// contract every engine satisfies (Engine, Trainer, Spec), the mini-batch it
// is fed (Batch), and Fit, the epoch loop that composes a trainer with Adam
// and the ReduceLROnPlateau schedule.
//
// The contract knows no engine's types. A risk or penalty is a Term: a
// name, the version of its code and the per-row Inputs it reads; the batch
// computes those input columns generically, so a penalty with a new per-row
// input touches only the penalty and the engines that implement it. An
// engine says up front what it can train (Engine.Check, as gonum's
// optimize.Method says what it Uses) and refuses the rest with an
// *UnsupportedError.
//
// Fit owns all randomness of a run (batch order and dropout masks come from
// the generator it is given), and the optimizer lives here rather than in the
// engines, so two engines fed the same generator see the same batches, the
// same masks and the same update rule. The dropout probability is the
// trainer's Spec.Dropout, read by both the trainer and the loop.
package train
