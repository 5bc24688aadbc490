// Package progress shows a sweep's progress as it runs: a bar with the
// candidates done, the time left and the best test risk so far on a
// terminal, one log line per candidate otherwise. A *Sweep is an
// experiments.Observer (and PropensityObserver and OverlapObserver) to hand
// to experiments.NewRunner; it does not import experiments, as the types
// those interfaces take are package records' and runfolder's.
package progress
