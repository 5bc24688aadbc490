// Package layers holds the Gorgonia building blocks of fp's networks: a
// fully connected layer (Dense), dropout as a product with a mask input
// (Dropout), the multilayer perceptron (MLP) that exposes every hidden
// pre-activation, which the penalties read, and the conditioning network of
// a λ-conditioned MLP (FiLM), whose λ is an input of the graph.
//
// The building blocks take their weights from a model.Params drawn by the
// seeded model.Init and never use Gorgonia's initialisers, which seed
// themselves from the clock. Every parameter node is bound to a tensor backed
// by a fresh slice, so no value is ever shared between graphs (sharing one
// makes concurrently running graphs fail).
//
// Dropout is deliberately not Gorgonia's Dropout op: in Gorgonia v0.9.18 its
// backward pass divides by p where the forward pass multiplied by 1/(1−p)
// (a gradient 4× too large at p = 0.2), it draws its masks from a clock-seeded
// generator, and its train/eval switch is shared by every machine on a graph.
// A mask input filled by the caller from a seeded generator has none of
// these problems.
package layers
