package datasets

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// columnsCSV is a table of n rows with an identifier, a name unique per
// row, a city with many levels, a numeric and a categorical feature, a
// column with empty cells, the target y and the sensitive g. Dropping
// leaves out the named columns, as a copy edited by hand would.
func columnsCSV(n int, dropping ...string) string {
	cols := []string{"id", "name", "city", "x", "kind", "note", "y", "g"}
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	var keep []int
	for j, c := range cols {
		if !containsString(dropping, c) {
			keep = append(keep, j)
		}
	}
	row := func(vals []string) {
		for k, j := range keep {
			if k > 0 {
				b.WriteByte(',')
			}
			b.WriteString(vals[j])
		}
		b.WriteByte('\n')
	}
	row(cols)
	for i := range n {
		note := "n" + fmt.Sprint(i%3)
		if i%7 == 3 {
			note = ""
		}
		row([]string{fmt.Sprint(i + 1), fmt.Sprintf("person%03d", i), fmt.Sprintf("city%d", i%(n*3/4)),
			fmt.Sprintf("%.3f", rng.NormFloat64()), []string{"a", "b"}[rng.IntN(2)], note,
			fmt.Sprint(rng.IntN(2)), []string{"p", "q"}[rng.IntN(2)]})
	}
	return b.String()
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func writeNamed(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func schemaNames(s Schema) []string {
	var out []string
	for _, c := range s.Columns {
		out = append(out, c.Name)
	}
	return out
}

func TestCSVColumnChoice(t *testing.T) {
	path := writeCSV(t, columnsCSV(40))
	for _, tc := range []struct {
		name   string
		choice ColumnChoice
		drop   bool
		want   []string // source columns of the schema
		rows   int
	}{
		{"features", ColumnChoice{Features: []string{"kind", "x"}}, false, []string{"x", "kind"}, 40},
		{"exclude", ColumnChoice{Exclude: []string{"id", "name", "city"}}, true, []string{"x", "kind", "note"}, 34},
		// The empty cells of note do not count once note is left out.
		{"exclude with empty cells", ColumnChoice{Exclude: []string{"id", "name", "city", "note"}}, true, []string{"x", "kind"}, 40},
		{"features without the empty column", ColumnChoice{Features: []string{"x"}}, false, []string{"x"}, 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := LoadCSV(path, CSVOptions{Target: "y", Sensitive: "g", DropMissing: tc.drop, Columns: tc.choice})
			if err != nil {
				t.Fatal(err)
			}
			if got := schemaNames(d.Schema); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("schema columns %v, want %v", got, tc.want)
			}
			if d.N != tc.rows {
				t.Errorf("%d rows, want %d", d.N, tc.rows)
			}
			if !reflect.DeepEqual(d.Columns, d.Schema.Features()) {
				t.Errorf("encoded columns %v, schema's %v", d.Columns, d.Schema.Features())
			}
		})
	}
	// Without a choice the empty cells of note still fail, as before.
	if _, err := LoadCSV(path, basic); err == nil || !strings.Contains(err.Error(), "(note)") {
		t.Errorf("every column in use: got %v, want the empty cell of note", err)
	}
}

func TestColumnChoiceErrors(t *testing.T) {
	path := writeCSV(t, columnsCSV(20))
	for _, tc := range []struct {
		name   string
		choice ColumnChoice
		want   string
	}{
		{"misspelt", ColumnChoice{Exclude: []string{"nmae"}}, `--exclude: no column "nmae"; did you mean "name"?`},
		{"misspelt feature", ColumnChoice{Features: []string{"x", "kinds"}}, `--features: no column "kinds"; did you mean "kind"?`},
		{"encoded", ColumnChoice{Exclude: []string{"kind=a"}}, `no column "kind=a" (name a source column, not an encoded one such as column=level); did you mean "kind"?`},
		{"far from any", ColumnChoice{Exclude: []string{"zzzzzz"}}, `no column "zzzzzz" (the feature columns: id, name, city, x, kind, note)`},
		{"target", ColumnChoice{Exclude: []string{"y"}}, `--exclude: "y" is the target column, which is never a feature`},
		{"sensitive", ColumnChoice{Features: []string{"x", "g"}}, `--features: "g" is the sensitive column, which is never a feature`},
		{"row index", ColumnChoice{Features: []string{"x", RowColumn}}, `--features: "fp_row" is the row index fp datasets export writes, which is never a feature`},
		{"both", ColumnChoice{Features: []string{"x"}, Exclude: []string{"id"}}, "give --features or --exclude, not both"},
		{"twice", ColumnChoice{Exclude: []string{"id", "id"}}, `column "id" is listed twice`},
		{"empty name", ColumnChoice{Features: []string{""}}, "an empty column name"},
		{"everything", ColumnChoice{Exclude: []string{"id", "name", "city", "x", "kind", "note"}}, "--exclude leaves no feature column"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadCSV(path, CSVOptions{Target: "y", Sensitive: "g", DropMissing: true, Columns: tc.choice})
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("got %v, want one line with %q", err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), path+": ") {
				t.Errorf("%v does not name the file", err)
			}
		})
	}
}

func TestBuiltinColumnChoice(t *testing.T) {
	all, err := Load("compas", Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := Load("compas", Options{Columns: ColumnChoice{Exclude: []string{"age_cat", "priors_count"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"age", "juv_fel_count", "juv_misd_count", "juv_other_count", "sex", "c_charge_degree"}
	if got := schemaNames(d.Schema); !reflect.DeepEqual(got, want) {
		t.Errorf("schema columns %v, want %v", got, want)
	}
	if d.N != all.N || d.Dim != all.Dim-4 || !reflect.DeepEqual(d.Y, all.Y) {
		t.Errorf("%d rows of dim %d, want %d of dim %d and the same labels", d.N, d.Dim, all.N, all.Dim-4)
	}
	if d.ID != all.ID || d.ID == "" {
		t.Errorf("identity %q with two columns left out, %q without", d.ID, all.ID)
	}
	a, err := Load("adult-sex", Options{Columns: ColumnChoice{Features: []string{"age", "education"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := schemaNames(a.Schema); !reflect.DeepEqual(got, []string{"age", "education"}) {
		t.Errorf("adult-sex schema columns %v", got)
	}
	for _, tc := range []struct {
		name   string
		choice ColumnChoice
		want   string
	}{
		{"compas", ColumnChoice{Exclude: []string{"agee"}}, `dataset compas: --exclude: no column "agee"; did you mean "age"?`},
		{"compas", ColumnChoice{Exclude: []string{"race"}}, `dataset compas: --exclude: "race" is the sensitive column, which is never a feature`},
		{"compas", ColumnChoice{Features: []string{"two_year_recid"}}, `"two_year_recid" is the target column`},
		{"compas", ColumnChoice{Exclude: []string{"is_recid"}}, `dataset compas: --exclude: column "is_recid" is not a feature column (the feature columns: age, juv_fel_count`},
		{"adult-sex", ColumnChoice{Exclude: []string{"sex"}}, `"sex" is the sensitive column`},
		{"adult-sex", ColumnChoice{Exclude: []string{"race"}}, `column "race" is not a feature column`},
		{"adult-race", ColumnChoice{Exclude: []string{"ocupation"}}, `did you mean "occupation"?`},
	} {
		_, err := Load(tc.name, Options{Columns: tc.choice})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %+v: got %v, want %q", tc.name, tc.choice, err, tc.want)
		}
	}
}

func TestColumnWarnings(t *testing.T) {
	path := writeCSV(t, columnsCSV(40))
	d, err := LoadCSV(path, CSVOptions{Target: "y", Sensitive: "g", DropMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []ColumnWarning{
		{Column: "id", Problem: `column "id" holds a different integer in each of the 34 rows (1 to 40): likely a row counter or identifier, which a network learns by heart (if it is a measurement, keep it)`},
		{Column: "name", Problem: `column "name" has a different value in each of the 34 rows: one-hot encoded, its 34 features identify rows rather than describe them`},
		{Column: "city", Problem: `column "city" has 27 distinct values in 34 rows: its one-hot encoding (27 features) is wider than half the rows`},
	}
	if !reflect.DeepEqual(d.ColumnWarnings, want) {
		t.Errorf("warnings:\n%v\nwant:\n%v", d.ColumnWarnings, want)
	}
	d, err = LoadCSV(path, CSVOptions{Target: "y", Sensitive: "g", DropMissing: true, Columns: ColumnChoice{Exclude: []string{"id", "name", "city"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.ColumnWarnings) != 0 {
		t.Errorf("warnings after leaving the columns out: %v", d.ColumnWarnings)
	}
	for _, name := range Names() {
		if b, err := Load(name, Options{}); err != nil || len(b.ColumnWarnings) != 0 {
			t.Errorf("%s: warnings %v, error %v", name, b.ColumnWarnings, err)
		}
	}
}

// A counter in shuffled rows, or counting from 0, is a counter too, and so
// is one spread wider than the rows (an identifier of held-out rows, of
// another table); a numeric column of distinct fractions is not.
func TestRowCounter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		name    string
		value   func(i int) string
		shuffle bool
		warn    bool
	}{
		{"0..n-1", func(i int) string { return fmt.Sprint(i) }, false, true},
		{"shuffled", func(i int) string { return fmt.Sprint(i + 1000) }, true, true},
		{"spread", func(i int) string { return fmt.Sprint(i * 7) }, false, true},
		{"fractions", func(i int) string { return fmt.Sprint(float64(i) + 0.5) }, false, false},
		{"repeated", func(i int) string { return fmt.Sprint(i / 2) }, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := 30
			vals := make([]string, n)
			for i := range vals {
				vals[i] = tc.value(i)
			}
			if tc.shuffle {
				rng.Shuffle(n, func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
			}
			var b strings.Builder
			b.WriteString("c,x,y,g\n")
			for i, v := range vals {
				fmt.Fprintf(&b, "%s,%d,%d,%d\n", v, i%5, i%2, (i/2)%2)
			}
			d, err := LoadCSV(writeCSV(t, b.String()), basic)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(d.ColumnWarnings) == 1 && d.ColumnWarnings[0].Column == "c"; got != tc.warn {
				t.Errorf("warnings %v, want one on c: %v", d.ColumnWarnings, tc.warn)
			}
		})
	}
}

func TestIdentity(t *testing.T) {
	text := columnsCSV(40)
	orig := writeNamed(t, "before.csv", text)
	opt := CSVOptions{Target: "y", Sensitive: "g", DropMissing: true}
	load := func(path string, opt CSVOptions) *Dataset {
		t.Helper()
		d, err := LoadCSV(path, opt)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	base := load(orig, opt)
	if len(base.ID) != 16 {
		t.Fatalf("identity %q, want 16 hexadecimal digits", base.ID)
	}
	excl := opt
	excl.Columns = ColumnChoice{Exclude: []string{"city"}}
	edited := strings.ReplaceAll(strings.ReplaceAll(columnsCSV(40, "city"), "\n", "\r\n"), ",", " , ")
	other := opt
	other.Positive = "0"
	noteOut := opt
	noteOut.Columns = ColumnChoice{Exclude: []string{"note"}}
	flipped := strings.Replace(text, ",1,p\n", ",0,p\n", 1)
	for _, tc := range []struct {
		name string
		d    *Dataset
		same bool
	}{
		{"a column excluded", load(orig, excl), true},
		{"a copy with the column removed, another name, other spacing and line ends", load(writeNamed(t, "after.csv", edited), opt), true},
		{"only some features", load(orig, CSVOptions{Target: "y", Sensitive: "g", DropMissing: true, Columns: ColumnChoice{Features: []string{"x", "note"}}}), true},
		{"another value coded 1", load(orig, other), false},
		{"the rows with empty notes kept", load(orig, noteOut), false},
		{"a label changed", load(writeNamed(t, "before.csv", flipped), opt), false},
		{"target and sensitive swapped", load(orig, CSVOptions{Target: "g", Sensitive: "y", DropMissing: true}), false},
	} {
		if got := tc.d.ID == base.ID; got != tc.same {
			t.Errorf("%s: identity %s, base %s: same = %v, want %v", tc.name, tc.d.ID, base.ID, got, tc.same)
		}
	}
	// Same identity, same seed: the same splits.
	a, b := load(orig, opt), load(orig, excl)
	sa, err := a.Split(SplitOptions{}, rand.New(rand.NewPCG(9, 9)))
	if err != nil {
		t.Fatal(err)
	}
	sb, _ := b.Split(SplitOptions{}, rand.New(rand.NewPCG(9, 9)))
	if !reflect.DeepEqual(sa, sb) {
		t.Error("the same identity gave different splits")
	}
	c, err := Load("compas", Options{})
	if err != nil {
		t.Fatal(err)
	}
	as, _ := Load("adult-sex", Options{})
	ar, _ := Load("adult-race", Options{})
	af, _ := Load("adult-sex", Options{Preset: PresetFull})
	ids := map[string]bool{c.ID: true, as.ID: true, ar.ID: true, af.ID: true}
	if len(ids) != 4 {
		t.Errorf("built-in identities %s %s %s %s are not distinct", c.ID, as.ID, ar.ID, af.ID)
	}
}

// A column that agrees with the target in 96% of the rows is a likely
// leak, numeric or categorical, and so is a categorical one that gives y
// away only through several of its values taken together (three codes for
// each class); a strong honest predictor (AUC about 0.8) is not, nor a
// categorical column of many values unrelated to y, nor any column when a
// class has too few rows to judge. A row counter of a file sorted by y is
// warned about once, as a counter. The AUC in the message is checked
// against a count of the pairs a column orders rightly.
func TestLeakyColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	write := func(n int, base float64) (string, []float64, []float64) {
		ys := make([]int, n)
		for i := range ys {
			if rng.Float64() < base {
				ys[i] = 1
			}
		}
		slices.Sort(ys) // sorted by y: the row counter separates it perfectly
		var b strings.Builder
		b.WriteString("row,x,leak,status,code,noise,y,g\n")
		xs, leaks := make([]float64, n), make([]float64, n)
		for i, y := range ys {
			x := rng.NormFloat64() + 1.2*float64(y)
			leak, status := y, []string{"open", "closed"}[y]
			if rng.Float64() < 0.04 {
				leak, status = 1-y, []string{"open", "closed"}[1-y]
			}
			code := []string{"A", "B", "C", "D", "E", "F"}[3*y+rng.IntN(3)]
			if rng.Float64() < 0.03 {
				code = []string{"A", "B", "C", "D", "E", "F"}[rng.IntN(6)]
			}
			xs[i], leaks[i] = x, float64(leak)
			fmt.Fprintf(&b, "%d,%.4f,%d,%s,%s,n%d,%d,%d\n", i, x, leak, status, code, rng.IntN(150), y, i%2)
		}
		return b.String(), xs, leaks
	}
	// aucOf counts the (positive, negative) pairs v orders rightly, ties half.
	aucOf := func(v, y []float64) float64 {
		var right, pairs float64
		for i := range v {
			for j := range v {
				if y[i] == 1 && y[j] == 0 {
					pairs++
					switch {
					case v[i] > v[j]:
						right++
					case v[i] == v[j]:
						right += 0.5
					}
				}
			}
		}
		return max(right/pairs, 1-right/pairs)
	}
	for _, tc := range []struct {
		name string
		n    int
		base float64
		want []string
	}{
		{"leaks", 600, 0.4, []string{"row", "leak", "status", "code"}},
		{"one class too small", 600, 0.02, []string{"row"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text, xs, leaks := write(tc.n, tc.base)
			d, err := LoadCSV(writeCSV(t, text), basic)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range d.ColumnWarnings {
				got = append(got, w.Column)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("warnings on %v, want %v: %v", got, tc.want, d.ColumnWarnings)
			}
			if !strings.Contains(d.ColumnWarnings[0].Problem, "row counter") {
				t.Errorf("the counter's warning %q does not call it one", d.ColumnWarnings[0].Problem)
			}
			if len(tc.want) == 1 {
				return
			}
			if auc := aucOf(xs, d.Y); auc < 0.7 || auc >= leakAUC {
				t.Errorf("x's AUC %.3f: the honest predictor is not the strong one the test needs", auc)
			}
			want := fmt.Sprintf(`column "leak" alone separates y = "1" from the rest almost perfectly (AUC %.3f on its own`, aucOf(leaks, d.Y))
			if !strings.HasPrefix(d.ColumnWarnings[1].Problem, want) {
				t.Errorf("warning %q, want it to start %q", d.ColumnWarnings[1].Problem, want)
			}
			if w := d.ColumnWarnings[1]; w.Cost == "" || w.Only {
				t.Errorf("warning %+v: want what leaving it out costs, and not the only feature", w)
			}
			only := basic
			only.Columns = ColumnChoice{Features: []string{"leak"}}
			d, err = LoadCSV(writeCSV(t, text), only)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.ColumnWarnings) != 1 || !d.ColumnWarnings[0].Only {
				t.Errorf("leak as the only feature: %+v, want one warning marked Only", d.ColumnWarnings)
			}
		})
	}
}

// The built-in datasets' strongest single columns, which docs/method.md
// §1.6 quotes, stay well below the leak threshold: the warning has room
// against honest predictors (go test ./datasets -run BuiltinSeparations -v).
func TestBuiltinSeparations(t *testing.T) {
	for _, name := range Names() {
		d, err := Load(name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		best, at := 0.0, ""
		for k, v := range separations(d.X, d.Schema.Columns, d.Y) {
			if v > best {
				best, at = v, d.Schema.Columns[k].Name
			}
		}
		t.Logf("%s: strongest column %s, AUC %.3f", name, at, best)
		if best < 0.6 || best > leakAUC-0.1 {
			t.Errorf("%s: strongest column %s has AUC %.3f, want 0.6–%.2f", name, at, best, leakAUC-0.1)
		}
	}
}
