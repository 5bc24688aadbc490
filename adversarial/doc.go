// Package adversarial trains the adversarial baseline of SPEC §6 (Louppe et
// al.): a classifier trained through an adversary that predicts the
// sensitive attribute from its output, with the adversary's loss as the
// classifier's penalty.
//
// The adversary's penalty is graph code (Penalty), so the classifier needs
// an engine that differentiates graph code; Requirements states what it
// asks of that engine, for an up-front Engine.Check. The adversary itself
// is a small network on the built-in binary cross-entropy, trained by the
// handwritten engine.
package adversarial
