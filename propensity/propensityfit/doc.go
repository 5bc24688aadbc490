// Package propensityfit trains the propensity models of package propensity
// (docs/method.md §4): one network (model.Params) with one output for two
// groups or R outputs for R ≥ 3, trained in one loop (train.Fit) and then
// calibrated by one temperature on held-out rows. Fit trains the one-logit
// network with any train.Engine; FitMultinomial trains the R-output one,
// whose multinomial cross-entropy gradient it computes itself (the engines
// train one logit). Config is the model and how it is trained,
// DefaultConfig docs/method.md §4's.
package propensityfit
