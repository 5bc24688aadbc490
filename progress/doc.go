// Package progress shows a sweep's progress as it runs: a bar with the
// candidates done, the time left and the best test risk so far on a
// terminal, one log line per candidate otherwise. A *Sweep is an
// experiments.Observer (and PropensityObserver) to hand to
// experiments.NewRunner.
package progress
