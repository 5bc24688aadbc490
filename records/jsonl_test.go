package records

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

func sample(i int) Record {
	return Record{
		Dataset: "compas", Sensitive: "race", Method: "cheb", Penalty: "ato-penultimate",
		Split: i % 3, Lambda: float64(i) / 10, Seed: 42, Engine: "graph", Arch: "4x4", Batch: 150,
		Epochs: 500, Dim: 12, NTrain: 3086, NTest: 3086,
		RMin: 0.5, RMax: 0.7, UMin: 0.01, UMax: 0.4,
		TrainSeconds: 1.5, SkippedBatches: i, Collapsed: i%2 == 1,
		Risk: 0.6 + float64(i)/1000, Accuracy: 0.68, ATO: 0.1 / float64(i+1), DP: 0.01, EO: 0.02, EOpp: 0.03,
		Weights: fmt.Sprintf("weights/%d.json", i), Status: StatusOK, Config: "c1",
	}
}

func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []Record{sample(0), sample(1), sample(2)}
	want[2].Status, want[2].FailEpoch, want[2].FailReason = StatusFailed, 17, "loss is NaN"
	want[1].Shard = "2/4"
	for i := range want {
		if err := w.Append(&want[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back\n%+v\nwant\n%+v", got, want)
	}
	if got[2].OK() || !got[0].OK() {
		t.Error("OK() does not follow Status")
	}
	// A record written without a status reads back as "ok".
	if err := os.WriteFile(path, []byte(`{"method":"linear"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err = Read(path)
	if err != nil || len(got) != 1 || got[0].Status != StatusOK {
		t.Errorf("record without status: %+v, %v", got, err)
	}
}

func TestConcurrentAppend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	const writers, each = 16, 40
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for g := range writers {
		wg.Go(func() {
			for k := range each {
				r := sample(g*each + k)
				if err := w.Append(&r); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path) // fails on any interleaved (broken) line
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != writers*each {
		t.Fatalf("read %d records, want %d", len(got), writers*each)
	}
	seen := map[string]bool{}
	for _, r := range got {
		seen[r.Weights] = true
	}
	if len(seen) != writers*each {
		t.Errorf("%d distinct records, want %d", len(seen), writers*each)
	}
}

// writeLines writes complete records followed by tail (no newline added).
func writeLines(t *testing.T, path string, n int, tail string) {
	t.Helper()
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		r := sample(i)
		if err := w.Append(&r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(tail); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

const tornTail = `{"dataset":"compas","method":"cheb","spl`

func TestTornLastLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	writeLines(t, path, 2, tornTail)

	got, err := Read(path)
	var torn *TornLineError
	if !errors.As(err, &torn) {
		t.Fatalf("Read error %v, want a *TornLineError", err)
	}
	if torn.Path != path || torn.Line != 3 {
		t.Errorf("TornLineError at %s:%d, want %s:3", torn.Path, torn.Line, path)
	}
	if !strings.Contains(err.Error(), path+":3:") {
		t.Errorf("error %q does not name %s:3", err, path)
	}
	if len(got) != 2 || !reflect.DeepEqual(got[1], sample(1)) {
		t.Errorf("Read returned %d records, want the 2 complete ones", len(got))
	}

	// Open cuts the torn tail; what is appended next is readable.
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	r := sample(7)
	if err := w.Append(&r); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err = Read(path)
	if err != nil {
		t.Fatalf("after Open and Append: %v", err)
	}
	if len(got) != 3 || !reflect.DeepEqual(got[2], sample(7)) {
		t.Errorf("after Open and Append: %d records, last %+v", len(got), got[len(got)-1])
	}
}

// A file holding only a torn line is emptied by Open.
func TestOpenTornOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if err := os.WriteFile(path, []byte(tornTail), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if b, _ := os.ReadFile(path); len(b) != 0 {
		t.Errorf("file holds %q after Open, want nothing", b)
	}
}

// A last record that lost only its newline is a record: Read accepts it, so
// Open must keep it (and complete the line) rather than cut it.
func TestOpenKeepsCompleteLastLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	writeLines(t, path, 1, `{"method":"linear","lambda":0.5,"status":"ok"}`)
	before, err := Read(path)
	if err != nil || len(before) != 2 {
		t.Fatalf("Read: %d records, %v; want 2, nil", len(before), err)
	}
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	r := sample(3)
	if err := w.Append(&r); err != nil {
		t.Fatal(err)
	}
	w.Close()
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[1].Method != "linear" || got[1].Lambda != 0.5 || !reflect.DeepEqual(got[2], sample(3)) {
		t.Errorf("after Open and Append: %+v", got)
	}
}

func TestBadLineInMiddle(t *testing.T) {
	for _, bad := range []string{`{"method": cheb}`, `null`, `[1, 2]`} {
		path := filepath.Join(t.TempDir(), "r.jsonl")
		writeLines(t, path, 1, bad+"\n")
		writeLines(t, path, 1, "")
		_, err := Read(path)
		if err == nil {
			t.Fatalf("%s: Read accepted the file", bad)
		}
		var torn *TornLineError
		if errors.As(err, &torn) {
			t.Errorf("%s: a bad line in the middle is reported as torn", bad)
		}
		if !strings.Contains(err.Error(), path+":2:") {
			t.Errorf("%s: error %q does not name %s:2", bad, err, path)
		}
	}
}

func TestBlankLinesIgnored(t *testing.T) {
	b, err := json.Marshal(sample(0))
	if err != nil {
		t.Fatal(err)
	}
	line := string(b)
	got, err := Decode(strings.NewReader("\n"+line+"\n  \n"+line+"\n\n"), "x")
	if err != nil || len(got) != 2 {
		t.Errorf("Decode: %d records, %v; want 2, nil", len(got), err)
	}
}
