// Package conditionedtest turns a trained run folder into the run folder of
// one λ-conditioned network per split (docs/method.md §12), records and
// all, so that the code which reads such runs can be tested on one without
// training it.
package conditionedtest
