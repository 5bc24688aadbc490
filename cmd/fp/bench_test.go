package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestBenchJSON(t *testing.T) {
	out, _, err := runFP(t, "bench", "--steps", "3", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("output is not a JSON array: %v\n%s", err, out)
	}
	var engines []string
	for _, r := range rows {
		for _, k := range []string{"dataset", "engine", "us_per_step", "allocs_per_step"} {
			if _, ok := r[k]; !ok {
				t.Errorf("row %v lacks %q", r, k)
			}
		}
		if r["dataset"] != "compas" || r["steps"] != 3.0 {
			t.Errorf("row %v: want dataset compas, 3 steps", r)
		}
		engines = append(engines, r["engine"].(string))
	}
	if strings.Join(engines, ",") != "graph,backprop" {
		t.Errorf("engines %v, want graph and backprop", engines)
	}
}

func TestBenchTable(t *testing.T) {
	out, _, err := runFP(t, "bench", "--steps", "3")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ENGINE", "graph", "backprop", "GOMAXPROCS=", "1.0×"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestBenchErrors(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "--dataset", "mnist", "--steps", "1"},
		{"bench", "--steps", "-2"},
		{"bench", "extra"},
	} {
		_, _, err := runFP(t, args...)
		if err == nil {
			t.Errorf("%v: no error", args)
			continue
		}
		oneLine(t, err.Error())
	}
}

func TestBenchSweep(t *testing.T) {
	out, _, err := runFP(t, "bench", "--steps", "2", "--workers", "2", "--networks", "3", "--sweep-steps", "2")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"NETWORKS/S", "SPEED-UP", "WORKERS"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	out, _, err = runFP(t, "bench", "--steps", "2", "--workers", "2", "--networks", "3", "--sweep-steps", "2", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Steps []map[string]any `json:"steps"`
		Sweep []map[string]any `json:"sweep"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("output is not a JSON object: %v\n%s", err, out)
	}
	if len(v.Steps) != 2 || len(v.Sweep) != 2 {
		t.Fatalf("got %d step rows and %d sweep rows, want 2 and 2:\n%s", len(v.Steps), len(v.Sweep), out)
	}
	for _, r := range v.Sweep {
		if r["workers"] != 2.0 || r["networks"] != 3.0 || !(r["networks_per_second"].(float64) > 0) || !(r["speedup"].(float64) > 0) {
			t.Errorf("sweep row %v", r)
		}
	}
	if _, _, err := runFP(t, "bench", "--steps", "1", "--networks", "3"); err == nil {
		t.Error("--networks without --workers: no error")
	}
}

// fp bench repeats each figure (--repeat, default 5) and prints the range
// beside the median.
func TestBenchRepeat(t *testing.T) {
	out, _, err := runFP(t, "bench", "--steps", "2", "--repeat", "2", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		Repeats int `json:"repeats"`
		Spread  struct {
			Median, Min, Max float64
		} `json:"us_per_step_spread"`
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("output is not a JSON array: %v\n%s", err, out)
	}
	for _, r := range rows {
		if r.Repeats != 2 || !(r.Spread.Min > 0 && r.Spread.Min <= r.Spread.Max) {
			t.Errorf("row %+v: want 2 repeats and a range", r)
		}
	}
	out, _, err = runFP(t, "bench", "--steps", "2")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "MIN–MAX") || !strings.Contains(out, " 5 ") {
		t.Errorf("table lacks the range or the 5 default repeats:\n%s", out)
	}
	_, _, err = runFP(t, "bench", "--steps", "1", "--repeat", "0")
	if err == nil {
		t.Fatal("--repeat 0 accepted")
	}
	oneLine(t, err.Error())
}
