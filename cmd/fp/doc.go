// Command fp is the command-line interface of fp: it parses flags, builds a
// configuration and calls the library. Each command lives in its own file
// and registers itself in init.
//
//	fp datasets            the built-in datasets and their base rates
//	fp datasets export     a built-in dataset's rows as a CSV file
//	fp train               Algorithm 1: a sweep over splits × λ, records and the front
//	fp status DIR          a sweep's progress: done, failed and missing candidates per shard
//	fp front RECORDS…      non-dominated counts, hypervolume and shares
//	fp plot RECORDS…       the candidates and the front as a figure
//	fp report RUN…         one self-contained HTML page: fronts, networks, comparison
//	fp pick RECORDS…       one network of the pooled front, by a stated requirement
//	fp predict             score raw rows with a stored network
//	fp export              a stored network as an ONNX model
//	fp audit               the fairness metrics of any file of predictions
package main
