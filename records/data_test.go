package records

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestByData(t *testing.T) {
	rec := func(dataset, preset, sensitive, id string) Record {
		return Record{Dataset: dataset, Preset: preset, Sensitive: sensitive, DataID: id}
	}
	for _, tc := range []struct {
		name string
		recs []Record
		want []string // the labels, then each group's size, as "label:n"
	}{
		{"one file under two names", []Record{rec("before.csv", "", "g", "aa"), rec("after.csv", "", "g", "aa")},
			[]string{"before.csv, after.csv (g):2"}},
		{"one name, other rows", []Record{rec("d.csv", "", "g", "aa"), rec("d.csv", "", "g", "bb")},
			[]string{"d.csv (g) [data_id aa]:1", "d.csv (g) [data_id bb]:1"}},
		{"two datasets", []Record{rec("compas", "", "race", "c1"), rec("adult-sex", "paper", "sex", "a1"), rec("compas", "", "race", "c1")},
			[]string{"compas (race):2", "adult-sex:1"}},
		{"records without identity", []Record{rec("compas", "", "race", ""), rec("adult-sex", "paper", "sex", "")},
			[]string{"compas (race):1", "adult-sex:1"}},
		{"presets of one dataset", []Record{rec("adult-sex", "paper", "sex", ""), rec("adult-sex", "full", "sex", "")},
			[]string{"adult-sex [preset paper]:1", "adult-sex [preset full]:1"}},
		// Today's records join the records of the same dataset that carry
		// the identity.
		{"old and new", []Record{rec("compas", "", "race", ""), rec("compas", "", "race", "c1"), rec("compas", "", "race", "")},
			[]string{"compas (race):3"}},
		{"old beside two identities of one name", []Record{rec("d.csv", "", "g", ""), rec("d.csv", "", "g", "aa"), rec("d.csv", "", "g", "bb")},
			[]string{"d.csv (g) [no data_id]:1", "d.csv (g) [data_id aa]:1", "d.csv (g) [data_id bb]:1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, g := range ByData(tc.recs) {
				got = append(got, g.Label+":"+string(rune('0'+len(g.Records))))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestOneDataPerGroup(t *testing.T) {
	mixed := []Record{{Dataset: "compas", Sensitive: "race", DataID: "c1"}, {Dataset: "adult-sex", Preset: "paper", Sensitive: "sex", DataID: "a1"}}
	_, err := OneDataPerGroup(mixed, Grouping{"run"}, "--by dataset,run")
	var me *MixedDataError
	if !errors.As(err, &me) || err.Error() != "the records are of 2 datasets (compas (race); adult-sex): a front or a comparison is of one "+
		"dataset's candidates; give one dataset's runs, or keep the datasets apart with --by dataset,run" {
		t.Errorf("got %v", err)
	}
	if _, err := OneDataPerGroup(mixed, Grouping{"run"}, ""); err == nil || strings.Contains(err.Error(), "--by") {
		t.Errorf("no escape: got %v", err)
	}
	if g, err := OneDataPerGroup(mixed, Grouping{"dataset", "run"}, "--by dataset,run"); err != nil || len(g) != 2 {
		t.Errorf("grouped by dataset: %d groups, %v", len(g), err)
	}
	sameName := []Record{{Dataset: "d.csv", Sensitive: "g", DataID: "aa"}, {Dataset: "d.csv", Sensitive: "g", DataID: "bb"}}
	g, err := OneDataPerGroup(sameName, Grouping{"dataset"}, "--by dataset")
	if err != nil || len(g) != 2 {
		t.Fatalf("one name, two datasets, grouped by dataset: %d groups, %v", len(g), err)
	}
	if err := NamesApart(g); err == nil || !strings.Contains(err.Error(), "two of them named d.csv") {
		t.Errorf("one name, two datasets, kept apart by name: %v", err)
	}
	if err := NamesApart(ByData(mixed)); err != nil {
		t.Errorf("two names: %v", err)
	}
	renamed := []Record{{Dataset: "a.csv", Sensitive: "g", DataID: "aa"}, {Dataset: "b.csv", Sensitive: "g", DataID: "aa"}}
	if g, err := OneDataPerGroup(renamed, Grouping{"run"}, "--by dataset,run"); err != nil || len(g) != 1 {
		t.Errorf("one dataset under two names: %d groups, %v", len(g), err)
	}
}
