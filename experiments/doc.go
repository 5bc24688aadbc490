// Package experiments runs the paper's Algorithm 1 and its baselines: for
// each train/test split it fits and calibrates the propensity model, runs
// λ = 0 and λ = 1 for the standardization constants, then every other λ of
// the grid, scores each candidate on its test split and appends its record.
//
// A Runner is resumable (finished candidates are read back and skipped),
// interruptible (a cancelled context stops it after the candidates in flight),
// deterministic (every candidate's generator is seeded from the sweep's seed,
// the split, the method and λ, so the records do not depend on the number of
// workers) and shardable (shard i of n runs the splits m with m mod n = i;
// ShardFromEnv finds a job-array task's shard in its Slurm or Kubernetes
// environment).
//
// With Config.ValFraction (the default for a CSV) part of each training
// split is kept aside and every network ends with its best epoch on it
// (train.Holdout). Each split's overlap summary (propensity.Diagnose) is
// stored beside its propensity model, copied into every record and, when
// poor, explained (runfolder.SplitOverlap.Advice). Before training, NewRunner refuses a
// sweep whose every batch would lack a group and collects warnings
// (Runner.Warnings).
//
// Engines are interchangeable: the Runner only sees train.Engine, looked up
// by name (EngineByName). Config.Validate, which needs no data, asks the
// engine whether it can train the sweep's terms (train.Engine.Check), so an
// unsupported combination is refused before anything is read or written.
// Config errors are *FieldError values naming the field by its JSON key.
//
// Every file of the run folder is written through package runfolder, which
// owns its layout and formats; Config embeds the stored part of the
// configuration (runfolder.Config).
//
// Status reads a sweep's folder — written by one process or by many shards —
// and tells which candidates are done, failed or missing, per shard and
// overall. NewOutcome sums up a finished sweep: its counts, the comparison
// of its candidates and its front of networks.
package experiments
