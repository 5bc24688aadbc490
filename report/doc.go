// Package report draws fp's figures with gonum.org/v1/plot: the candidates
// and their non-dominated front in (test risk, unfairness) space, one panel
// per method (the paper's Figure "pareto"), and the distributions of the
// predicted probabilities by label and sensitive attribute for a few λ (the
// paper's appendix figures "probdist").
//
// The package only draws: it takes plain numbers (points, predictions and
// the metrics to print) and computes nothing but the front to highlight and
// the histograms. SaveRecordsFront and FrontSeries turn records into the
// panels of a front figure; ChooseDist (with SpreadLambdas and
// PickLambdas) and DistPanel turn a run's records into the panels of a
// distribution figure. CompareMethods, PointsByGroup and
// NonDominated compute the tables printed beside the figures. Figures are written as PNG, SVG or PDF, chosen by the
// file's extension, atomically (a reader sees the old file or the new one).
package report
