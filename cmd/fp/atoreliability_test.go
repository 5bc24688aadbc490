package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeProxyCSV writes 600 rows of x1, x2, proxy, g, y: with leak set,
// proxy is the sensitive attribute g with 2% of its values flipped; without,
// it is noise.
func writeProxyCSV(t *testing.T, leak bool) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(23, 5))
	var b strings.Builder
	b.WriteString("x1,x2,proxy,g,y\n")
	for range 600 {
		g := rng.IntN(2)
		x1, x2 := rng.NormFloat64(), rng.NormFloat64()
		proxy := fmt.Sprintf("%.4f", rng.NormFloat64())
		if leak {
			p := g
			if rng.Float64() < 0.02 {
				p = 1 - g
			}
			proxy = fmt.Sprint(p)
		}
		y := 0
		if x1+0.5*rng.NormFloat64() > 0 {
			y = 1
		}
		fmt.Fprintf(&b, "%.4f,%.4f,%s,%d,%d\n", x1, x2, proxy, g, y)
	}
	path := filepath.Join(t.TempDir(), "credit.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// trainTiny trains a tiny sweep of csv into a new folder and returns it
// with fp train's standard output and error.
func trainTiny(t *testing.T, csv string, extra ...string) (dir, stdout, stderr string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "run")
	args := append([]string{"train", "--data", csv, "--target", "y", "--sensitive", "g", "--splits", "2",
		"--lambdas", "0,1", "--epochs", "2", "--engine", "backprop", "--quiet", "--no-plot", "--out", dir}, extra...)
	stdout, stderr, err := runFP(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	return dir, stdout, stderr
}

// warningLines are the lines of stderr that warn of an unreliable ATO.
func warningLines(stderr string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, "the ATO is unreliable on") {
			out = append(out, l)
		}
	}
	return out
}

// A column that copies the sensitive attribute (2% flipped) makes every
// split's ATO unreliable: the records say so and why, fp front, compare and
// pick --metric ato warn in one line naming the splits, the reason and the
// column to leave out, and every --json carries the judgement and the
// overlap summaries; a clean file's ATO is reliable and draws no warning.
func TestUnreliableATOFromAProxyColumn(t *testing.T) {
	for _, leak := range []bool{true, false} {
		t.Run(fmt.Sprintf("proxy=%v", leak), func(t *testing.T) {
			dir, trainOut, _ := trainTiny(t, writeProxyCSV(t, leak))
			recs := readRecords(t, dir)
			if len(recs) != 4 {
				t.Fatalf("%d records, want 4", len(recs))
			}
			for _, r := range recs {
				if r.ATOReliable == nil || *r.ATOReliable == leak || (r.ATOUnreliableReason != "") != leak {
					t.Errorf("%s: ato_reliable %v, reason %q; want reliable = %v", r.Key(), r.ATOReliable, r.ATOUnreliableReason, !leak)
				}
			}
			if got := strings.Contains(trainOut, "warning: the ATO is unreliable on 2 of 2 splits"); got != leak {
				t.Errorf("fp train's closing output warns: %v, want %v:\n%s", got, leak, trainOut)
			}
			for _, cmd := range [][]string{
				{"front", dir},
				{"front", dir, "--json"},
				{"compare", dir},
				{"compare", dir, "--json"},
				{"pick", dir, "--metric", "ato", "--max-unfairness", "1"},
				{"pick", dir, "--metric", "ato", "--max-unfairness", "1", "--json"},
			} {
				stdout, stderr, err := runFP(t, cmd...)
				if err != nil {
					t.Fatalf("fp %s: %v", strings.Join(cmd, " "), err)
				}
				lines := warningLines(stderr)
				if !leak {
					if len(lines) != 0 {
						t.Errorf("fp %s: a clean file drew %q", strings.Join(cmd, " "), lines)
					}
				} else if len(lines) != 1 || !strings.HasPrefix(lines[0], "fp: warning: the ATO is unreliable on 2 of 2 splits (splits 0, 1): at split 0, ") ||
					!strings.Contains(lines[0], "--exclude proxy") {
					t.Errorf("fp %s: warnings %q, want one line naming the splits, the reason and --exclude proxy", strings.Join(cmd, " "), lines)
				}
				if cmd[len(cmd)-1] != "--json" {
					continue
				}
				var doc struct {
					Overlap []struct {
						Run         string `json:"run"`
						Split       int    `json:"split"`
						Test        *struct{ ESS1, ESS0 float64 }
						ATOReliable *bool  `json:"ato_reliable"`
						Reason      string `json:"ato_unreliable_reason"`
					} `json:"overlap"`
					ATOWarning  string `json:"ato_warning"`
					ATOReliable *bool  `json:"ato_reliable"` // fp pick's chosen candidate
				}
				if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
					t.Fatalf("fp %s: %v", strings.Join(cmd, " "), err)
				}
				if len(doc.Overlap) != 2 || (doc.ATOWarning != "") != leak {
					t.Errorf("fp %s: overlap %+v, ato_warning %q", strings.Join(cmd, " "), doc.Overlap, doc.ATOWarning)
				}
				for m, o := range doc.Overlap {
					if o.Run != dir || o.Split != m || o.Test == nil || o.ATOReliable == nil || *o.ATOReliable == leak || (o.Reason != "") != leak {
						t.Errorf("fp %s: overlap of split %d: %+v", strings.Join(cmd, " "), m, o)
					}
				}
				if cmd[0] == "pick" && (doc.ATOReliable == nil || *doc.ATOReliable == leak) {
					t.Errorf("fp pick --json: ato_reliable %v, want %v", doc.ATOReliable, !leak)
				}
			}
		})
	}
}

// fp train repeats the warning when it resumes a finished folder, and its
// --json carries the judgement and the overlap.
func TestTrainRepeatsUnreliableATOWarning(t *testing.T) {
	csv := writeProxyCSV(t, true)
	dir, _, _ := trainTiny(t, csv)
	args := []string{"train", "--data", csv, "--target", "y", "--sensitive", "g", "--splits", "2",
		"--lambdas", "0,1", "--epochs", "2", "--engine", "backprop", "--quiet", "--no-plot", "--out", dir}
	stdout, _, err := runFP(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "0 trained now") || !strings.Contains(stdout, "warning: the ATO is unreliable on 2 of 2 splits") {
		t.Errorf("resuming a finished folder with poor overlap:\n%s", stdout)
	}
	stdout, stderr, err := runFP(t, append(args, "--json")...)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Overlap    []json.RawMessage `json:"overlap"`
		ATOWarning string            `json:"ato_warning"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Overlap) != 2 || !strings.HasPrefix(doc.ATOWarning, "the ATO is unreliable on 2 of 2 splits") {
		t.Errorf("fp train --json: overlap %d entries, ato_warning %q", len(doc.Overlap), doc.ATOWarning)
	}
	if len(warningLines(stderr)) != 1 {
		t.Errorf("fp train --json: the warning is not on stderr:\n%s", stderr)
	}
}

// The overlap of two runs read together is keyed by run and split: each
// run's split 0 counts, whichever run is named first.
func TestFrontOverlapKeyedByRunAndSplit(t *testing.T) {
	csv := writeProxyCSV(t, true)
	poor, _, _ := trainTiny(t, csv)
	good, _, _ := trainTiny(t, csv, "--exclude", "proxy")
	for _, order := range [][]string{{poor, good}, {good, poor}} {
		stdout, stderr, err := runFP(t, append([]string{"front"}, order...)...)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(stdout, "overlap over 4 splits of 2 runs: ") || !strings.Contains(stdout, "— POOR") {
			t.Errorf("fp front %s:\n%s", strings.Join(order, " "), stdout)
		}
		lines := warningLines(stderr)
		if len(lines) != 1 || !strings.Contains(lines[0], "unreliable on 2 of 4 splits ("+poor+": splits 0, 1)") {
			t.Errorf("fp front %s: warnings %q", strings.Join(order, " "), lines)
		}
		stdout, _, err = runFP(t, append([]string{"front", "--json"}, order...)...)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Overlap []struct {
				Run         string `json:"run"`
				Split       int    `json:"split"`
				ATOReliable bool   `json:"ato_reliable"`
			} `json:"overlap"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Overlap) != 4 {
			t.Fatalf("fp front --json %s: %d overlap entries, want 4", strings.Join(order, " "), len(doc.Overlap))
		}
		for _, o := range doc.Overlap {
			if o.ATOReliable != (o.Run == good) {
				t.Errorf("fp front --json %s: run %s split %d: ato_reliable %v", strings.Join(order, " "), o.Run, o.Split, o.ATOReliable)
			}
		}
	}
}
