// Package runplot draws the figures of run folders and records files as
// fp plot does: it reads the records (and, for score distributions, the
// stored networks), chooses what to show and writes the figure with
// package report.
package runplot
