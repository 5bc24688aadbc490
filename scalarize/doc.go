// Package scalarize turns the two objectives, risk R and unfairness U, into
// the one scalar a network is trained on (docs/method.md §3): the min–max
// standardizer, the Chebyshev and linear scalarizations as plain numbers
// with their gradients, and the λ grids. The graph engine builds the same
// arithmetic as Gorgonia nodes (graph.ObjectiveNode).
package scalarize
