package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDatasetsCommand(t *testing.T) {
	out, _, err := runFP(t, "datasets", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	want := []struct {
		name, preset string
		rows, dim    int
		a1           string
	}{
		{"compas", "", 6172, 12, "race=African-American"},
		{"adult-sex", "paper", 30940, 93, "sex=Male"},
		{"adult-sex", "full", 45222, 96, "sex=Male"},
		{"adult-race", "paper", 30940, 93, "race=White"},
		{"adult-race", "full", 45222, 96, "race=White"},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d:\n%s", len(rows), len(want), out)
	}
	for i, w := range want {
		r := rows[i]
		if r["name"] != w.name || r["preset"] != w.preset || r["rows"] != float64(w.rows) || r["dim"] != float64(w.dim) || r["a1"] != w.a1 {
			t.Errorf("row %d = %v, want %s %q: %d rows, dim %d, a1 %s", i, r, w.name, w.preset, w.rows, w.dim, w.a1)
		}
		for _, k := range []string{"p_y", "p_a", "p_y_a0", "p_y_a1"} {
			if p, ok := r[k].(float64); !ok || !(p > 0 && p < 1) {
				t.Errorf("row %d: %s = %v, want a probability", i, k, r[k])
			}
		}
	}
	if p := rows[0]["p_y"].(float64); p != 2809.0/6172 {
		t.Errorf("compas P(y=1) = %v, want 2809/6172", p)
	}
}

func TestDatasetsTable(t *testing.T) {
	out, _, err := runFP(t, "datasets")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[0], "NAME") || !strings.Contains(out, "P(y=1|a=1)") {
		t.Fatalf("table:\n%s", out)
	}
	for _, want := range []string{"compas", "6172", "two_year_recid=1", "adult-race", "full", "45222", "income=>50K"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestDatasetsDataDirError(t *testing.T) {
	dir := t.TempDir()
	// An empty data folder: the error names the missing file.
	_, _, err := runFP(t, "datasets", "--data-dir", dir)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "compas-scores-two-years.csv")) {
		t.Fatalf("error %v, want one naming the missing file", err)
	}
	oneLine(t, err.Error())
	// A damaged file: the error names file, line and column.
	if err := os.WriteFile(filepath.Join(dir, "compas-scores-two-years.csv"), []byte("sex,age\nMale,30\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runFP(t, "datasets", "--data-dir", dir)
	if err == nil || !strings.Contains(err.Error(), "line 1") || !strings.Contains(err.Error(), "age_cat") {
		t.Fatalf("error %v, want one naming the missing column", err)
	}
}
