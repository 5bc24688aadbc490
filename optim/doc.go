// Package optim holds the optimizer and the learning-rate schedule that both
// engines are composed with: Adam exactly as PyTorch computes it, over flat
// float64 parameter slices with no allocation per step, and a
// ReduceLROnPlateau scheduler whose state (best value, bad epochs) is explicit.
//
// The engines only compute gradients; keeping the update here means the graph
// and handwritten engines apply the very same arithmetic to the same numbers.
package optim
