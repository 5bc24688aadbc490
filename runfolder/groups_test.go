package runfolder

import (
	"reflect"
	"testing"

	"github.com/fpareto/fp/datasets"
)

func TestGroupOptions(t *testing.T) {
	for _, tc := range []struct {
		levels []string
		min    int
		want   datasets.GroupOptions
	}{
		{nil, 0, datasets.GroupOptions{}},
		{[]string{"all"}, 0, datasets.GroupOptions{All: true}},
		{[]string{"all"}, 40, datasets.GroupOptions{All: true, MinRows: 40}},
		{[]string{"a", "b"}, 0, datasets.GroupOptions{Levels: []string{"a", "b"}}},
		{[]string{"all", "b"}, 0, datasets.GroupOptions{Levels: []string{"all", "b"}}},
		{nil, 5, datasets.GroupOptions{MinRows: 5}},
	} {
		if got := GroupOptions(tc.levels, tc.min); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("GroupOptions(%q, %d) = %+v, want %+v", tc.levels, tc.min, got, tc.want)
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
}
