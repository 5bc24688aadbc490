// Package datasets loads the data fp learns from: the UCI Adult census data
// (adult-sex, adult-race), the ProPublica COMPAS data (compas) and any CSV
// file. It validates the files, one-hot encodes categorical columns, draws
// train/test splits stratified by the label and standardizes features with
// statistics of the training rows only.
//
// Every example is (x, a, y): features x, a binary sensitive attribute a and a
// binary label y. The sensitive attribute is never a column of x.
//
// # Where the data comes from
//
// Adult is the Census Income data of Becker and Kohavi (1996) from the UCI
// Machine Learning Repository (files adult.data and adult.test). COMPAS is the
// file compas-scores-two-years.csv that ProPublica published with its 2016
// analysis "Machine Bias" (github.com/propublica/compas-analysis). The binary
// embeds compact copies of both, reduced to the columns fp uses (no names,
// identifiers or dates of birth), so fp works offline; Options.DataDir reads
// the original files instead, and a test checks that both give the same data.
//
// # What COMPAS is and is not
//
// COMPAS is a commercial risk-assessment tool used in Broward County,
// Florida. Its label, two_year_recid, records whether a defendant was
// re-arrested (charged with a new offence) within two years of the
// assessment. It does not record whether the person re-offended: arrests
// depend on policing, which differs between groups, so the label itself may
// carry the bias a fairness method seeks to measure. The data also covers a
// single county and period. COMPAS is a contested benchmark; use it to
// compare methods, not to draw conclusions about people or about recidivism.
//
// # Encodings
//
//	compas      6,172 rows, dim 12: filtered as ProPublica did; a = 1 iff race is African-American
//	adult-*     paper preset: adult.data, White and Black rows, 30,940 rows, dim 93,
//	            "?" becomes "Unknown", first sorted level of each category dropped
//	            full preset: adult.data + adult.test, rows with "?" dropped, 45,222 rows,
//	            dim 96, one column per level
//	adult-sex   a = 1 iff sex is Male
//	adult-race  a = 1 iff race is White (against Black in paper, every other race in full)
//
// Numeric columns come first in x, then the one-hot columns, named
// "column=level".
package datasets

//go:generate go test -run=^TestEmbeddedCopies$ -update
