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
