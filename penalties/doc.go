// Package penalties writes unfairness penalties U as Gorgonia graph code for
// the graph engine: the built-in ATO penalties (ATOPenultimate, ATOAll,
// ATOPenultimateNormalized, ATOOutput) and their forms for a sensitive
// attribute of R groups (ForGroups), the graph view of the network and the
// batch they read (Net, BatchNodes), the per-row input columns they declare
// (Contrast, Group1Mean, Group0Mean, GroupMean) and NewPenalty, the
// extension point for a penalty of one's own.
//
// Every Penalty is also a train.Term: its name, the version of its code and
// its inputs are all the trainer contract sees of it. The handwritten engine
// recognises the built-in ATO penalties by their marker methods
// (ATOAllLayers, ATOPenultimateNormalized, ATOOutput) and refuses any other
// penalty before training starts.
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
//
// For R groups, ForGroups gives each its R-group form: |τ̂_u| becomes
// D_u = max_r m_r,u − min_r m_r,u, the largest difference between the
// overlap-weighted group means of unit u (docs/method.md §3.3); at R = 2 it
// is |τ̂_u| again.
package penalties
