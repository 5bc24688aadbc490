// Package audit computes the fairness audit of a file of predictions, as
// fp audit prints it: risk, accuracy and the unfairness metrics of package
// fairness over every row, and the same per sensitive group. Compute and
// WriteText audit two groups; ComputeGroups and WriteGroupsText audit R ≥ 2
// groups (a column's values, or the intersection of several columns) with
// the R-group indices.
package audit
