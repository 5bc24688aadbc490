// Package train trains one network on one objective: the contract every
// engine satisfies (Engine, Trainer), the mini-batch it is fed (Batch), and
// Fit, the epoch loop that composes a trainer with Adam and the
// ReduceLROnPlateau schedule.
//
// Fit owns all randomness of a run (batch order and dropout masks come from
// the generator it is given), and the optimizer lives here rather than in the
// engines, so two engines fed the same generator see the same batches, the
// same masks and the same update rule.
package train
