package datasets

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// A map puts values in named groups before the levels and the minimum
// count act: groupsCSV's g has A (40 rows), B (40), C (35), D (10) and E
// (25).
func TestGroupMap(t *testing.T) {
	path := groupsCSV(t)
	m := func(pairs ...string) []GroupMapping {
		var out []GroupMapping
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, GroupMapping{Value: pairs[i], Group: pairs[i+1]})
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		opt    CSVOptions
		levels []string
		counts []int
		notes  []string // text each note must contain, in order
		a1     string   // the level coded a = 1
	}{
		{name: "two values in a named group, every group without --sensitive-levels",
			opt:    CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{Map: m("D", "DE", "E", "DE")}},
			levels: []string{"A", "B", "C", "DE"}, counts: []int{40, 40, 35, 35}, a1: "DE"},
		{name: "a mapped group in the place of its first value",
			opt:    CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{All: true, Map: m("E", "AE", "A", "AE"), MinRows: 5}},
			levels: []string{"AE", "B", "C", "D"}, counts: []int{65, 40, 35, 10}, a1: "D"},
		{name: "a mapped group below the minimum joins other",
			opt:    CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{Levels: []string{"A", "B", "Rare"}, Map: m("D", "Rare"), MinRows: 20}},
			levels: []string{"A", "B", OtherLevel}, counts: []int{40, 40, 70},
			notes: []string{`group "Rare" has 10 rows, fewer than 20 (--min-group-rows): it joins the group "other"`}, a1: "B"},
		{name: "--sensitive-levels names the mapped groups",
			opt:    CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{Levels: []string{"CD", "A"}, Map: m("C", "CD", "D", "CD")}},
			levels: []string{"CD", "A", OtherLevel}, counts: []int{45, 40, 65}, a1: "CD"},
		{name: "a group named other, in any case, is the rest",
			opt:    CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{All: true, Map: m("D", "Other", "E", "OTHER")}},
			levels: []string{"A", "B", "C", OtherLevel}, counts: []int{40, 40, 35, 35}, a1: "C"},
		{name: "onto another value's group",
			opt:    CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{All: true, Map: m("D", "A"), MinRows: 20}},
			levels: []string{"A", "B", "C", "E"}, counts: []int{50, 40, 35, 25}, a1: "E"},
		{name: "intersection, combinations written with * or ×",
			opt: CSVOptions{Target: "y", Sensitive: "g,s", Groups: GroupOptions{
				Map: m("D*F", "D", "D × M", "D", "E*F", "E", "E×M", "E"), MinRows: 10}},
			levels: []string{"A × F", "A × M", "B × F", "B × M", "C × F", "C × M", "D", "E"},
			counts: []int{26, 14, 26, 14, 23, 12, 10, 25}, a1: "E"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := LoadCSV(path, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(d.Levels, tc.levels) {
				t.Fatalf("levels %q, want %q", d.Levels, tc.levels)
			}
			var counts []int
			for _, g := range d.GroupCounts() {
				counts = append(counts, g.Rows)
			}
			if !reflect.DeepEqual(counts, tc.counts) {
				t.Errorf("counts %v, want %v", counts, tc.counts)
			}
			if len(d.GroupNotes) != len(tc.notes) {
				t.Fatalf("notes %q, want %d", d.GroupNotes, len(tc.notes))
			}
			for i, n := range tc.notes {
				if !strings.Contains(d.GroupNotes[i], n) {
					t.Errorf("note %q, want %q", d.GroupNotes[i], n)
				}
			}
			if d.GroupPositive != tc.a1 {
				t.Errorf("a = 1 is %q, want %q", d.GroupPositive, tc.a1)
			}
		})
	}
}

// The order of the map's entries changes nothing; a map that changes the
// groups changes the identity, and one that gives the groups of a list
// has its identity (the identity is of the groups, docs/method.md §1.8).
func TestGroupMapIdentity(t *testing.T) {
	path := groupsCSV(t)
	load := func(g GroupOptions) *Dataset {
		t.Helper()
		d, err := LoadCSV(path, CSVOptions{Target: "y", Sensitive: "g", Groups: g})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	ab := load(GroupOptions{All: true, Map: []GroupMapping{{"D", "X"}, {"E", "X"}, {"A", "Y"}}})
	ba := load(GroupOptions{All: true, Map: []GroupMapping{{"A", "Y"}, {"E", "X"}, {"D", "X"}}})
	if ab.ID != ba.ID || !slices.Equal(ab.Levels, ba.Levels) || !slices.Equal(ab.Groups, ba.Groups) {
		t.Errorf("the order of the map changes the groups: %q %s, %q %s", ab.Levels, ab.ID, ba.Levels, ba.ID)
	}
	all := load(GroupOptions{All: true})
	if ab.ID == all.ID {
		t.Errorf("a map that changes the groups keeps the identity %s", ab.ID)
	}
	// D and E are rare (10, 25 rows): merged into other by the minimum, or
	// by the map, they are the same groups.
	mapped := load(GroupOptions{All: true, Map: []GroupMapping{{"D", "other"}, {"E", "other"}}})
	if mapped.ID != all.ID || !slices.Equal(mapped.Groups, all.Groups) || mapped.GroupNotes != nil {
		t.Errorf("mapped to other: id %s groups %q notes %q; merged by the minimum: %s %q", mapped.ID, mapped.Levels, mapped.GroupNotes, all.ID, all.Levels)
	}
}

func TestGroupMapRefusals(t *testing.T) {
	path := groupsCSV(t)
	for _, tc := range []struct {
		name string
		opt  CSVOptions
		want []string
	}{
		{"a value not in the column, a close one", CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{Map: []GroupMapping{{"a", "X"}}}},
			[]string{`--group-map: "a" is not a value of the column g; did you mean "A"?`}},
		{"a value not in the column", CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{Map: []GroupMapping{{"zzzz", "X"}}}},
			[]string{`--group-map: "zzzz" is not a value of the column g (values: "A", "B", "C", "D", "E")`}},
		{"a combination not in the columns", CSVOptions{Target: "y", Sensitive: "g,s", Groups: GroupOptions{Map: []GroupMapping{{"A*X", "X"}}}},
			[]string{`--group-map: "A*X" is not a value of the columns g, s`}},
		{"an empty value", CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{Map: []GroupMapping{{"", "X"}}}},
			[]string{`--group-map: "=X" has an empty value`}},
		{"an empty group", CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{Map: []GroupMapping{{"A", ""}}}},
			[]string{`--group-map: "A=" has an empty group`}},
		{"a value mapped twice", CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{Map: []GroupMapping{{"D", "X"}, {"D", "Y"}}}},
			[]string{`--group-map: the value "D" is mapped twice, to "X" and to "Y"`}},
		{"a combination mapped twice", CSVOptions{Target: "y", Sensitive: "g,s", Groups: GroupOptions{Map: []GroupMapping{{"D*F", "X"}, {"D × F", "X"}}}},
			[]string{`the value "D × F" is mapped twice`}},
		{"a group that is a value mapped elsewhere", CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{Map: []GroupMapping{{"D", "E"}, {"E", "F"}}}},
			[]string{`--group-map: "E" is the group of "D" and a value mapped to "F"`}},
		{"a level that the map put in a group", CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{Levels: []string{"A", "D"}, Map: []GroupMapping{{"D", "X"}}}},
			[]string{`--sensitive-levels: "D" is in the group "X" of --group-map; list the group`}},
		{"every value to other", CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{Map: []GroupMapping{{"A", "other"}, {"B", "other"}, {"C", "other"}, {"D", "other"}, {"E", "other"}}}},
			[]string{`a single group "other" of 150 rows`}},
		{"other below the minimum", CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{Map: []GroupMapping{{"D", "other"}}, MinRows: 20}},
			[]string{`the group "other" ("other") has 10 rows, fewer than 20 (--min-group-rows)`}},
		{"with --sensitive-positive", CSVOptions{Target: "y", Sensitive: "g", SensitivePositive: "A", Groups: GroupOptions{Map: []GroupMapping{{"D", "X"}}}},
			[]string{"--sensitive-positive codes one value against the rest", "--group-map"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadCSV(path, tc.opt)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || !errors.Is(err, ErrGroups) {
				t.Errorf("not one line of ErrGroups: %q", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("%q does not say %q", msg, w)
				}
			}
		})
	}
}

func TestParseGroupMap(t *testing.T) {
	for _, tc := range []struct {
		entries []string
		want    []GroupMapping
		err     string
	}{
		{nil, nil, ""},
		{[]string{"Asian = API", "Pacific Islander=API"}, []GroupMapping{{"Asian", "API"}, {"Pacific Islander", "API"}}, ""},
		{[]string{"Asian"}, nil, `--group-map: "Asian" has no "="; write VALUE=GROUP`},
		{[]string{"a=b=c"}, nil, `--group-map: "a=b=c" has more than one "="`},
	} {
		got, err := ParseGroupMap(tc.entries)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, ErrGroups) {
				t.Errorf("%q: err %v, want %q", tc.entries, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %+v, %v, want %+v", tc.entries, got, err, tc.want)
		}
	}
}

// COMPAS's Asian and Native American rows mapped to other give the groups
// of compas-race4, with its identity; a dataset with fixed groups refuses
// a map.
func TestGroupMapCompas(t *testing.T) {
	d, err := Load("compas", Options{Groups: GroupOptions{All: true, Map: []GroupMapping{{"Asian", "Other"}, {"Native American", "Other"}}}})
	if err != nil {
		t.Fatal(err)
	}
	race4, err := Load("compas-race4", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Levels, race4.Levels) || !slices.Equal(d.Groups, race4.Groups) || d.ID != race4.ID {
		t.Errorf("levels %q, id %s; compas-race4 %q, %s", d.Levels, d.ID, race4.Levels, race4.ID)
	}
	if len(d.GroupNotes) != 1 || !strings.Contains(d.GroupNotes[0], `the value "Other" (343 rows) joins the group "other"`) {
		t.Errorf("notes %q", d.GroupNotes)
	}
	// Asian (31 rows) and Native American (11) are each rarer than 30,
	// together a group.
	an, err := Load("compas", Options{Groups: GroupOptions{All: true, Map: []GroupMapping{{"Asian", "Asian or Native American"}, {"Native American", "Asian or Native American"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"African-American", "Asian or Native American", "Caucasian", "Hispanic", "Other"}; !slices.Equal(an.Levels, want) {
		t.Errorf("levels %q, want %q", an.Levels, want)
	} else if n := an.GroupCounts()[1].Rows; n != 42 || an.GroupNotes != nil {
		t.Errorf("Asian or Native American: %d rows, want 42; notes %q", n, an.GroupNotes)
	}
	_, err = Load("compas-race4", Options{Groups: GroupOptions{Map: []GroupMapping{{"Asian", "other"}}}})
	if err == nil || !strings.Contains(err.Error(), "--sensitive-levels and --group-map choose groups of compas") {
		t.Errorf("compas-race4 with a map: %v", err)
	}
}
