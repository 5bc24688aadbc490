// Package choose picks one candidate of a fairness–accuracy front by a
// stated requirement: a bound on unfairness, risk or accuracy, or the
// front's point of highest trade-off (its best-balanced point where none
// stands out).
//
// It works on plain numbers (risk, unfairness, accuracy per candidate), so
// it serves test metrics today and validation metrics wherever a run keeps
// them: the caller decides which numbers the choice is made on. Pick does
// the same over the records of sweeps (Candidates, from the records
// runfolder.ReadAll reads), on the rows records.Decide names.
package choose
