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
		{"compas-race4", "", 6172, 12, "race=African-American"},
		{"adult-race5", "full", 45222, 96, "race=White"},
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
	// Only the datasets with groups list them.
	for i, r := range rows {
		if _, ok := r["groups"]; ok != (i >= 5) {
			t.Errorf("row %d (%v): groups %v", i, r["name"], r["groups"])
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
	if len(lines) != 10 || !strings.HasPrefix(lines[0], "NAME") || !strings.Contains(out, "P(y=1|a=1)") {
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

// fp datasets export writes the rows fp trains on with the columns a
// network reads, says what 1 means, replaces its own output, and never
// writes over the file it reads.
func TestDatasetsExport(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "compas.csv")
	for range 2 { // the second run replaces the first file
		_, stderr, err := runFP(t, "datasets", "export", "compas", "--out", out)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(stderr, `wrote 6172 rows of compas to `+out+` (two_year_recid: 1 means "1"; race: 1 means "African-American", 0 any other value)`) {
			t.Errorf("stderr %q", stderr)
		}
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if lines[0] != "fp_row,age,juv_fel_count,juv_misd_count,juv_other_count,priors_count,sex,age_cat,c_charge_degree,two_year_recid,race" ||
		len(lines) != 6173 {
		t.Errorf("header %q, %d rows", lines[0], len(lines)-1)
	}

	orig := filepath.Join(dir, "compas-scores-two-years.csv")
	os.WriteFile(orig, []byte("original"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"compas", "--data-dir", dir, "--out", orig}, "is the file the data is read from"},
		{[]string{"compas", "--out", dir}, "is a folder"},
		{[]string{"compass", "--out", out}, `unknown dataset "compass"`},
		{[]string{"adult-sex", "--preset", "half", "--out", out}, `unknown preset "half"`},
		{[]string{"compas", "adult-sex", "--out", out}, "name one built-in dataset (2 given)"},
		{[]string{"--out", out}, "name one built-in dataset (0 given)"},
	} {
		_, _, err := runFP(t, append([]string{"datasets", "export"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.args, err, tc.want)
			continue
		}
		oneLine(t, err.Error())
	}
	if b, _ := os.ReadFile(orig); string(b) != "original" {
		t.Errorf("the input was overwritten: %q", b)
	}
}
