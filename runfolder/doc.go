// Package runfolder owns the layout and the file formats of a run folder,
// the folder a sweep writes and every other command reads:
//
//	config.json                       the stored configuration (Config, ReadConfig, Claim)
//	records.jsonl                     the records (RecordsFile, OpenRecords, ReadRecords;
//	records-shard-I-of-N.jsonl        the store and its lock are package records')
//	*.jsonl, */*.jsonl                what a command reading the folder reads as records
//	                                  (RecordsFiles, ReadAll: the one rule, names listed,
//	                                  never matched as a pattern)
//	runs.log                          one line per run into the folder (Invocation)
//	networks/split-NNN/*.json         the candidates' networks (NetworkPath)
//	splits/split-NNN/propensity.json  a split's propensity model (ReadPropensity, or ReadPropensityGroups for R ≥ 3 groups; ReadPropensityFile to score raw rows)
//	splits/split-NNN/overlap.json     its overlap summary on the training and test rows and
//	                                  the judgement of its ATO (SplitOverlap, ReadOverlaps,
//	                                  ReadRunOverlaps, ATOWarning)
//	splits/split-NNN/std-*.json       its standardization runs until their records are written
//	splits/split-NNN/lockstep-*.json  its lockstep groups' checkpoints (GroupCheckpointPath)
//	splits/split-NNN/conditioned-*.json
//	                                  and its λ-conditioned network's (ConditionedCheckpointPath),
//	                                  until their records are written
//	cache/                            optional caches of derived results (WriteCache)
//
// The names a folder keeps (KeptAt, IsRecordsName) are those no command
// may write an output over.
//
// It also recomputes what a folder implies but does not store: the data
// its configuration names (LoadDataset), its splits with their selection
// rows (PartsOf, SplitOf; one part's rows as CSV, LoadRunPart and
// RunPart.WriteCSV) and the test and selection predictions of its stored
// networks (LoadPredictions, PredictionSource, LoadTestSplit).
// Training is package experiments' job; runfolder imports neither it nor
// an engine, so that the commands that only read run folders (the reports,
// the figures, the progress display) build without them.
package runfolder
