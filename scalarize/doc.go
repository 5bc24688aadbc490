// Package scalarize turns the two objectives, risk R and unfairness U, into
// the one scalar a network is trained on (SPEC §3): the min–max
// standardizer, the Chebyshev and linear scalarizations (as numbers here and
// as Gorgonia graph nodes), and the λ grids.
package scalarize
