package model

import (
	"fmt"
	"math"
)

// FileFormatThresholds is a network with group-specific decision
// thresholds (docs/method.md §13.1): a fp-network/2 document with a
// "group_thresholds" member. Its probability is the network's; its
// decision reads the row's group as well, so that it cannot decide a row
// without it. Files of this format are refused by fp builds that predate
// it, rather than read as the bare network.
const FileFormatThresholds = "fp-network/4"

// GroupThresholds are the decision rules of a thresholds candidate, one per
// group in code order: a row of group g with probability p is selected with
// probability Rules[g].Decide(p).
type GroupThresholds struct {
	// Constraint is the fairness constraint the rules were fitted against
	// (dp or eo) and Lambda the trade-off weight of the fit.
	Constraint string  `json:"constraint"`
	Lambda     float64 `json:"lambda"`
	// Levels name the groups in code order: the sensitive attribute's raw
	// values coded 0 and 1 for two groups (Schema's), the card's levels for
	// more.
	Levels []string        `json:"levels"`
	Rules  []ThresholdRule `json:"rules"`
}

// A ThresholdRule selects a row of probability p with probability
// Σ_k Weights[k]·1{p ≥ Thresholds[k]}: a mixture of deterministic
// thresholds, randomized where the weights are not 0 or 1. A threshold of
// 0 selects every row, one above 1 none; the weights sum to at most 1.
type ThresholdRule struct {
	Thresholds []float64 `json:"thresholds"`
	Weights    []float64 `json:"weights"`
}

// Decide is the probability that the rule selects a row of probability p.
func (r ThresholdRule) Decide(p float64) float64 {
	var d float64
	for k, t := range r.Thresholds {
		if p >= t {
			d += r.Weights[k]
		}
	}
	return min(max(d, 0), 1)
}

// Validate checks the rules' shapes and weights.
func (g *GroupThresholds) Validate() error {
	if len(g.Rules) < 2 || len(g.Levels) != len(g.Rules) {
		return fmt.Errorf("group thresholds: %d rules for %d groups, want one per group and at least two", len(g.Rules), len(g.Levels))
	}
	for i, r := range g.Rules {
		if len(r.Thresholds) != len(r.Weights) {
			return fmt.Errorf("group thresholds: group %q: %d thresholds, %d weights", g.Levels[i], len(r.Thresholds), len(r.Weights))
		}
		var s float64
		for k, w := range r.Weights {
			if !(w >= 0) || math.IsNaN(r.Thresholds[k]) {
				return fmt.Errorf("group thresholds: group %q: weight %g at threshold %g, want weights ≥ 0", g.Levels[i], w, r.Thresholds[k])
			}
			s += w
		}
		if s > 1+1e-9 {
			return fmt.Errorf("group thresholds: group %q: weights sum to %g, want at most 1", g.Levels[i], s)
		}
	}
	return nil
}

// Decide is the probability that the rules select a row of group code g
// with probability p.
func (g *GroupThresholds) Decide(p float64, group int) (float64, error) {
	if group < 0 || group >= len(g.Rules) {
		return 0, fmt.Errorf("group code %d, want 0 … %d", group, len(g.Rules)-1)
	}
	return g.Rules[group].Decide(p), nil
}

// DecideAll is the probability that the rules select each row, of
// probability p[i] and group code groups[i]: what a thresholds candidate's
// records, its intervals and its audit are computed from.
func (g *GroupThresholds) DecideAll(p []float64, groups []int) ([]float64, error) {
	if len(p) != len(groups) {
		return nil, fmt.Errorf("group thresholds: %d probabilities and %d groups, want one group per row", len(p), len(groups))
	}
	d := make([]float64, len(p))
	for i, v := range p {
		var err error
		if d[i], err = g.Decide(v, groups[i]); err != nil {
			return nil, fmt.Errorf("row %d: %w", i, err)
		}
	}
	return d, nil
}

// UsesGroup reports whether f decides with the row's group
// (FileFormatThresholds).
func (f *File) UsesGroup() bool { return f.Format == FileFormatThresholds }
