// Package reductions is the grid search of the reductions approach to fair
// classification (Agarwal et al. 2018, "A Reductions Approach to Fair
// Classification"; docs/method.md §13.2), as Fairlearn's GridSearch with a
// DemographicParity or EqualizedOdds moment computes it: for a vector of
// Lagrange multipliers, the cost-sensitive problem whose solution is the
// Lagrangian's best response, given as relabelled rows with weights that
// any weighted classifier trains on; and Fairlearn's grid of multipliers.
package reductions
