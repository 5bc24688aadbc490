package records

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A record whose network path leaves its run folder is refused, naming the
// file and line, wherever the line is (a last line is not taken for torn).
func TestWeightsStayInRunFolder(t *testing.T) {
	good := `{"method":"cheb","split":0,"lambda":0.5,"weights":"networks/split-000/cheb-lambda-0.5.json"}`
	line := func(w string) string {
		return `{"method":"cheb","split":0,"lambda":1,"weights":"` + w + `"}`
	}
	for _, tc := range []struct {
		weights string
		ok      bool
	}{
		{"networks/split-000/cheb-lambda-1.json", true},
		{"", true},
		{"/etc/passwd", false},
		{"../other-run/networks/split-000/x.json", false},
		{"networks/../../x.json", false},
		{"..", false},
	} {
		for _, last := range []bool{false, true} {
			text := line(tc.weights) + "\n" + good + "\n"
			if last {
				text = good + "\n" + line(tc.weights) + "\n"
			}
			recs, err := Decode(strings.NewReader(text), "run/records.jsonl")
			if tc.ok {
				if err != nil || len(recs) != 2 {
					t.Errorf("weights %q: %d records, err %v; want both", tc.weights, len(recs), err)
				}
				continue
			}
			n := "1"
			if last {
				n = "2"
			}
			if err == nil || !strings.Contains(err.Error(), "run/records.jsonl:"+n+": weights") || strings.Contains(err.Error(), "\n") {
				t.Errorf("weights %q (last line %v): err = %v, want one line naming the file, line %s and weights", tc.weights, last, err, n)
			}
		}
	}
}

func TestReadRefusesEscapingWeights(t *testing.T) {
	dir := t.TempDir()
	rec := `{"dataset":"compas","method":"cheb","split":0,"lambda":1,"risk":0.6,"weights":"/etc/passwd"}` + "\n"
	path := filepath.Join(dir, "records.jsonl")
	if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(path); err == nil || !strings.Contains(err.Error(), "inside the run folder") {
		t.Errorf("Read: err = %v, want the weights refused", err)
	}
}
