// Package penalties writes unfairness penalties U as Gorgonia graph code for
// the graph engine: the built-in ATO penalties (ATOPenultimate, ATOAll,
// ATOPenultimateNormalized, ATOOutput), the demographic-parity and
// equalized-odds penalties on the predicted probability (DPMean, EOMean,
// DPMV, EOMV) and their forms for a sensitive attribute of R groups
// (ForGroups), the graph view of the network and the batch they read (Net,
// BatchNodes), the per-row input columns they declare (Contrast,
// Group1Mean, Group0Mean, GroupMean, GroupContrast, RowGroupMean, RowMean,
// GroupShare) and NewPenalty, the extension point for a penalty of one's
// own.
//
// Every Penalty is also a train.Term: its name, the version of its code and
// its inputs are all the trainer contract sees of it. The handwritten engine
// recognises the built-ins by their marker methods (ATOAllLayers,
// ATOPenultimateNormalized, ATOOutput, EqualizedOddsMean, MeanVariance) and
// refuses any other penalty before training starts.
//
// The built-ins, with τ̂ the overlap-weighted ATO estimate on the mini-batch
// (docs/method.md §3) and h^(l) the pre-activation of hidden layer l:
//
//   - ato-penultimate: Σ_u |τ̂(h_u^(L−1))|.
//   - ato-all: Σ_l Σ_u |τ̂(h_u^(l))|.
//   - ato-penultimate-normalized: Σ_u |τ̂(h_u^(L−1))| / σ'_u, with σ_u the
//     unweighted standard deviation of unit u over the batch's rows and
//     σ'_u = √(σ_u² + ε²), ε = NormalizedEps = 1e-8, the small-σ guard that
//     keeps value and gradient finite for a constant unit. A ReLU network
//     can move scale from the last hidden layer into the output layer
//     without changing a prediction; that lowers ato-penultimate but not
//     this one.
//   - ato-output: |τ̂(σ(z))|, the ATO of the predicted probability, the
//     quantity the test metric ato measures.
//   - dp-mean: |mean σ(z) over a = 1 − mean σ(z) over a = 0|, plain means:
//     ato-output with the unweighted contrast DPContrast.
//   - eo-mean: the larger over y ∈ {0, 1} of the same gap within the rows
//     with label y.
//   - dp-mv: the mean-variance index of fairness.DP on the batch with its
//     indicator smoothed by a sigmoid of temperature MVTemperature = 0.02;
//     O(n²) per batch of n rows.
//   - eo-mv: the larger over y of that index within the rows with label y,
//     as fairness.EO.
//
// For R groups, ForGroups gives each its R-group form: |τ̂_u| becomes
// D_u = max_r m_r,u − min_r m_r,u, the largest difference between the
// overlap-weighted group means of unit u (docs/method.md §3.3); at R = 2 it
// is |τ̂_u| again. dp-mean and eo-mean take the same spread of plain group
// means; dp-mv and eo-mv sum their index over the R groups.
package penalties
