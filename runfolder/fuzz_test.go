package runfolder

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/internal/fuzzcheck"
)

// FuzzListSetting reads a list setting as the command line and the config
// file give it (--exclude, --features, --sensitive-levels, --group-map),
// under the bounds of fuzzcheck: FormatList writes what ParseList read so
// that ParseList reads it back unchanged (fp prints its hints with it), and
// the names, read as --group-map entries, are VALUE=GROUP pairs or refused
// in one line.
func FuzzListSetting(f *testing.F) {
	for _, s := range []string{
		"age, sex", `"inc,high"`, `age, "inc,high",sex`, `"say ""hi"""`, `D=DE,E=DE`, `"inc,high"=rich, c=c or d`,
		`"a=b"=c`, `""`, `,`, ` , a ,`, `"unterminated`, `a"b`, `"a"b`, "\"a\nb\",\"c,d\"", "a\r\"b\"", "a\r\nb", "\x1b[2J=x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fuzzcheck.Run(t, len(s), func() error {
			names, err := ParseList(s)
			if err != nil {
				return err
			}
			text := FormatList(names)
			back, err := ParseList(text)
			if err != nil {
				t.Fatalf("%q read as %q, written as %q, which reads as: %v", s, names, text, err)
			}
			if !slices.Equal(back, names) {
				t.Fatalf("%q read as %q, written as %q, which reads as %q", s, names, text, back)
			}
			_, err = datasets.ParseGroupMap(names)
			return err
		})
	})
}

// groupMapRows are the rows of the file FuzzGroupMap forms groups of:
// values A (40 rows), B (40), C (35), D (10), E (25) and "other" (5) in
// g, and F or M in s, for the group map to act on.
var groupMapRows = func() []map[string]string {
	var rows []map[string]string
	for _, v := range []struct {
		g string
		n int
	}{{"A", 40}, {"B", 40}, {"C", 35}, {"D", 10}, {"E", 25}, {"other", 5}} {
		for k := range v.n {
			s := "F"
			if k%3 == 0 {
				s = "M"
			}
			rows = append(rows, map[string]string{"x": strconv.Itoa(len(rows)), "y": strconv.Itoa(k % 2), "g": v.g, "s": s})
		}
	}
	return rows
}()

// FuzzGroupMap reads the text of --group-map and --sensitive-levels as the
// command line and the config file give it (GroupOptionsOf: ParseList, then
// GroupOptions), with --min-group-rows, forms the groups of a file's
// sensitive column (or of the intersection of two columns) with it, and
// checks that the rule a network file keeps (NewGroupRule of the entries
// training stores in the card) puts every training row in the group
// training put it in.
func FuzzGroupMap(f *testing.F) {
	for _, s := range []struct {
		m, levels string
		min       int
		inter     bool
	}{
		{"D=DE,E=DE", "", 0, false},
		{"E=AE,A=AE", "all", 5, false},
		{"D=Rare", "A,B,Rare", 20, false},
		{"C=CD,D=CD", "CD,A", 0, false},
		{"D=Other,E=OTHER", "all", 0, false},
		{"D=A", "all", 20, false},
		{"D*F=D,D × M=D,E*F=E,E×M=E", "", 10, true},
		{`"D=E,F"`, "", 0, false},
		{`D="E,F"`, "", 0, false},
		{`"D"=DE,"E"=DE`, `"DE",A`, 0, false},
		{`D=DE,"E=DE`, "", 0, false},
		{"c", "", 0, false},
		{"=x", "", 0, false},
		{"A=", "", 0, false},
		{"A=B=C", "", 0, false},
		{"A=x,A=y", "", 0, false},
		{"A=B,B=C", "", 0, false},
		{"Z=A", "", 0, false},
		{"A=other,B=other,C=other,D=other,E=other", "", 1, false},
		{"A=x", "A", 0, false},
		{"A=\x1b[2J", "all", 0, false},
		{"", "A,,B", 0, false},
		{"", "A,A", 0, false},
		{"", "other", 0, false},
		{"", "", -1, false},
		{"", "", 3, false},
	} {
		f.Add(s.m, s.levels, s.min, s.inter)
	}
	var csv strings.Builder
	csv.WriteString("x,y,g,s\n")
	for _, r := range groupMapRows {
		fmt.Fprintf(&csv, "%s,%s,%s,%s\n", r["x"], r["y"], r["g"], r["s"])
	}
	path := filepath.Join(f.TempDir(), "groups.csv")
	if err := os.WriteFile(path, []byte(csv.String()), 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, groupMap, levels string, minRows int, intersection bool) {
		fuzzcheck.Run(t, len(groupMap)+len(levels), func() error {
			g, err := GroupOptionsOf(levels, minRows, groupMap)
			if err != nil {
				return err
			}
			sens := "g"
			if intersection {
				sens = "g,s"
			}
			d, err := datasets.LoadCSV(path, datasets.CSVOptions{Target: "y", Sensitive: sens, Groups: g})
			if err != nil {
				return err
			}
			if d.N != len(groupMapRows) { // no row is dropped: every row is kept, in order
				t.Fatalf("%d rows of %d", d.N, len(groupMapRows))
			}
			if len(d.Groups) != d.N || len(d.Levels) < 2 {
				t.Fatalf("%d groups for %d rows, %d levels", len(d.Groups), d.N, len(d.Levels))
			}
			entries, err := ParseList(groupMap) // what training keeps in the card (Config.GroupMap)
			if err != nil {
				t.Fatalf("GroupOptionsOf read --group-map %q, ParseList refuses it: %v", groupMap, err)
			}
			rule, err := datasets.NewGroupRule(d.Levels, d.GroupColumns, entries)
			if err != nil {
				t.Fatalf("the groups %q formed with --group-map %q: %v", d.Levels, groupMap, err)
			}
			vals := make([]string, len(d.GroupColumns))
			for i, row := range groupMapRows {
				for j, c := range d.GroupColumns {
					vals[j] = row[c]
				}
				g := d.Groups[i]
				if g < 0 || g >= len(d.Levels) {
					t.Fatalf("row %d: group %d of %d levels", i, g, len(d.Levels))
				}
				got, err := rule.Group(vals)
				if err != nil {
					t.Fatalf("row %d %q: %v; training put it in %q", i, vals, err, d.Levels[g])
				}
				if want := d.Levels[g]; got != want {
					t.Fatalf("row %d %q: the rule gives %q, training gave %q (levels %q)", i, vals, got, want, d.Levels)
				}
			}
			return nil
		})
	})
}
