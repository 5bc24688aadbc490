package records

import (
	"slices"
	"testing"
)

func TestGroupsByRun(t *testing.T) {
	rec := func(method, penalty, lambdas, engine, source, config string) Record {
		return Record{Method: method, Penalty: penalty, Lambdas: lambdas, Engine: engine, Source: source, Config: config}
	}
	for _, tc := range []struct {
		name string
		recs []Record
		want []string
	}{
		{"distinct methods", []Record{
			rec("cheb", "ato-all", "log:100", "graph", "a.jsonl", "c1"),
			rec("cheb", "ato-all", "log:100", "graph", "a.jsonl", "c1"),
			rec("linear", "ato-all", "log:100", "graph", "b.jsonl", "c2"),
		}, []string{"cheb/ato-all", "linear/ato-all"}},
		{"grids differ", []Record{
			rec("cheb", "ato-all", "log:100", "graph", "a.jsonl", "c1"),
			rec("cheb", "ato-all", "log:10", "graph", "b.jsonl", "c2"),
		}, []string{"cheb/ato-all (lambdas=log:10)", "cheb/ato-all (lambdas=log:100)"}},
		{"engines differ", []Record{
			rec("cheb", "ato-all", "log:100", "graph", "a.jsonl", "c1"),
			rec("cheb", "ato-all", "log:100", "backprop", "b.jsonl", "c2"),
		}, []string{"cheb/ato-all (backprop)", "cheb/ato-all (graph)"}},
		{"only the files differ", []Record{
			rec("cheb", "ato-all", "log:100", "graph", "runs/epochs-100", "c1"),
			rec("cheb", "ato-all", "log:100", "graph", "runs/epochs-500/records.jsonl", "c2"),
		}, []string{"cheb/ato-all (epochs-100)", "cheb/ato-all (records)"}},
		{"nothing but the digest", []Record{
			rec("cheb", "ato-all", "log:100", "graph", "a.jsonl", "c1"),
			rec("cheb", "ato-all", "log:100", "graph", "a.jsonl", "c2"),
		}, []string{"cheb/ato-all (config=c1)", "cheb/ato-all (config=c2)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ParseGrouping(DefaultGrouping)
			if err != nil {
				t.Fatal(err)
			}
			got := Groups(tc.recs, g)
			var names []string
			n := 0
			for k, rs := range got {
				names = append(names, k)
				n += len(rs)
			}
			slices.Sort(names)
			if !slices.Equal(names, tc.want) || n != len(tc.recs) {
				t.Errorf("groups %v holding %d records, want %v holding %d", names, n, tc.want, len(tc.recs))
			}
		})
	}
	// Grouped by method alone, two configurations pool.
	g, _ := ParseGrouping("method")
	if got := Groups([]Record{rec("cheb", "a", "", "", "", "c1"), rec("cheb", "b", "", "", "", "c2")}, g); len(got) != 1 {
		t.Errorf("by method: %v", got)
	}
}

// Records written before a field was recorded carry "" for it, which tells
// no configurations apart: the next attribute that differs names the runs.
func TestGroupsSkipAbsentAttributes(t *testing.T) {
	recs := []Record{
		{Method: "adversarial", Config: "old", Lambdas: ""},
		{Method: "adversarial", Config: "new", Lambdas: "log:15", AdvVersion: 2},
	}
	g := Groups(recs, Grouping{"run"})
	for _, want := range []string{"adversarial (adversary=v1)", "adversarial (adversary=v2)"} {
		if len(g[want]) != 1 {
			t.Errorf("groups %v: want %q", keys(g), want)
		}
	}
}

func keys(g map[string][]Record) []string {
	var out []string
	for k := range g {
		out = append(out, k)
	}
	return out
}
