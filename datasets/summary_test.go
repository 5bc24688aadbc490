package datasets

import "testing"

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
	if _, err := Summaries(t.TempDir()); err == nil {
		t.Error("a data folder without the files: no error")
	}
}
