// Package intervals gives the candidates that fp pick, fp front --ci and
// fp report show a 95% interval for their test risk, accuracy and every
// fairness metric (docs/method.md §7.1).
//
// The interval of a candidate comes from a seeded bootstrap of the test
// rows its test metrics were computed on (package fairness/bootstrap): its
// stored network re-scores the rows that package runfolder rebuilds from
// the run's configuration and seed. Before an interval is given, the rows
// are checked against the records: the data must have the identity the
// records carry (data_id) and the re-scored metrics must be the recorded
// ones. Where the data, the network or the check fails, no interval is
// shown and a one-line note says why; an interval is never computed on
// other rows.
//
// Intervals are cached in the run folder (runfolder.WriteCache), keyed by
// the candidate, the configuration digest, the rows' identity and the
// number of resamples.
//
// A Distinguisher says how many points of a front can be told apart from
// their neighbours on the rows the front was decided on (docs/method.md
// §8.8): by a paired bootstrap of their difference where two neighbours
// share a split's rows, by their two intervals otherwise. The commands
// print what it finds; the test is made here only.
package intervals
