// Package audit computes the fairness audit of a file of predictions, as
// fp audit prints it: risk, accuracy and the unfairness metrics of package
// fairness over every row, and the same per sensitive group.
package audit
