// Package scalarize turns the two objectives, risk R and unfairness U, into
// the one scalar a network is trained on (docs/method.md §3): the min–max
// standardizer, the Scalarization contract and the built-in scalarizations
// (Chebyshev, linear, augmented Chebyshev) as plain numbers with their
// gradients, and the λ grids. Package graph/scalarizations writes the
// same arithmetic as Gorgonia nodes for the graph engine.
package scalarize
