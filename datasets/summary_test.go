package datasets

import (
	"strings"
	"testing"
)

func TestSummaries(t *testing.T) {
	got, err := Summaries("")
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name, preset string
		rows, dim    int
		a1, y1       string
	}{
		{"compas", "", 6172, 12, "race=African-American", "two_year_recid=1"},
		{"adult-sex", "paper", 30940, 93, "sex=Male", "income=>50K"},
		{"adult-sex", "full", 45222, 96, "sex=Male", "income=>50K"},
		{"adult-race", "paper", 30940, 93, "race=White", "income=>50K"},
		{"adult-race", "full", 45222, 96, "race=White", "income=>50K"},
		{"compas-race4", "", 6172, 12, "race=African-American", "two_year_recid=1"},
		{"adult-race5", "full", 45222, 96, "race=White", "income=>50K"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d summaries, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Name != w.name || g.Preset != w.preset || g.Rows != w.rows || g.Dim != w.dim || g.A1 != w.a1 || g.Y1 != w.y1 || !(g.PY > 0 && g.PY < 1) {
			t.Errorf("summary %d = %+v, want %+v", i, g, w)
		}
	}
	for i, g := range got {
		if want := i >= 5; (g.Groups != nil) != want {
			t.Errorf("summary %d (%s): groups %+v", i, g.Name, g.Groups)
		}
	}
	if g := got[5].Groups; len(g) != 4 || g[0] != (GroupCount{Level: "African-American", Rows: 3175, PY: got[0].PYA1}) {
		t.Errorf("compas-race4 groups %+v", g)
	}
	if _, err := Summaries(t.TempDir()); err == nil {
		t.Error("a data folder without the files: no error")
	}
}

func TestWriteSummaries(t *testing.T) {
	var b strings.Builder
	rows := []Summary{
		{Name: "compas", Stats: Stats{Rows: 6172, Dim: 12, PY: 0.5}, A1: "race=African-American", Y1: "two_year_recid=1"},
		{Name: "adult-sex", Preset: "full", Stats: Stats{Rows: 45222}},
		{Name: "compas-race4", Stats: Stats{Rows: 6172}, Groups: []GroupCount{{"African-American", 3175, 0.52314}, {"other", 2997, 0.4}}},
	}
	if err := WriteSummaries(&b, rows); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 5 || lines[4] != `compas-race4 groups: African-American 3175 (P(y=1) 0.5231), other 2997 (P(y=1) 0.4000)` {
		t.Errorf("groups:\n%s", b.String())
	}
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "NAME") ||
		!strings.HasPrefix(lines[1], "compas        -") || !strings.Contains(lines[1], "0.5000") ||
		!strings.Contains(lines[2], "full") || !strings.Contains(lines[2], "45222") {
		t.Errorf("table:\n%s", b.String())
	}
}
