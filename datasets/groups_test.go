package datasets

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// groupsCSV has a feature x, a label y, a sensitive column g with the
// values A (40 rows), B (40), C (35), D (10) and E (25), and a second
// column s (F or M) for intersections. Each value has both labels.
func groupsCSV(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("x,y,g,s\n")
	i := 0
	for _, v := range []struct {
		g string
		n int
	}{{"A", 40}, {"B", 40}, {"C", 35}, {"D", 10}, {"E", 25}} {
		for k := range v.n {
			s := "F"
			if k%3 == 0 {
				s = "M"
			}
			fmt.Fprintf(&b, "%d,%d,%s,%s\n", i, k%2, v.g, s)
			i++
		}
	}
	return writeCSV(t, b.String())
}

func TestGroupLevels(t *testing.T) {
	path := groupsCSV(t)
	for _, tc := range []struct {
		name   string
		opt    CSVOptions
		levels []string
		counts []int
		notes  []string // text each note must contain, in order
		a1     string   // the level coded a = 1
	}{
		{name: "all, rare values merged", opt: CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{All: true}},
			levels: []string{"A", "B", "C", OtherLevel}, counts: []int{40, 40, 35, 35},
			notes: []string{`group "D" has 10 rows, fewer than 30`, `group "E" has 25 rows`}, a1: "C"},
		{name: "all, a lower minimum", opt: CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{All: true, MinRows: 5}},
			levels: []string{"A", "B", "C", "D", "E"}, counts: []int{40, 40, 35, 10, 25}, a1: "E"},
		{name: "listed, in the order given", opt: CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{Levels: []string{"C", "A"}}},
			levels: []string{"C", "A", OtherLevel}, counts: []int{35, 40, 75}, a1: "C"},
		{name: "listed, a rare one merged", opt: CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{Levels: []string{"A", "D"}}},
			levels: []string{"A", OtherLevel}, counts: []int{40, 110}, notes: []string{`group "D" has 10 rows`}, a1: "A"},
		{name: "intersection", opt: CSVOptions{Target: "y", Sensitive: "s,g", Groups: GroupOptions{All: true, MinRows: 1}},
			levels: []string{"F × A", "F × B", "F × C", "F × D", "F × E", "M × A", "M × B", "M × C", "M × D", "M × E"},
			counts: []int{26, 26, 23, 6, 16, 14, 14, 12, 4, 9}, a1: "M × E"},
		{name: "intersection, all by default, rare merged", opt: CSVOptions{Target: "y", Sensitive: "g, s", Groups: GroupOptions{MinRows: 20}},
			levels: []string{"A × F", "B × F", "C × F", OtherLevel}, counts: []int{26, 26, 23, 75},
			notes: []string{`"A × M" has 14 rows, fewer than 20`, `"B × M"`, `"C × M"`, `"D × F"`, `"D × M"`, `"E × F"`, `"E × M"`}, a1: "C × F"},
		{name: "intersection, listed with *", opt: CSVOptions{Target: "y", Sensitive: "g,s", Groups: GroupOptions{Levels: []string{"A*F", "B × F"}, MinRows: 20}},
			levels: []string{"A × F", "B × F", OtherLevel}, counts: []int{26, 26, 98}, a1: "B × F"},
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
				if !strings.Contains(d.GroupNotes[i], n) || strings.Contains(d.GroupNotes[i], "\n") {
					t.Errorf("note %q, want one line with %q", d.GroupNotes[i], n)
				}
			}
			if d.GroupPositive != tc.a1 || d.Schema.SensitivePositive != tc.a1 {
				t.Errorf("a = 1 is %q (schema %q), want %q", d.GroupPositive, d.Schema.SensitivePositive, tc.a1)
			}
			for i, g := range d.Groups {
				if (d.A[i] == 1) != (d.Levels[g] == tc.a1) {
					t.Fatalf("row %d: group %q, a = %g", i, d.Levels[g], d.A[i])
				}
			}
			if slices.Contains(d.Columns, "g") || slices.Contains(d.Columns, "s=F") && strings.Contains(tc.opt.Sensitive, "s") {
				t.Errorf("a sensitive column is a feature: %q", d.Columns)
			}
		})
	}
}

func TestGroupRefusals(t *testing.T) {
	path := groupsCSV(t)
	for _, tc := range []struct {
		name string
		opt  CSVOptions
		want []string
	}{
		{"unknown level", CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{Levels: []string{"A", "Bb"}}},
			[]string{`"Bb" is not a value of the column g`, `did you mean "B"?`}},
		{"unknown level, far", CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{Levels: []string{"zzzz"}}},
			[]string{`"zzzz" is not a value`, `values: "A", "B", "C", "D", "E"`}},
		{"listed twice", CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{Levels: []string{"A", "A"}}},
			[]string{`"A" is listed twice`}},
		{"other listed", CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{Levels: []string{"A", "Other"}}},
			[]string{`"Other" is the name of the group of the values not listed`}},
		{"empty value", CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{Levels: []string{"A", ""}}},
			[]string{"an empty value"}},
		{"other below the minimum", CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{All: true, MinRows: 20}},
			[]string{`the group "other" ("D") has 10 rows, fewer than 20 (--min-group-rows)`}},
		{"a single group", CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{Levels: []string{"A", "B", "C", "D", "E"}, MinRows: 41}},
			[]string{`a single group "other" of 150 rows`, "at least two"}},
		{"with --sensitive-positive", CSVOptions{Target: "y", Sensitive: "g", SensitivePositive: "A", Groups: GroupOptions{All: true}},
			[]string{"--sensitive-positive codes one value against the rest"}},
		{"minimum without groups", CSVOptions{Target: "y", Sensitive: "g", SensitivePositive: "A", Groups: GroupOptions{MinRows: 5}},
			[]string{"--min-group-rows applies to groups"}},
		{"negative minimum", CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{All: true, MinRows: -1}},
			[]string{"--min-group-rows -1: want ≥ 1"}},
		{"all and a list", CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{All: true, Levels: []string{"A"}}},
			[]string{"give all or a list of values, not both"}},
		{"intersection column missing", CSVOptions{Target: "y", Sensitive: "g,t"},
			[]string{`no sensitive column "t"`}},
		{"intersection with the target", CSVOptions{Target: "y", Sensitive: "g,y"},
			[]string{`column "y" cannot be both the target and a sensitive column`}},
		{"intersection column twice", CSVOptions{Target: "y", Sensitive: "g,g"},
			[]string{`column "g" is listed twice`}},
		{"intersection column as a feature", CSVOptions{Target: "y", Sensitive: "g,s", Columns: ColumnChoice{Features: []string{"s"}}},
			[]string{`"s" is the sensitive column`}},
		{"without groups, more than two values", CSVOptions{Target: "y", Sensitive: "g"},
			[]string{"expected exactly two distinct values", "found 5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadCSV(path, tc.opt)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("more than one line: %q", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("%q does not say %q", msg, w)
				}
			}
		})
	}
}

// A value named "other" in any case joins the group of the merged values,
// so that one name is one group; without merged values it is a group.
func TestGroupOtherValue(t *testing.T) {
	var b strings.Builder
	b.WriteString("x,y,g\n")
	for i := range 100 {
		g := "P"
		switch {
		case i < 5:
			g = "Rare"
		case i < 40:
			g = "Other"
		}
		fmt.Fprintf(&b, "%d,%d,%s\n", i, i%2, g)
	}
	path := writeCSV(t, b.String())
	d, err := LoadCSV(path, CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{All: true}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"P", OtherLevel}; !reflect.DeepEqual(d.Levels, want) || len(d.GroupNotes) != 2 ||
		!strings.Contains(d.GroupNotes[1], `the value "Other" (35 rows) joins the group "other"`) {
		t.Errorf("levels %q, notes %q", d.Levels, d.GroupNotes)
	}
	if d.GroupCounts()[1].Rows != 40 {
		t.Errorf("counts %+v", d.GroupCounts())
	}
	d, err = LoadCSV(path, CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{All: true, MinRows: 5}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Other", "P", "Rare"}; !reflect.DeepEqual(d.Levels, want) || d.GroupNotes != nil {
		t.Errorf("levels %q, notes %q", d.Levels, d.GroupNotes)
	}
}

// --sensitive-positive on a column of more than two values codes that
// value against the rest; without it such a column is refused.
func TestSensitivePositiveAgainstTheRest(t *testing.T) {
	d, err := LoadCSV(groupsCSV(t), CSVOptions{Target: "y", Sensitive: "g", SensitivePositive: "B"})
	if err != nil {
		t.Fatal(err)
	}
	var n1 int
	for _, a := range d.A {
		n1 += int(a)
	}
	if n1 != 40 || d.GroupPositive != "B" || d.Schema.SensitiveNegative != "" || d.Levels != nil {
		t.Errorf("%d rows with a = 1, positive %q, negative %q, levels %q", n1, d.GroupPositive, d.Schema.SensitiveNegative, d.Levels)
	}
	if v, err := d.Schema.CodeSensitive("E"); err != nil || v != 0 {
		t.Errorf("E codes %g, %v", v, err)
	}
	_, err = LoadCSV(groupsCSV(t), CSVOptions{Target: "y", Sensitive: "g", SensitivePositive: "Z"})
	if err == nil || !strings.Contains(err.Error(), `--sensitive-positive "Z" is not a value`) {
		t.Errorf("an unknown value: %v", err)
	}
}

// COMPAS's race, counted here from the embedded file with ProPublica's
// filter written out again, against compas-race4 and --sensitive-levels all.
func TestCompasRaceGroups(t *testing.T) {
	tab, err := readEmbedded(compasFile)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for i := range tab.rows() {
		days, err := strconv.Atoi(tab.column("days_b_screening_arrest").value(i))
		if err != nil || days < -30 || days > 30 || tab.column("is_recid").value(i) == "-1" ||
			tab.column("c_charge_degree").value(i) == "O" || tab.column("score_text").value(i) == "N/A" {
			continue
		}
		count[tab.column("race").value(i)]++
	}
	want := map[string]int{"African-American": 3175, "Caucasian": 2103, "Hispanic": 509, "Other": 343, "Asian": 31, "Native American": 11}
	if !reflect.DeepEqual(count, want) {
		t.Fatalf("independent count %v, want %v", count, want)
	}
	d, err := Load("compas-race4", Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, g := range d.GroupCounts() {
		got[g.Level] = g.Rows
	}
	rest := count["Other"] + count["Asian"] + count["Native American"]
	if !reflect.DeepEqual(d.Levels, []string{"African-American", "Caucasian", "Hispanic", OtherLevel}) ||
		!reflect.DeepEqual(got, map[string]int{"African-American": count["African-American"], "Caucasian": count["Caucasian"],
			"Hispanic": count["Hispanic"], OtherLevel: rest}) {
		t.Errorf("compas-race4: levels %q, counts %v", d.Levels, got)
	}
	// The binary a and the schema stay compas's, so do the name of the
	// source dataset and the preset.
	base, err := Load("compas", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "compas-race4" || d.Schema.Dataset != "compas" || !slices.Equal(d.A, base.A) || !slices.Equal(d.X, base.X) ||
		d.GroupPositive != "African-American" || d.ID == base.ID || d.GroupNotes != nil {
		t.Errorf("compas-race4: name %q, schema dataset %q, a = 1 %q, id %s (compas %s)", d.Name, d.Schema.Dataset, d.GroupPositive, d.ID, base.ID)
	}
	// The same groups asked for by name have the same identity.
	listed, err := Load("compas", Options{Groups: GroupOptions{Levels: []string{"African-American", "Caucasian", "Hispanic"}}})
	if err != nil {
		t.Fatal(err)
	}
	if listed.ID != d.ID || !slices.Equal(listed.Groups, d.Groups) {
		t.Errorf("listed: id %s, compas-race4 %s", listed.ID, d.ID)
	}
	// Every value: Native American is rare and merged; "Other" joins it.
	all, err := Load("compas", Options{Groups: GroupOptions{All: true}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(all.Levels, []string{"African-American", "Asian", "Caucasian", "Hispanic", OtherLevel}) ||
		all.GroupCounts()[4].Rows != count["Other"]+count["Native American"] || len(all.GroupNotes) != 2 {
		t.Errorf("compas, all: levels %q, counts %+v, notes %q", all.Levels, all.GroupCounts(), all.GroupNotes)
	}
}

func TestAdultRace5(t *testing.T) {
	d, err := Load("adult-race5", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Preset != PresetFull || len(d.Levels) != 5 || d.N != 45222 || d.GroupPositive != "White" {
		t.Fatalf("adult-race5: preset %q, levels %q, %d rows, a = 1 %q", d.Preset, d.Levels, d.N, d.GroupPositive)
	}
	var total int
	for r, g := range d.GroupCounts() {
		total += g.Rows
		if g.Level != d.Levels[r] || g.Rows == 0 {
			t.Errorf("group %d: %+v", r, g)
		}
	}
	if total != d.N {
		t.Errorf("groups hold %d rows of %d", total, d.N)
	}
	for _, tc := range []struct {
		name string
		opt  Options
		want string
	}{
		{"adult-race5", Options{Preset: PresetPaper}, `preset "paper": it has only the full preset`},
		{"compas-race4", Options{Groups: GroupOptions{All: true}}, "dataset compas-race4 has its groups (African-American, Caucasian, Hispanic and other)"},
		{"compas", Options{Groups: GroupOptions{MinRows: 10}}, "--min-group-rows applies to groups"},
		{"compas", Options{Groups: GroupOptions{Levels: []string{"Martian"}}}, `"Martian" is not a value of the column race`},
		{"compas-race9", Options{}, "compas-race4, adult-race5"},
	} {
		if _, err := Load(tc.name, tc.opt); err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s %+v: %v, want one line with %q", tc.name, tc.opt, err, tc.want)
		}
	}
	// Two groups of a built-in dataset code a as the groups do.
	d, err = Load("compas", Options{Groups: GroupOptions{Levels: []string{"Caucasian"}}})
	if err != nil {
		t.Fatal(err)
	}
	if d.GroupPositive != "Caucasian" || d.Schema.SensitivePositive != "Caucasian" || d.Stats().PA != 2103.0/6172 {
		t.Errorf("compas, Caucasian against the rest: a = 1 %q, P(a=1) %g", d.GroupPositive, d.Stats().PA)
	}
}

// fingerprint digests everything the binary path gives: the encoded rows,
// the codes, the schema, the identity, the exported file and a split.
func fingerprint(t *testing.T, d *Dataset) string {
	t.Helper()
	h := sha256.New()
	for _, v := range [][]float64{d.X, d.Y, d.A} {
		for _, f := range v {
			binary.Write(h, binary.LittleEndian, math.Float64bits(f))
		}
	}
	sj, _ := json.Marshal(d.Schema)
	h.Write(sj)
	h.Write([]byte(d.ID + d.GroupPositive + d.LabelPositive))
	var b bytes.Buffer
	if _, err := d.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	// The export's first column, the row index, came after the values
	// below were computed: they digest the columns after it.
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		_, rest, _ := strings.Cut(line, ",")
		h.Write([]byte(rest))
	}
	s, err := d.Split(SplitOptions{TrainFraction: 0.3}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range append(s.Train, s.Test...) {
		binary.Write(h, binary.LittleEndian, int64(i))
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// Without groups, the data, its identity, its export and its splits are
// those fp gave before groups existed (the values below were computed
// then), and no group is set.
func TestNoGroupsUnchanged(t *testing.T) {
	for _, tc := range []struct {
		name, id, fp string
		load         func() (*Dataset, error)
	}{
		{"compas", "b7a671cdf5106e4e", "0cfd11924e6ba1c7", func() (*Dataset, error) { return Load("compas", Options{}) }},
		{"adult-race", "39a0380f8ff1c01d", "9848de63a032c699", func() (*Dataset, error) { return Load("adult-race", Options{}) }},
		{"csv", "d6f6ba07d17e22fd", "92287bd1da039720", func() (*Dataset, error) {
			return LoadCSV(writeCSV(t, "x,c,y,g\n1,u,a,M\n2,v,b,F\n3,u,a,F\n4,v,b,M\n5,u,b,F\n6,u,a,M\n"), CSVOptions{Target: "y", Sensitive: "g"})
		}},
	} {
		d, err := tc.load()
		if err != nil {
			t.Fatal(err)
		}
		if d.ID != tc.id || fingerprint(t, d) != tc.fp || d.Levels != nil || d.Groups != nil {
			t.Errorf("%s: id %s, fingerprint %s, levels %q; want %s, %s, none", tc.name, d.ID, fingerprint(t, d), d.Levels, tc.id, tc.fp)
		}
	}
	// Two groups asked for on a binary column code a as without them; the
	// identity records the groups.
	path := writeCSV(t, "x,c,y,g\n1,u,a,M\n2,v,b,F\n3,u,a,F\n4,v,b,M\n5,u,b,F\n6,u,a,M\n")
	plain, err := LoadCSV(path, CSVOptions{Target: "y", Sensitive: "g"})
	if err != nil {
		t.Fatal(err)
	}
	grouped, err := LoadCSV(path, CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{All: true, MinRows: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plain.A, grouped.A) || plain.Schema.SensitiveNegative != grouped.Schema.SensitiveNegative ||
		plain.GroupPositive != grouped.GroupPositive || plain.ID == grouped.ID {
		t.Errorf("two groups: a %v vs %v, negative %q vs %q, id %s vs %s", plain.A, grouped.A,
			plain.Schema.SensitiveNegative, grouped.Schema.SensitiveNegative, plain.ID, grouped.ID)
	}
}

func TestSplitGroups(t *testing.T) {
	d, err := Load("compas-race4", Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.Split(SplitOptions{}, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Train)+len(s.Test) != d.N || len(s.Train) != d.N/2 {
		t.Fatalf("%d train and %d test rows of %d", len(s.Train), len(s.Test), d.N)
	}
	// Stratified by (y, group): each cell's training share is within one
	// row of half the cell.
	R := len(d.Levels)
	cells, train := make([]int, 2*R), make([]int, 2*R)
	for i := range d.N {
		cells[d.Groups[i]+R*int(d.Y[i])]++
	}
	for _, i := range s.Train {
		train[d.Groups[i]+R*int(d.Y[i])]++
	}
	for c := range cells {
		if math.Abs(float64(train[c])-float64(cells[c])/2) > 1 {
			t.Errorf("cell %d: %d of %d rows train", c, train[c], cells[c])
		}
	}
	again, _ := d.Split(SplitOptions{}, rand.New(rand.NewPCG(3, 4)))
	if !reflect.DeepEqual(s, again) {
		t.Error("the same generator gave another split")
	}

	// A (y, group) cell of one row cannot be in both parts.
	var b strings.Builder
	b.WriteString("x,y,g\n")
	for i := range 60 {
		g, y := "A", i%2
		if i >= 40 {
			g, y = "B", 0
		}
		if i == 59 {
			y = 1
		}
		fmt.Fprintf(&b, "%d,%d,%s\n", i, y, g)
	}
	d, err = LoadCSV(writeCSV(t, b.String()), CSVOptions{Target: "y", Sensitive: "g", Groups: GroupOptions{All: true, MinRows: 5}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Split(SplitOptions{}, rand.New(rand.NewPCG(1, 1)))
	if err == nil || strings.Contains(err.Error(), "\n") ||
		!strings.Contains(err.Error(), `without a row of group "B" with y=1 (1 such rows in the data)`) {
		t.Errorf("a cell of one row: %v", err)
	}
}

func TestApportionN(t *testing.T) {
	for _, tc := range []struct {
		total int
		w     []int
		want  []int
	}{
		{10, []int{1, 1, 1}, []int{4, 3, 3}},
		{5, []int{0, 3, 7}, []int{0, 2, 3}},
		{0, []int{2, 2}, []int{0, 0}},
		{3, []int{0, 0}, []int{0, 0}},
	} {
		if got := apportionN(tc.total, tc.w); !slices.Equal(got, tc.want) {
			t.Errorf("apportionN(%d, %v) = %v, want %v", tc.total, tc.w, got, tc.want)
		}
	}
	// With two weights it is apportion.
	for total := range 12 {
		for a := range 6 {
			for b := range 6 {
				two := apportion(total, [2]int{a, b})
				if got := apportionN(total, []int{a, b}); got[0] != two[0] || got[1] != two[1] {
					t.Fatalf("apportionN(%d, %d, %d) = %v, apportion %v", total, a, b, got, two)
				}
			}
		}
	}
}

func TestWriteCSVGroups(t *testing.T) {
	d, err := Load("compas-race4", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := d.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	back, err := LoadCSV(writeCSV(t, b.String()), CSVOptions{Target: "two_year_recid", Sensitive: "race", Groups: GroupOptions{All: true}})
	if err != nil {
		t.Fatal(err)
	}
	// Read back with every value a group, the file has compas-race4's
	// groups, in sorted order, which here is theirs.
	if !slices.Equal(back.Levels, d.Levels) || !slices.Equal(back.Groups, d.Groups) {
		t.Errorf("read back: levels %q", back.Levels)
	}
}
