// Package records defines the record of one trained candidate (SPEC §9) and
// its JSON Lines storage: an append that is atomic with respect to crashes,
// and a reader that reports and skips a torn last line instead of failing.
package records
