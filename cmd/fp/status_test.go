package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/records"
)

// dropLines removes the given 1-based lines of a records file and returns
// the candidates they held.
func dropLines(t *testing.T, path string, lines ...int) []experiments.Candidate {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.SplitAfter(string(b), "\n")
	var keep []string
	var dropped []experiments.Candidate
	for i, l := range all {
		if l == "" {
			continue
		}
		drop := false
		for _, n := range lines {
			drop = drop || n == i+1
		}
		if !drop {
			keep = append(keep, l)
			continue
		}
		var r records.Record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		dropped = append(dropped, experiments.Candidate{Split: r.Split, Lambda: r.Lambda, Key: r.Key()})
	}
	if err := os.WriteFile(path, []byte(strings.Join(keep, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return dropped
}

func statusJSON(t *testing.T, args ...string) *experiments.StatusReport {
	t.Helper()
	out, _, err := runFP(t, append([]string{"status", "--json"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	var rep experiments.StatusReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("status --json: %v\n%s", err, out)
	}
	return &rep
}

// sameCandidates compares as sets (the report lists them by split, then λ).
func sameCandidates(got, want []experiments.Candidate) bool {
	key := func(c []experiments.Candidate) map[string]experiments.Candidate {
		m := map[string]experiments.Candidate{}
		for _, x := range c {
			m[x.Key] = x
		}
		return m
	}
	return len(got) == len(want) && reflect.DeepEqual(key(got), key(want))
}

func TestStatusNamesMissingCandidatesOfAHalfFinishedSweep(t *testing.T) {
	setShardEnv(t, nil)
	dir := filepath.Join(t.TempDir(), "sweep")
	train := []string{"train", "--splits", "3", "--lambdas", "log:4", "--engine", "backprop", "--epochs", "2",
		"--workers", "2", "--quiet", "--no-plot", "--out", dir}
	if _, _, err := runFP(t, train...); err != nil {
		t.Fatal(err)
	}
	rep := statusJSON(t, dir)
	if !rep.Complete || rep.Overall.Done != 12 || rep.Overall.Expected != 12 || rep.Shards != 0 {
		t.Fatalf("finished sweep: complete %v, %d/%d, shards %d", rep.Complete, rep.Overall.Done, rep.Overall.Expected, rep.Shards)
	}

	missing := dropLines(t, filepath.Join(dir, "records.jsonl"), 2, 5, 6, 11)
	rep = statusJSON(t, dir)
	if rep.Complete || rep.Overall.Done != 8 || !sameCandidates(rep.Overall.Missing, missing) {
		t.Errorf("status after deleting 4 records: %d/%d, missing %v; want 8/12, missing %v",
			rep.Overall.Done, rep.Overall.Expected, rep.Overall.Missing, missing)
	}
	text, _, err := runFP(t, "status", dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "8/12") {
		t.Errorf("text status lacks 8/12:\n%s", text)
	}
	for _, m := range missing {
		line := ""
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), fmt.Sprintf("split %d:", m.Split)) {
				line = l
			}
		}
		if !strings.Contains(line, strconv.FormatFloat(m.Lambda, 'g', 4, 64)) {
			t.Errorf("text status does not name split %d, λ = %s:\n%s", m.Split, strconv.FormatFloat(m.Lambda, 'g', 4, 64), text)
		}
	}

	// Resuming trains exactly the missing ones; status is complete again.
	if _, _, err := runFP(t, train...); err != nil {
		t.Fatal(err)
	}
	if rep = statusJSON(t, dir); !rep.Complete || len(rep.Overall.Duplicates) != 0 {
		t.Errorf("after resuming: complete %v, duplicates %v", rep.Complete, rep.Overall.Duplicates)
	}
}

func TestStatusPerShard(t *testing.T) {
	setShardEnv(t, nil)
	dir := filepath.Join(t.TempDir(), "sweep")
	train := []string{"train", "--splits", "3", "--lambdas", "log:4", "--engine", "backprop", "--epochs", "2",
		"--workers", "2", "--quiet", "--no-plot", "--out", dir}
	for _, s := range []string{"0/3", "1/3"} { // shard 2/3 never ran
		if _, _, err := runFP(t, append(train, "--shard", s)...); err != nil {
			t.Fatal(err)
		}
	}
	missing1 := dropLines(t, filepath.Join(dir, "records-shard-1-of-3.jsonl"), 3)
	rep := statusJSON(t, dir)
	if rep.Shards != 3 || len(rep.PerShard) != 3 {
		t.Fatalf("shards %d, %d rows; want 3", rep.Shards, len(rep.PerShard))
	}
	var missing2 []experiments.Candidate
	for _, l := range rep.Lambdas {
		missing2 = append(missing2, experiments.Candidate{Split: 2, Lambda: l, Key: records.CandidateKey("cheb", "ato-penultimate", 2, l)})
	}
	wants := [][]experiments.Candidate{nil, missing1, missing2}
	for i, sh := range rep.PerShard {
		if !sameCandidates(sh.Missing, wants[i]) || sh.Expected != 4 || sh.Done != 4-len(wants[i]) {
			t.Errorf("shard %d: %d/%d missing %v; want missing %v", i, sh.Done, sh.Expected, sh.Missing, wants[i])
		}
	}
	text, _, err := runFP(t, "status", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"1/3    3/4", "2/3    0/4", "(none yet)", "split 2 (shard 2/3): all 4 λ",
		"incomplete shards: 1,2", "sbatch --array=1,2"} {
		if !strings.Contains(text, s) {
			t.Errorf("text status lacks %q:\n%s", s, text)
		}
	}

	// A record of another sweep in the folder is refused, naming the file.
	other := filepath.Join(t.TempDir(), "other")
	if _, _, err := runFP(t, "train", "--splits", "3", "--lambdas", "log:4", "--engine", "backprop", "--epochs", "3",
		"--quiet", "--no-plot", "--out", other, "--shard", "2/3"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(other, "records-shard-2-of-3.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "records-shard-2-of-3.jsonl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runFP(t, "status", dir)
	if err == nil || !strings.Contains(err.Error(), "records-shard-2-of-3.jsonl") || !strings.Contains(err.Error(), "configuration") {
		t.Errorf("mixed configurations: err = %v, want a refusal naming the file", err)
	} else {
		oneLine(t, err.Error())
	}
}

func TestStatusArguments(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"status"}, "one sweep folder"},
		{[]string{"status", "a", "b"}, "one sweep folder"},
		{[]string{"status", t.TempDir()}, "config.json"},
		{[]string{"status", t.TempDir(), "--shards", "0"}, "--shards 0"},
	} {
		_, _, err := runFP(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("fp %v: err = %v, want one naming %q", tc.args, err, tc.want)
		}
	}
}
