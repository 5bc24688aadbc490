// Package predict scores the raw rows of a data file with a stored network,
// streaming: memory does not grow with the file.
//
// A network file of format fp-network/2 holds the raw input schema, so the
// rows are read as the network's training data was (a built-in dataset's
// original file with that dataset's reader, any other file as a CSV with a
// header; a file whose name ends in .parquet as Parquet, one row group at a
// time, whatever the network was trained on), encoded, standardized and
// scored. Each output row holds the copied columns, the probability
// ("score"), the label (score ≥ threshold) and optionally the logit,
// written to a CSV in the shortest form that reads back to the same
// float64, or to a Parquet file (Options.Parquet) as DOUBLE, INT32 and
// DOUBLE.
package predict
