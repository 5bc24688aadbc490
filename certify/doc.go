// Package certify gives certified picks (fp pick --confidence): the
// candidate a stated requirement would choose among those whose
// requirement holds, for their fixed networks, with probability at least
// a confidence C over the sampling of the rows that decide.
//
// The candidates are tested one after another in a fixed order along λ
// (Learn-then-Test's fixed-sequence testing): each test compares a
// one-sided bootstrap confidence bound at level C, from the deciding rows
// (the selection rows, or the test rows), with the requirement, and the
// sequence stops at the first candidate whose bound does not meet it. The
// order is set before any row is looked at, so the chance that any
// certified candidate breaks the requirement in the population is at most
// 1 − C, however many candidates there are, and whichever of the certified
// ones is then chosen. docs/method.md §8.7 states the guarantee and what it
// does not cover.
package certify
