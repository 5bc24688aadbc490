package runfolder

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fpareto/fp/records"
)

func TestShardOfFile(t *testing.T) {
	for _, sh := range []Shard{{0, 1}, {3, 100}, {99, 100}} {
		if got, ok := ShardOfFile(RecordsFile(sh)); !ok || got != sh {
			t.Errorf("ShardOfFile(%q) = %v, %v; want %v", RecordsFile(sh), got, ok, sh)
		}
	}
	for _, name := range []string{"records.jsonl", "records-shard-3-of-2.jsonl", "records-shard-0-of-0.jsonl",
		"records-shard-1-of-2.jsonl.bak", "x-records-shard-1-of-2.jsonl"} {
		if sh, ok := ShardOfFile(name); ok {
			t.Errorf("ShardOfFile(%q) = %v, want none", name, sh)
		}
	}
}

// The layout is what every folder already written has: the paths must not
// move.
func TestLayout(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{RecordsFile(Shard{}), "records.jsonl"},
		{RecordsFile(Shard{Index: 2, Count: 5}), "records-shard-2-of-5.jsonl"},
		{SplitDir("run", 7), "run/splits/split-007"},
		{PropensityPath("run", 7), "run/splits/split-007/propensity.json"},
		{OverlapPath("run", 12), "run/splits/split-012/overlap.json"},
		{StandardizationPath("run", 0, "risk"), "run/splits/split-000/std-risk.json"},
		{GroupCheckpointPath("run", 3, "desc"), "run/splits/split-003/lockstep-desc.json"},
		{ConditionedCheckpointPath("run", 3, "cheb", "ato-output"), "run/splits/split-003/conditioned-cheb-ato-output.json"},
		{NetworkPath("cheb", "ato-penultimate", 1, 0.25), "networks/split-001/cheb-ato-penultimate-lambda-0.25.json"},
		{NetworkPath("adversarial", "", 0, 200), "networks/split-000/adversarial-lambda-200.json"},
		{CachePath("run", "intervals.json"), "run/cache/intervals.json"},
	} {
		if tc.got != filepath.FromSlash(tc.want) {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// ReadRecords reads every records file of a folder, as a resumed run does,
// and drops a torn last line.
func TestReadRecords(t *testing.T) {
	dir := t.TempDir()
	for i, sh := range []Shard{{0, 2}, {1, 2}} {
		w, err := OpenRecords(dir, sh)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := OpenRecords(dir, sh); err == nil {
			t.Errorf("shard %v: a second writer was not refused", sh)
		}
		if err := w.Append(&records.Record{Method: "cheb", Split: i, Lambda: 0.5, Status: records.StatusOK}); err != nil {
			t.Fatal(err)
		}
		w.Close()
	}
	f, err := os.OpenFile(filepath.Join(dir, RecordsFile(Shard{1, 2})), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"method":"ch`)
	f.Close()
	recs, err := ReadRecords(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[0].Split != 0 || recs[1].Split != 1 {
		t.Errorf("read %+v, want the records of splits 0 and 1", recs)
	}
}

func TestStandardizationRoundTrip(t *testing.T) {
	dir := t.TempDir()
	if rec, err := ReadStandardization(dir, 0, "risk"); rec != nil || err != nil {
		t.Fatalf("none stored: %v, %v; want nil and no error", rec, err)
	}
	want := records.Record{Method: "cheb", Split: 0, Lambda: 0, Risk: 0.6, RMin: 0.5, RMax: 0.7, Status: records.StatusOK}
	if err := WriteStandardization(dir, 0, "risk", &want); err != nil {
		t.Fatal(err)
	}
	got, err := ReadStandardization(dir, 0, "risk")
	if err != nil || !reflect.DeepEqual(*got, want) {
		t.Errorf("read back %+v, %v; want %+v", got, err, want)
	}
	if err := os.WriteFile(StandardizationPath(dir, 0, "penalty"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadStandardization(dir, 0, "penalty"); err == nil || !strings.Contains(err.Error(), "std-penalty.json") {
		t.Errorf("a torn file: err = %v, want one naming it", err)
	}
}
