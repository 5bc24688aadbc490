package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fpareto/fp/runfolder"
)

// fp train with --group-map trains the groups of the map: the records'
// sensitive key names them, the configuration keeps the map (a config
// file may give it as a list), and a bad map is refused in one line before
// any folder is written.
func TestTrainGroupMap(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x,g,y\n")
	for i := range 320 {
		fmt.Fprintf(&b, "%d,%s,%d\n", i%17, []string{"a", "b", "c", "d"}[i%4], i/4%2)
	}
	data := filepath.Join(dir, "d.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	common := []string{"--data", data, "--target", "y", "--sensitive", "g", "--quiet", "--no-plot",
		"--epochs", "1", "--splits", "1", "--lambdas", "0,1", "--propensity-epochs", "1", "--engine", "backprop"}
	cfgFile := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(cfgFile, []byte("group-map: [c=c or d, d=c or d]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"flag", []string{"--group-map", "c=c or d, d=c or d"}},
		{"config file", []string{"--config", cfgFile}},
	} {
		out := filepath.Join(dir, tc.name)
		stdout, stderr, err := runFP(t, append(append([]string{"train", "--out", out}, common...), tc.args...)...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.name, err, stderr)
		}
		if want := `3 groups of g: "a", "b", "c or d"`; !strings.Contains(stdout, want) {
			t.Errorf("%s: no %q in\n%s", tc.name, want, stdout)
		}
		c, err := runfolder.ReadConfig(out)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"c=c or d", "d=c or d"}; !slices.Equal(c.GroupMap, want) || c.SensitiveLevels != nil {
			t.Errorf("%s: config group_map %q, sensitive_levels %q; want %q and none", tc.name, c.GroupMap, c.SensitiveLevels, want)
		}
		recs, err := runfolder.ReadRecords(out)
		if err != nil || len(recs) != 2 {
			t.Fatalf("%s: %d records: %v", tc.name, len(recs), err)
		}
		for _, r := range recs {
			if r.Sensitive != "g[a|b|c or d]" || r.GroupCounts["c or d"] == 0 {
				t.Errorf("%s: record sensitive %q, counts %v", tc.name, r.Sensitive, r.GroupCounts)
			}
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--group-map", "c"}, `--group-map: "c" has no "="; write VALUE=GROUP`},
		{[]string{"--group-map", "e=x"}, `--group-map: "e" is not a value of the column g`},
		{[]string{"--group-map", "c=x,c=y"}, `--group-map: the value "c" is mapped twice`},
		{[]string{"--group-map", "c=x", "--sensitive-positive", "a"}, "--sensitive-positive codes one value against the rest"},
	} {
		out := filepath.Join(dir, "bad")
		_, _, err := runFP(t, append(append([]string{"train", "--out", out}, common...), tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want %q", tc.args, err, tc.want)
			continue
		}
		oneLine(t, err.Error())
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: the run folder was created", tc.args)
		}
	}
}

// fp datasets export with --group-map writes each row's mapped group; a
// dataset with fixed groups refuses a map.
func TestDatasetsExportGroupMap(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c.csv")
	_, stderr, err := runFP(t, "datasets", "export", "compas", "--out", out,
		"--group-map", "Asian=Asian or Native American,Native American=Asian or Native American")
	if err != nil {
		t.Fatal(err)
	}
	if want := `race: the groups "African-American", "Asian or Native American", "Caucasian", "Hispanic", "Other"`; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(string(b), ",Asian or Native American\n")
	if n != 42 || strings.Contains(string(b), ",Asian\n") || strings.Contains(string(b), ",Native American\n") {
		t.Errorf("%d rows of the mapped group (want 42), or a mapped value left", n)
	}
	_, _, err = runFP(t, "datasets", "export", "compas-race4", "--out", out, "--group-map", "Asian=other")
	if err == nil || !strings.Contains(err.Error(), "--sensitive-levels and --group-map choose groups of compas") {
		t.Errorf("compas-race4 with a map: %v", err)
	}
	_, _, err = runFP(t, "datasets", "export", "compas", "--out", out, "--group-map", "Asian")
	if err == nil || !strings.Contains(err.Error(), `--group-map: "Asian" has no "="`) {
		t.Errorf("an entry without =: %v", err)
	}
}
