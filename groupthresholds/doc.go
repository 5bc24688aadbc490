// Package groupthresholds fits group-specific decision thresholds to a
// network's probabilities (Hardt, Price & Srebro 2016; docs/method.md
// §13.1): per group a rule that selects a row by its probability, trading
// the error of the decisions against their demographic-parity or
// equalized-odds gap with a weight λ, randomized where equalized odds
// needs it. The rules are model.GroupThresholds, stored in the candidate's
// network file.
package groupthresholds
