package runfolder

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fpareto/fp/datasets"
)

func TestGroupOptions(t *testing.T) {
	for _, tc := range []struct {
		levels   []string
		min      int
		groupMap []string
		want     datasets.GroupOptions
		err      string
	}{
		{nil, 0, nil, datasets.GroupOptions{}, ""},
		{[]string{"all"}, 0, nil, datasets.GroupOptions{All: true}, ""},
		{[]string{"all"}, 40, nil, datasets.GroupOptions{All: true, MinRows: 40}, ""},
		{[]string{"a", "b"}, 0, nil, datasets.GroupOptions{Levels: []string{"a", "b"}}, ""},
		{[]string{"all", "b"}, 0, nil, datasets.GroupOptions{Levels: []string{"all", "b"}}, ""},
		{nil, 5, nil, datasets.GroupOptions{MinRows: 5}, ""},
		{nil, 0, []string{"b = B", "a=A"}, datasets.GroupOptions{Map: []datasets.GroupMapping{{Value: "b", Group: "B"}, {Value: "a", Group: "A"}}}, ""},
		{[]string{"A"}, 0, []string{"a=A", "b"}, datasets.GroupOptions{}, `--group-map: "b" has no "="`},
	} {
		got, err := GroupOptions(tc.levels, tc.min, tc.groupMap)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("GroupOptions(%q, %d, %q): err %v, want %q", tc.levels, tc.min, tc.groupMap, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("GroupOptions(%q, %d, %q) = %+v, %v, want %+v", tc.levels, tc.min, tc.groupMap, got, err, tc.want)
		}
	}
	// A configuration without groups has the digest it had before they
	// existed; with them, another.
	c := Config{Dataset: "compas", Method: MethodCheb, Penalty: "ato-penultimate", Lambdas: "log:15", Splits: 2, Epochs: 500, Seed: 1}
	g := c
	g.SensitiveLevels = []string{"all"}
	if c.Digest() == g.Digest() {
		t.Error("groups do not change the digest")
	}
	m := g
	m.GroupMap = []string{"Asian=other"}
	if m.Digest() == g.Digest() {
		t.Error("a map of groups does not change the digest")
	}
}
