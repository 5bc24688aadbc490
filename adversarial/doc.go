// Package adversarial trains the adversarial baseline of docs/method.md §6 (Louppe et
// al.): a classifier trained through an adversary that predicts the
// sensitive attribute from its output, with the adversary's loss as the
// classifier's penalty.
//
// The adversary's penalty is graph code (Penalty), so the classifier needs
// an engine that differentiates graph code; Requirements states what it
// asks of that engine, for an up-front Engine.Check. The adversary itself
// is a small network on the built-in binary cross-entropy, trained by the
// handwritten engine.
//
// Train follows Louppe et al.'s reference implementation (VersionLouppe):
// the classifier keeps one Adam from pre-training to the last round, and
// the adversary learns, mini-batch by mini-batch, from the classifier's
// training-mode output (dropout on, fresh masks). VersionEvalFreshAdam, the
// earlier schedule, is kept for comparison.
package adversarial
