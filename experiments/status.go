package experiments

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// Candidate names one candidate of a sweep: a split and a λ.
type Candidate struct {
	Split  int     `json:"split"`
	Lambda float64 `json:"lambda"`
	Key    string  `json:"key"`
	// Adaptive marks a missing candidate of an adaptive grid whose λ is
	// chosen only when it is trained (Lambda is then 0, Key names its rank
	// among the split's adaptive candidates).
	Adaptive bool `json:"adaptive,omitempty"`
}

// FailedCandidate is a recorded candidate whose training failed (its loss
// diverged, or its standardization could not be computed). Resuming does not
// train it again.
type FailedCandidate struct {
	Candidate
	Epoch  int    `json:"fail_epoch,omitempty"`
	Reason string `json:"reason"`
	File   string `json:"file"` // the records file holding it
}

// Progress counts the candidates of a sweep, or of one shard of it.
type Progress struct {
	Expected int `json:"expected"`
	// Done counts the candidates with a record, failed ones included.
	Done    int               `json:"done"`
	Failed  []FailedCandidate `json:"failed"`
	Missing []Candidate       `json:"missing"`
	// Duplicates are candidates recorded more than once (two processes ran
	// the same shard at once); their last record counts.
	Duplicates []Candidate `json:"duplicates"`
	// EvalOnlyExpected and EvalOnlyDone count, among Expected and Done, the
	// candidates of a conditioned sweep at the λ of its evaluation grid
	// that the grid does not hold (records marked eval_only).
	EvalOnlyExpected int `json:"eval_only_expected,omitempty"`
	EvalOnlyDone     int `json:"eval_only_done,omitempty"`
}

// Complete reports whether every candidate is recorded.
func (p *Progress) Complete() bool { return p.Done == p.Expected }

// ShardStatus is the progress of shard Index of Count: the splits m with
// m mod Count = Index. Its candidates count as done whichever file holds
// their record.
type ShardStatus struct {
	Index int    `json:"index"`
	Count int    `json:"count"`
	File  string `json:"file"` // its records file, "" when there is none yet
	Progress
}

// FileStatus describes one records file of the folder.
type FileStatus struct {
	Name    string `json:"name"`
	Records int    `json:"records"`
	// Torn is set when the last line is an interrupted write; that candidate
	// counts as missing and is trained again on resume.
	Torn bool `json:"torn,omitempty"`
}

// StatusReport is how far the sweep stored in a folder is: per shard and
// overall, which candidates are done, failed and missing.
type StatusReport struct {
	Dir     string    `json:"dir"`
	Config  Config    `json:"config"`
	Digest  string    `json:"digest"`
	Lambdas []float64 `json:"lambdas"` // the fixed grid; an adaptive grid's coarse grid
	// EvalOnly are the λ of a conditioned sweep's evaluation grid that the
	// grid does not hold.
	EvalOnly []float64 `json:"eval_only,omitempty"`
	// PerSplit is the number of candidates expected per split: the grid's
	// size (with EvalOnly's), or N of "adaptive:N".
	PerSplit int `json:"per_split"`
	// Shards is the number of shards of the per-shard view (0: none).
	Shards   int           `json:"shards"`
	PerShard []ShardStatus `json:"per_shard,omitempty"`
	Overall  Progress      `json:"overall"`
	Complete bool          `json:"complete"`
	Files    []FileStatus  `json:"files"`
	// Unexpected are recorded candidates outside the sweep's splits × grid.
	Unexpected []Candidate `json:"unexpected,omitempty"`
	Warnings   []string    `json:"warnings,omitempty"`
	// Overlap is each prepared split's overlap summary (splits/split-NNN/).
	Overlap []runfolder.SplitOverlap `json:"overlap,omitempty"`
}

// IncompleteShards lists the shards with missing candidates.
func (s *StatusReport) IncompleteShards() []int {
	var out []int
	for _, sh := range s.PerShard {
		if !sh.Complete() {
			out = append(out, sh.Index)
		}
	}
	return out
}

// Status reads the configuration (config.json) and every records file of
// dir — the files a resumed run reads — and tells which candidates of the
// sweep (every split × every λ of the grid) are recorded, failed or missing.
// With an adaptive grid ("adaptive:N") a split expects its coarse grid and
// N minus that many more λs, which are its other records, smallest λ first;
// the ones not yet chosen are missing as Adaptive candidates.
//
// shards > 0 asks for a per-shard view with that many shards; with 0 the
// number is taken from the shard records files in dir (records-shard-i-of-
// n.jsonl), and there is no per-shard view when there are none or they
// disagree. Records of another configuration than config.json's are an error:
// a folder holds one sweep.
func Status(dir string, shards int) (*StatusReport, error) {
	if shards < 0 {
		return nil, fmt.Errorf("status: shards = %d, want ≥ 0", shards)
	}
	cfg, err := ReadConfig(dir)
	if err != nil {
		return nil, fmt.Errorf("status of %s: %w", dir, err)
	}
	grid, adaptive, err := cfg.lambdaGrid()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, runfolder.ConfigFile), err)
	}
	evalOnly := cfg.evalOnlyGrid(grid)
	perSplit := len(grid) + len(evalOnly)
	if adaptive != nil {
		perSplit = adaptive.N
	}
	if cfg.Splits < 1 {
		return nil, fmt.Errorf("%s: splits = %d, want ≥ 1", filepath.Join(dir, runfolder.ConfigFile), cfg.Splits)
	}
	rep := &StatusReport{Dir: dir, Config: cfg, Digest: cfg.Digest(), Lambdas: grid, EvalOnly: evalOnly, PerSplit: perSplit}
	if rep.Overlap, err = runfolder.ReadOverlaps(dir); err != nil {
		return nil, err
	}

	files, err := runfolder.OwnRecordsFiles(dir)
	if err != nil {
		return nil, err
	}
	type seen struct {
		rec  records.Record
		file string
		n    int
	}
	byKey := map[string]*seen{}
	recorded := map[int][]float64{} // the λs recorded per split
	counts := map[int]bool{}
	var order []string // first-seen order of the keys, for stable output
	for _, f := range files {
		name := filepath.Base(f)
		if sh, ok := runfolder.ShardOfFile(name); ok {
			counts[sh.Count] = true
		}
		recs, err := records.Read(f)
		var torn *records.TornLineError
		fs := FileStatus{Name: name, Records: len(recs)}
		if errors.As(err, &torn) {
			fs.Torn = true
			rep.Warnings = append(rep.Warnings, err.Error())
		} else if err != nil {
			return nil, err
		}
		rep.Files = append(rep.Files, fs)
		for _, rec := range recs {
			if rec.Config != rep.Digest {
				return nil, fmt.Errorf("%s: record of %s belongs to configuration %q, but %s is %q: a folder holds one sweep; move the records of the other one elsewhere",
					f, rec.Key(), rec.Config, filepath.Join(dir, runfolder.ConfigFile), rep.Digest)
			}
			k := rec.Key()
			s, ok := byKey[k]
			if !ok {
				s = &seen{}
				byKey[k] = s
				order = append(order, k)
				recorded[rec.Split] = append(recorded[rec.Split], rec.Lambda)
			}
			s.rec, s.file = rec, name // the last record counts, as when resuming
			s.n++
		}
	}

	rep.Shards = shards
	if shards == 0 {
		switch len(counts) {
		case 0:
		case 1:
			for n := range counts {
				rep.Shards = n
			}
		default:
			ns := make([]int, 0, len(counts))
			for n := range counts {
				ns = append(ns, n)
			}
			slices.Sort(ns)
			rep.Warnings = append(rep.Warnings, fmt.Sprintf(
				"the records files are of shard counts %v; give the number of shards for a per-shard view", ns))
		}
	}
	for i := range rep.Shards {
		sh := Shard{Index: i, Count: rep.Shards}
		st := ShardStatus{Index: i, Count: rep.Shards}
		if slices.ContainsFunc(rep.Files, func(f FileStatus) bool { return f.Name == runfolder.RecordsFile(sh) }) {
			st.File = runfolder.RecordsFile(sh)
		}
		rep.PerShard = append(rep.PerShard, st)
	}

	expected := map[string]bool{}
	for m := range cfg.Splits {
		var cands []Candidate
		for _, l := range append(slices.Clone(grid), evalOnly...) {
			cands = append(cands, Candidate{Split: m, Lambda: l, Key: records.CandidateKey(cfg.Method, cfg.Penalty, m, l)})
		}
		if adaptive != nil {
			cands = append(cands, adaptiveCandidates(cfg, m, grid, recorded[m], adaptive.N-len(grid))...)
		}
		for _, c := range cands {
			expected[c.Key] = true
			progs := []*Progress{&rep.Overall}
			if rep.Shards > 0 {
				progs = append(progs, &rep.PerShard[m%rep.Shards].Progress)
			}
			s, ok := byKey[c.Key]
			evalOnly := slices.Contains(evalOnly, c.Lambda)
			for _, p := range progs {
				p.Expected++
				if evalOnly {
					p.EvalOnlyExpected++
				}
				if !ok {
					p.Missing = append(p.Missing, c)
					continue
				}
				p.Done++
				if evalOnly {
					p.EvalOnlyDone++
				}
				if !s.rec.OK() {
					p.Failed = append(p.Failed, FailedCandidate{Candidate: c, Epoch: s.rec.FailEpoch,
						Reason: s.rec.FailReason, File: s.file})
				}
				if s.n > 1 {
					p.Duplicates = append(p.Duplicates, c)
				}
			}
		}
	}
	for _, k := range order {
		if !expected[k] {
			r := byKey[k].rec
			rep.Unexpected = append(rep.Unexpected, Candidate{Split: r.Split, Lambda: r.Lambda, Key: k})
		}
	}
	// Empty lists rather than null in JSON.
	for _, p := range append([]*Progress{&rep.Overall}, shardProgress(rep.PerShard)...) {
		p.Failed = nonNil(p.Failed)
		p.Missing = nonNil(p.Missing)
		p.Duplicates = nonNil(p.Duplicates)
	}
	rep.Complete = rep.Overall.Complete()
	return rep, nil
}

// adaptiveCandidates are the n candidates of split m beyond the coarse grid
// of an adaptive sweep: the λs recorded on the split outside the coarse
// grid, smallest first, then placeholders for the λs not chosen yet.
func adaptiveCandidates(cfg Config, m int, coarse, recorded []float64, n int) []Candidate {
	var ls []float64
	for _, l := range recorded {
		if !slices.Contains(coarse, l) {
			ls = append(ls, l)
		}
	}
	slices.Sort(ls)
	ls = slices.Compact(ls)
	var out []Candidate
	for i := range n {
		if i < len(ls) {
			out = append(out, Candidate{Split: m, Lambda: ls[i], Key: records.CandidateKey(cfg.Method, cfg.Penalty, m, ls[i])})
			continue
		}
		out = append(out, Candidate{Split: m, Adaptive: true,
			Key: fmt.Sprintf("%s/%s/split=%d/adaptive=%d", cfg.Method, cfg.Penalty, m, i+1)})
	}
	return out
}

func shardProgress(s []ShardStatus) []*Progress {
	out := make([]*Progress, len(s))
	for i := range s {
		out[i] = &s[i].Progress
	}
	return out
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
