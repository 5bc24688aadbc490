package datasets

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// ruleCSV has a feature x, a label y, a column region with the values
// east (80 rows), west (80), north (60), Other (40) and tiny (5), and a
// column sex, F on three rows of four.
func ruleCSV(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("x,y,region,sex\n")
	i := 0
	for _, v := range []struct {
		region string
		n      int
	}{{"east", 80}, {"west", 80}, {"north", 60}, {"Other", 40}, {"tiny", 5}} {
		for k := range v.n {
			sex := "F"
			if k%4 == 0 {
				sex = "M"
			}
			fmt.Fprintf(&b, "%d,%d,%s,%s\n", i, k%2, v.region, sex)
			i++
		}
	}
	return writeCSV(t, b.String())
}

// The rule gives every row of a dataset with groups the group setGroups
// gave it, from the row's raw values: for intersections, maps (to a group
// of the user's naming and to "other" in another case), rare values merged
// into other, and a value named "Other".
func TestGroupRuleMatchesSetGroups(t *testing.T) {
	path := ruleCSV(t)
	tab, err := readFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, sensitive string
		levels          []string
		all             bool
		minRows         int
		groupMap        []string
		want            []string // the levels setGroups forms
	}{
		{name: "intersection, a map, rare combinations merged", sensitive: "region,sex",
			groupMap: []string{"east*F=east/west F", "west × F=east/west F"},
			want:     []string{"Other × F", "east/west F", "north × F", OtherLevel}},
		{name: "intersection, a combination mapped to OTHER", sensitive: "region,sex", all: true, minRows: 3,
			groupMap: []string{"north*M=OTHER"},
			want:     []string{"Other × F", "Other × M", "east × F", "east × M", "north × F", "tiny × F", "west × F", "west × M", OtherLevel}},
		{name: "one column, a rare value merged, Other joins other", sensitive: "region", all: true,
			want: []string{"east", "north", "west", OtherLevel}},
		{name: "one column, Other a group of its own", sensitive: "region", all: true, minRows: 3,
			want: []string{"Other", "east", "north", "tiny", "west"}},
		{name: "one column, values listed", sensitive: "region", levels: []string{"west", "east"},
			want: []string{"west", "east", OtherLevel}},
		{name: "one column, a value mapped to Other", sensitive: "region", minRows: 3, groupMap: []string{"tiny=Other"},
			want: []string{"east", "north", "west", OtherLevel}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ParseGroupMap(tc.groupMap)
			if err != nil {
				t.Fatal(err)
			}
			d, err := LoadCSV(path, CSVOptions{Target: "y", Sensitive: tc.sensitive,
				Groups: GroupOptions{All: tc.all, Levels: tc.levels, MinRows: tc.minRows, Map: m}})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(d.Levels, "|") != strings.Join(tc.want, "|") {
				t.Fatalf("levels %q, want %q", d.Levels, tc.want)
			}
			if d.N != tab.rows() {
				t.Fatalf("%d rows kept of %d", d.N, tab.rows())
			}
			checkRule(t, d, tc.groupMap, func(r int, col string) string { return tab.column(col).value(r) })
		})
	}
}

// The same for the built-in compas-race4: Asian, Native American and Other
// in the group other.
func TestGroupRuleCompasRace4(t *testing.T) {
	d, err := Load("compas-race4", Options{})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := source(compasFile, "")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := compasRows(tab)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != d.N {
		t.Fatalf("%d rows kept, the dataset has %d", len(rows), d.N)
	}
	checkRule(t, d, nil, func(r int, col string) string { return tab.column(col).value(rows[r]) })
}

// checkRule checks that the rule of d's groups gives each row r, from the
// raw values value(r, column), the level setGroups gave it.
func checkRule(t *testing.T, d *Dataset, groupMap []string, value func(r int, col string) string) {
	t.Helper()
	g, err := NewGroupRule(d.Levels, d.GroupColumns, groupMap)
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]string, len(d.GroupColumns))
	seen := map[string]int{}
	for r := range d.N {
		for j, c := range d.GroupColumns {
			vals[j] = value(r, c)
		}
		got, err := g.Group(vals)
		if want := d.Levels[d.Groups[r]]; err != nil || got != want {
			t.Fatalf("row %d, values %q: group %q (%v), want %q", r, vals, got, err, want)
		}
		seen[got]++
	}
	if len(seen) != len(d.Levels) {
		t.Errorf("rows in %d groups, want %d", len(seen), len(d.Levels))
	}
}

// Values the training did not see join other when there is such a group,
// and are refused, naming them and the groups, when there is none; an
// empty value and a wrong count of values are refused.
func TestGroupRuleNewValues(t *testing.T) {
	withOther, err := NewGroupRule([]string{"a × F", "b × F", OtherLevel}, []string{"g", "s"}, []string{"c*M=b*F"})
	if err != nil {
		t.Fatal(err)
	}
	without, err := NewGroupRule([]string{"a", "b"}, []string{"g"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rule   *GroupRule
		values []string
		want   string
		err    error
		msg    string
	}{
		{rule: withOther, values: []string{"a", "F"}, want: "a × F"},
		{rule: withOther, values: []string{"c", "M"}, want: "b × F"},
		{rule: withOther, values: []string{"z", "F"}, want: OtherLevel},
		{rule: without, values: []string{"z"}, err: ErrGroups, msg: `"z" is not one of the network's groups ("a", "b")`},
		{rule: without, values: []string{""}, err: ErrEmptyCell, msg: "sensitive column g"},
		{rule: withOther, values: []string{"a"}, err: ErrGroups, msg: "1 values for the 2 group columns g, s"},
	} {
		got, err := tc.rule.Group(tc.values)
		if tc.err == nil {
			if err != nil || got != tc.want {
				t.Errorf("%q: %q, %v; want %q", tc.values, got, err, tc.want)
			}
			continue
		}
		if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.msg) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v, want %v with %q on one line", tc.values, err, tc.err, tc.msg)
		}
	}
	if _, err := NewGroupRule([]string{"a"}, []string{"g"}, nil); !errors.Is(err, ErrGroups) {
		t.Errorf("one level: %v", err)
	}
	if _, err := NewGroupRule([]string{"a", "b"}, []string{"g"}, []string{"a"}); !errors.Is(err, ErrGroups) {
		t.Errorf("a map entry without =: %v", err)
	}
}
