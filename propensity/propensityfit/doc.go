// Package propensityfit trains the propensity models of package propensity
// (docs/method.md §4): Fit trains the network of two groups with any
// train.Engine and fits its temperature on held-out rows; FitMultinomial
// trains the softmax network of R ≥ 3 groups with a loop and a handwritten
// gradient of its own (the engines train one logit) and fits its
// temperature. Config is the model and how it is trained, DefaultConfig
// docs/method.md §4's.
package propensityfit
