package experiments

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
	"github.com/fpareto/fp/scalarize"
)

// statusConfig is a small sweep: 3 splits × λ ∈ {0, 0.001, 0.0316, 1}.
func statusConfig() Config {
	c := DefaultConfig()
	c.Splits, c.Lambdas, c.Epochs, c.Engine = 3, "log:4", 2, "backprop"
	c.Arch, c.Batch = "4x4", 150
	return c
}

// sweepFolder writes config.json and, per file name, the records of the
// given candidates (split, index into the grid) to a new folder.
func sweepFolder(t *testing.T, c Config, files map[string][][2]int) string {
	t.Helper()
	dir := t.TempDir()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, runfolder.ConfigFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	grid, err := scalarize.ParseGrid(c.Lambdas)
	if err != nil {
		t.Fatal(err)
	}
	for name, cands := range files {
		w, err := records.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, sl := range cands {
			rec := records.Record{Dataset: c.Dataset, Method: c.Method, Penalty: c.Penalty, Split: sl[0],
				Lambda: grid[sl[1]], Status: records.StatusOK, Config: c.Digest()}
			if err := w.Append(&rec); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func cand(t *testing.T, c Config, split, k int) Candidate {
	t.Helper()
	grid, _ := scalarize.ParseGrid(c.Lambdas)
	return Candidate{Split: split, Lambda: grid[k], Key: records.CandidateKey(c.Method, c.Penalty, split, grid[k])}
}

func TestStatusShardedFolder(t *testing.T) {
	c := statusConfig()
	all := func(m int) [][2]int { return [][2]int{{m, 0}, {m, 1}, {m, 2}, {m, 3}} }
	dir := sweepFolder(t, c, map[string][][2]int{
		"records-shard-0-of-3.jsonl": all(0),
		// Shard 1 was stopped after two candidates; shard 2 never started.
		"records-shard-1-of-3.jsonl": {{1, 0}, {1, 3}},
	})
	rep, err := Status(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Shards != 3 || len(rep.PerShard) != 3 || rep.Complete {
		t.Fatalf("shards %d, per shard %d, complete %v; want 3, 3, false", rep.Shards, len(rep.PerShard), rep.Complete)
	}
	wantMissing := [][]Candidate{
		{},
		{cand(t, c, 1, 1), cand(t, c, 1, 2)},
		{cand(t, c, 2, 0), cand(t, c, 2, 1), cand(t, c, 2, 2), cand(t, c, 2, 3)},
	}
	wantFile := []string{"records-shard-0-of-3.jsonl", "records-shard-1-of-3.jsonl", ""}
	var overall []Candidate
	for i, sh := range rep.PerShard {
		if sh.Index != i || sh.Count != 3 || sh.Expected != 4 || sh.Done != 4-len(wantMissing[i]) || sh.File != wantFile[i] {
			t.Errorf("shard %d: %+v", i, sh)
		}
		if !reflect.DeepEqual(sh.Missing, wantMissing[i]) {
			t.Errorf("shard %d misses %v, want %v", i, sh.Missing, wantMissing[i])
		}
		overall = append(overall, wantMissing[i]...)
	}
	if rep.Overall.Expected != 12 || rep.Overall.Done != 6 || !reflect.DeepEqual(rep.Overall.Missing, overall) {
		t.Errorf("overall %d/%d missing %v, want 6/12 missing %v", rep.Overall.Done, rep.Overall.Expected, rep.Overall.Missing, overall)
	}
	if got := rep.IncompleteShards(); !reflect.DeepEqual(got, []int{1, 2}) {
		t.Errorf("incomplete shards %v, want [1 2]", got)
	}

	// Another number of shards regroups the same candidates.
	rep, err = Status(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	if rep.PerShard[0].Expected != 8 || rep.PerShard[0].Done != 4 || rep.PerShard[1].Done != 2 {
		t.Errorf("two shards: %+v", rep.PerShard)
	}
}

func TestStatusFailedDuplicateTornAndComplete(t *testing.T) {
	c := statusConfig()
	var every [][2]int
	for m := range 3 {
		for k := range 4 {
			every = append(every, [2]int{m, k})
		}
	}
	dir := sweepFolder(t, c, map[string][][2]int{"records.jsonl": every})
	rep, err := Status(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Complete || rep.Shards != 0 || rep.Overall.Done != 12 || len(rep.Overall.Missing) != 0 {
		t.Fatalf("a full folder: complete %v, %d/%d, missing %v", rep.Complete, rep.Overall.Done, rep.Overall.Expected, rep.Overall.Missing)
	}

	// A failed record, a duplicate and a torn last line.
	f, err := os.OpenFile(filepath.Join(dir, "records.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fail := records.Record{Method: c.Method, Penalty: c.Penalty, Split: 2, Lambda: cand(t, c, 2, 2).Lambda,
		Status: records.StatusFailed, FailEpoch: 7, FailReason: "loss is NaN", Config: c.Digest()}
	b, _ := json.Marshal(fail)
	fmt.Fprintf(f, "%s\n{\"dataset\": \"comp", b)
	f.Close()
	rep, err = Status(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	wantFailed := []FailedCandidate{{Candidate: cand(t, c, 2, 2), Epoch: 7, Reason: "loss is NaN", File: "records.jsonl"}}
	if !reflect.DeepEqual(rep.Overall.Failed, wantFailed) {
		t.Errorf("failed %+v, want %+v", rep.Overall.Failed, wantFailed)
	}
	if want := []Candidate{cand(t, c, 2, 2)}; !reflect.DeepEqual(rep.Overall.Duplicates, want) {
		t.Errorf("duplicates %v, want %v", rep.Overall.Duplicates, want)
	}
	if !rep.Complete || len(rep.Files) != 1 || !rep.Files[0].Torn || rep.Files[0].Records != 13 || len(rep.Warnings) != 1 {
		t.Errorf("complete %v, files %+v, warnings %v", rep.Complete, rep.Files, rep.Warnings)
	}
}

func TestStatusRefusesMixedConfigurations(t *testing.T) {
	c := statusConfig()
	dir := sweepFolder(t, c, map[string][][2]int{"records-shard-0-of-2.jsonl": {{0, 0}}})
	other := c
	other.Epochs = 3
	odir := sweepFolder(t, other, map[string][][2]int{"records-shard-1-of-2.jsonl": {{1, 0}}})
	b, err := os.ReadFile(filepath.Join(odir, "records-shard-1-of-2.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "records-shard-1-of-2.jsonl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Status(dir, 0)
	if err == nil {
		t.Fatal("records of two configurations were accepted")
	}
	for _, s := range []string{"records-shard-1-of-2.jsonl", other.Digest(), c.Digest(), "one sweep"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not name %q", err, s)
		}
	}
}

func TestStatusMixedShardCountsAndNoConfig(t *testing.T) {
	c := statusConfig()
	dir := sweepFolder(t, c, map[string][][2]int{
		"records-shard-0-of-3.jsonl": {{0, 0}},
		"records-shard-1-of-2.jsonl": {{1, 0}},
	})
	rep, err := Status(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Shards != 0 || len(rep.PerShard) != 0 || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "[2 3]") {
		t.Errorf("mixed shard counts: shards %d, warnings %v", rep.Shards, rep.Warnings)
	}
	if rep.Overall.Done != 2 || len(rep.Overall.Missing) != 10 {
		t.Errorf("overall %d done, %d missing; want 2 and 10", rep.Overall.Done, len(rep.Overall.Missing))
	}
	if _, err := Status(t.TempDir(), 0); err == nil || !strings.Contains(err.Error(), runfolder.ConfigFile) {
		t.Errorf("a folder without %s: err = %v", runfolder.ConfigFile, err)
	}
}

func ExampleStatus() {
	dir, _ := os.MkdirTemp("", "sweep")
	defer os.RemoveAll(dir)
	c := DefaultConfig()
	c.Splits, c.Lambdas = 2, "0,0.5,1"
	b, _ := json.Marshal(c)
	_ = os.WriteFile(filepath.Join(dir, runfolder.ConfigFile), b, 0o644)
	// Shard 0 of 2 recorded λ = 0 and λ = 1 of split 0; shard 1 has not run.
	w, _ := records.Open(filepath.Join(dir, runfolder.RecordsFile(Shard{Index: 0, Count: 2})))
	for _, l := range []float64{0, 1} {
		_ = w.Append(&records.Record{Method: c.Method, Penalty: c.Penalty, Split: 0, Lambda: l, Status: records.StatusOK, Config: c.Digest()})
	}
	_ = w.Close()

	rep, err := Status(dir, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, sh := range rep.PerShard {
		fmt.Printf("shard %d/%d: %d/%d done\n", sh.Index, sh.Count, sh.Done, sh.Expected)
	}
	for _, m := range rep.Overall.Missing {
		fmt.Printf("missing: split %d, λ = %g\n", m.Split, m.Lambda)
	}
	// Output:
	// shard 0/2: 2/3 done
	// shard 1/2: 0/3 done
	// missing: split 0, λ = 0.5
	// missing: split 1, λ = 0
	// missing: split 1, λ = 0.5
	// missing: split 1, λ = 1
}

// An adversarial sweep's records carry β, the grid scaled by AdvBetaScale:
// status counts them as the expected candidates, and records of the
// unscaled grid as unexpected.
func TestStatusAdversarialBetaScale(t *testing.T) {
	c := statusConfig()
	c.Method, c.Penalty, c.Engine, c.AdvBetaScale, c.AdvVersion = MethodAdversarial, "", "graph", 200, 2
	grid, err := scalarize.ParseGrid(c.Lambdas)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name             string
		scale            float64
		done, unexpected int
	}{{"β", 200, 12, 0}, {"unscaled λ", 1, 3, 9}} { // 3 splits × 4 λ; λ = 0 is β = 0 either way
		t.Run(tc.name, func(t *testing.T) {
			dir := sweepFolder(t, c, nil)
			w, err := records.Open(filepath.Join(dir, runfolder.RecordsFile(Shard{})))
			if err != nil {
				t.Fatal(err)
			}
			for m := range c.Splits {
				for _, l := range grid {
					rec := records.Record{Dataset: c.Dataset, Method: c.Method, Split: m, Lambda: l * tc.scale,
						Status: records.StatusOK, Config: c.Digest()}
					if err := w.Append(&rec); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			rep, err := Status(dir, 0)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Overall.Done != tc.done {
				t.Errorf("done %d of %d, want %d", rep.Overall.Done, rep.Overall.Expected, tc.done)
			}
			if len(rep.Unexpected) != tc.unexpected {
				t.Errorf("%d unexpected records, want %d", len(rep.Unexpected), tc.unexpected)
			}
		})
	}
}

// fp status names the classifier's budget of an adversarial sweep when it
// is not the paper's.
func TestStatusTextNamesTheAdversaryBudget(t *testing.T) {
	for _, tc := range []struct {
		k    int
		want string
	}{
		{0, "adversarial (β = 200 × λ),"},
		{53, "adversarial (β = 200 × λ, 53 classifier steps per round),"},
	} {
		c := statusConfig()
		c.Method, c.Penalty, c.AdvBetaScale, c.AdvClfSteps = MethodAdversarial, "", 200, tc.k
		var b strings.Builder
		if err := (&StatusReport{Dir: "d", Config: c}).WriteText(&b); err != nil {
			t.Fatal(err)
		}
		if first, _, _ := strings.Cut(b.String(), "\n"); !strings.Contains(first, tc.want) {
			t.Errorf("K = %d: %q, want %q in it", tc.k, first, tc.want)
		}
	}
}
