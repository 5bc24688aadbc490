// Package propensity is the fitted propensity score ê(x) = P(a = 1 | x)
// that the overlap weights of docs/method.md §3 are built from: a small
// network trained on most of the training rows (docs/method.md §4), then a
// single temperature T on its logit fitted on the rows held out
// (temperature scaling, Guo et al. 2017), with its overlap diagnostics.
// Training the network is package propensityfit's, so that the code that
// reads a fitted model (a run folder's reader, a report) builds without the
// training loop and the optimizer.
//
// Overlap weights are w = 1 − ê for a = 1 and ê for a = 0, so every group
// contrast fp penalises or reports is weighted by terms of the shape ê(1 − ê);
// they target the population where the two groups overlap. A network that is
// over- or under-confident moves ê towards 0 and 1 (or towards ½) and so
// shifts that population, which is why the weights come from the calibrated
// score sigmoid(logit/T) rather than from the raw network output.
//
// Diagnose summarises how well the groups overlap under the calibrated
// score (quantiles of ê, the share of extreme rows, whose propensity for a
// group is under a fiftieth of the group's share, and the effective sample
// size of the overlap weights in each group). One rule (docs/method.md
// §4.3) judges the result for two groups and for R: Poor and Unreliable
// (UnreliableGroups, UnreliableRows for a file of predictions), and Causes,
// which puts what they find down to a group too small to estimate or to the
// columns. Predictors names the input columns that go most with a, and
// WithTarget what leaving each out would cost, for a warning a user can act
// on.
//
// A sensitive attribute of R ≥ 3 groups is the same network with R
// outputs, one logit per group (docs/method.md §4.4; model.Params.Outputs):
// Multinomial holds it, propensityfit.FitMultinomial trains it by the same
// recipe and in the same loop, and FitSoftmaxTemperature fits one
// temperature on its logits; Multinomial's Predict gives R calibrated
// propensities per row (a softmax, whose two-group case over the logits
// (0, z) is the sigmoid of Model). OverlapWeights gives the
// generalised overlap weights h(x)/e_a(x), h = 1/Σ_r 1/e_r (Li and Li
// 2019), DiagnoseGroups and UnreliableGroups the overlap diagnostics and
// the reliability rule per group. Two groups keep the one-logit Model.
//
// The package knows nothing about λ, objectives, engines or fronts: a Model's
// Predict gives clipped, calibrated scores.
package propensity
