// Package enginebench times fp's two training engines against each other:
// the Gorgonia graph engine and the handwritten backprop engine take the
// same training steps (the same initial network, batches and dropout masks,
// Adam) on a built-in dataset, and Run reports the time and the heap
// allocations per step of each. `fp bench` prints its results.
//
// The engines run one after the other, never at once, so each has the
// machine to itself; the number of threads each may use is GOMAXPROCS,
// which the results record. Each figure is measured several times, the
// engines taking turns, and reported as the median with the range of the
// measurements; Warnings flags those too spread to trust.
//
// Sweep times throughput instead: many networks, each built and trained for
// a number of steps, taken by several workers at once as `fp front` trains
// them, against the same networks on one worker (`fp bench --workers N`).
package enginebench
