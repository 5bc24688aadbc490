// Package records defines the record of one trained candidate (docs/method.md §9) and
// its JSON Lines storage: an append that is atomic with respect to crashes,
// and a reader that reports and skips a torn last line instead of failing.
// Grouping splits records by method, penalty, λ or split for comparison;
// which files of a folder hold records, and reading several at once, is
// package runfolder's (runfolder.ReadAll).
// Decide is the one rule for which of a record's metrics decide fronts and
// picks (those of the test or of the selection rows) and which are shown.
package records
