// Package choose picks one candidate of a fairness–accuracy front by a
// stated requirement: a bound on unfairness, risk or accuracy, or the
// front's point of highest trade-off.
//
// It works on plain numbers (risk, unfairness, accuracy per candidate), so
// it serves test metrics today and validation metrics wherever a run keeps
// them: the caller decides which numbers the choice is made on.
package choose
