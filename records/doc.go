// Package records defines the record of one trained candidate (docs/method.md §9) and
// its JSON Lines storage: an append that is atomic with respect to crashes,
// and a reader that reports and skips a torn last line instead of failing.
// ReadAll reads the records of several files and sweep directories at once,
// and Grouping splits them by method, penalty, λ or split for comparison.
// Decide is the one rule for which of a record's metrics decide fronts and
// picks (those of the test or of the selection rows) and which are shown.
package records
