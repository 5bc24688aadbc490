package predict

import (
	"bytes"
	"encoding/csv"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/model"
)

// network returns a randomly initialised network for d, standardized on
// all its rows, with d's schema.
func network(t testing.TB, d *datasets.Dataset, arch string) *model.File {
	t.Helper()
	a, err := model.ParseArch(arch)
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]int, d.N)
	for i := range rows {
		rows[i] = i
	}
	std := datasets.FitStandardizer(d, rows)
	p := model.Init(a, d.Dim, rand.New(rand.NewPCG(7, 8)))
	f := model.NewFile(p, d.Columns, std.Mean, std.SD)
	s := d.Schema
	f.Schema = &s
	if _, err := f.Params(); err != nil {
		t.Fatal(err)
	}
	return f
}

// scoreFile runs Run on a file and returns the output's records.
func scoreFile(t *testing.T, f *model.File, path string, opt Options) [][]string {
	t.Helper()
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out bytes.Buffer
	if _, err := Run(f, in, path, &out, opt); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// checkScores compares the output's score and logit columns with Predict
// on the dataset's encoded rows: they must agree bit for bit.
func checkScores(t *testing.T, f *model.File, d *datasets.Dataset, recs [][]string) {
	t.Helper()
	want, err := f.Predict(d.X, d.N)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs)-1 != d.N {
		t.Fatalf("%d output rows, want %d", len(recs)-1, d.N)
	}
	h := recs[0]
	col := func(name string) int {
		for i, n := range h {
			if n == name {
				return i
			}
		}
		t.Fatalf("no column %q in %v", name, h)
		return -1
	}
	ps, ls, zs := col("score"), col("label"), col("logit")
	for i, r := range recs[1:] {
		p, _ := strconv.ParseFloat(r[ps], 64)
		z, _ := strconv.ParseFloat(r[zs], 64)
		if p != want[i] || model.Sigmoid(z) != want[i] {
			t.Fatalf("row %d: score %v, logit %v; Predict gives %v", i+1, p, z, want[i])
		}
		if wantL := map[bool]string{true: "1", false: "0"}[p >= 0.5]; r[ls] != wantL {
			t.Fatalf("row %d: label %s for score %v", i+1, r[ls], p)
		}
	}
}

// Raw rows written back from the embedded COMPAS data score exactly as the
// encoded rows do.
func TestRunMatchesPredictOnCOMPAS(t *testing.T) {
	d, err := datasets.Load("compas", datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := network(t, d, "4x4")
	var b strings.Builder
	w := csv.NewWriter(&b)
	var header []string
	for _, c := range d.Schema.Columns {
		header = append(header, c.Name)
	}
	_ = w.Write(append([]string{"id"}, header...))
	for i := range d.N {
		raw, err := d.Schema.Raw(d.X[i*d.Dim : (i+1)*d.Dim])
		if err != nil {
			t.Fatal(err)
		}
		_ = w.Write(append([]string{strconv.Itoa(i)}, raw...))
	}
	w.Flush()
	path := filepath.Join(t.TempDir(), "compas8.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	recs := scoreFile(t, f, path, Options{Threshold: 0.5, Logit: true, Keep: []string{"id", "sex"}})
	if got := strings.Join(recs[0], ","); got != "id,sex,score,label,logit" {
		t.Errorf("header %q", got)
	}
	if recs[5][0] != "4" {
		t.Errorf("kept id of row 5 = %q", recs[5][0])
	}
	checkScores(t, f, d, recs)
}

const compasHeader = "id,sex,age,age_cat,race,juv_fel_count,decile_score,juv_misd_count,juv_other_count,priors_count," +
	"days_b_screening_arrest,is_recid,c_charge_degree,score_text,two_year_recid,priors_count,decile_score\n"

var compasRows = []string{
	"1,Male,69,Greater than 45,Other,0,1,0,0,0,-1,0,F,Low,0,99,1",
	"3,Male,34,25 - 45,African-American,0,3,0,0,0,-1,1,F,Low,1,99,3",
	"4,Male,24,Less than 25,African-American,0,4,0,1,4,-1,1,F,Low,1,99,4",
	"7,Male,44,25 - 45,Other,0,1,0,0,0,0,0,M,Low,0,99,1",
	"8,Male,41,25 - 45,Caucasian,0,6,0,0,14,-1,1,F,Medium,1,99,6",
	"10,Female,39,25 - 45,Caucasian,0,1,0,0,0,-1,0,M,Low,0,99,1",
	"14,Male,27,25 - 45,Caucasian,0,4,0,0,0,-1,0,F,Low,0,99,4",
	"15,Female,23,Less than 25,African-American,0,6,0,1,3,3,1,M,Medium,1,99,6",
}

var adultRows = []string{
	"39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K",
	"50, Self-emp-not-inc, 83311, Bachelors, 13, Married-civ-spouse, Exec-managerial, Husband, White, Male, 0, 0, 13, United-States, >50K",
	"",
	"38, ?, 215646, HS-grad, 9, Divorced, Handlers-cleaners, Not-in-family, Black, Female, 0, 0, 40, ?, <=50K",
	"53, Private, 234721, 11th, 7, Married-civ-spouse, Handlers-cleaners, Husband, Black, Male, 0, 0, 40, United-States, >50K",
	"28, Private, 338409, Bachelors, 13, Married-civ-spouse, Prof-specialty, Wife, Black, Female, 0, 0, 40, Cuba, <=50K",
}

// A network of a built-in dataset reads the dataset's original file with
// the dataset's reader: COMPAS's repeated column names (the first wins),
// Adult's headerless ", "-separated rows with "?" for unknown.
func TestRunReadsOriginalFiles(t *testing.T) {
	for _, tc := range []struct{ name, file, text string }{
		{"compas", "compas-scores-two-years.csv", compasHeader + strings.Join(compasRows, "\n") + "\n"},
		{"adult-sex", "adult.data", strings.Join(adultRows, "\n") + "\n"},
		{"adult-race", "adult.data", strings.Join(adultRows, "\r\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, tc.file)
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			d, err := datasets.Load(tc.name, datasets.Options{DataDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			if d.Dropped != 0 {
				t.Fatalf("the loader dropped %d rows: the test needs every row scored", d.Dropped)
			}
			f := network(t, d, "3x3")
			checkScores(t, f, d, scoreFile(t, f, path, Options{Threshold: 0.5, Logit: true}))
			if tc.file != "adult.data" {
				return
			}
			// The same rows as a CSV with a header row.
			var rows []string
			for _, r := range adultRows {
				if r != "" {
					rows = append(rows, r)
				}
			}
			header := "age,workclass,fnlwgt,education,education-num,marital-status,occupation,relationship,race,sex," +
				"capital-gain,capital-loss,hours-per-week,native-country,income\n"
			csvPath := filepath.Join(dir, "adult.csv")
			if err := os.WriteFile(csvPath, []byte(header+strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			checkScores(t, f, d, scoreFile(t, f, csvPath, Options{Threshold: 0.5, Logit: true}))
		})
	}
}

// Each bad input stops Run with one line naming file, line and column.
func TestRunRefusesBadRows(t *testing.T) {
	train := "x,colour,y,g\n1,red,0,m\n2,blue,1,f\n3,red,0,f\n4,green,1,m\n"
	dir := t.TempDir()
	tp := filepath.Join(dir, "train.csv")
	if err := os.WriteFile(tp, []byte(train), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := datasets.LoadCSV(tp, datasets.CSVOptions{Target: "y", Sensitive: "g"})
	if err != nil {
		t.Fatal(err)
	}
	f := network(t, d, "2x2")
	cases := []struct {
		name, text string
		keep       []string
		kind       error
		want       []string
	}{
		{"missing column", "x,y\n1,0\n", nil, datasets.ErrMissingColumn, []string{"line 1", `"colour"`}},
		{"unseen category", "colour,x\nred,1\npurple,2\n", nil, datasets.ErrUnknownLevel,
			[]string{"line 3", "column 1 (colour)", `"purple"`, `"blue", "green", "red"`}},
		{"empty number", "x,colour\n1,red\n ,red\n", nil, datasets.ErrEmptyCell, []string{"line 3", "column 1 (x)"}},
		{"empty category", "x,colour\n1,\n", nil, datasets.ErrEmptyCell, []string{"line 2", "column 2 (colour)", "category"}},
		{"not a number", "x,colour\n1,red\n2,red\nabc,red\n", nil, datasets.ErrNotNumber, []string{"line 4", "column 1 (x)", `"abc"`}},
		{"not finite", "x,colour\nNaN,red\n", nil, datasets.ErrNotFinite, []string{"line 2", "column 1 (x)"}},
		{"square overflows", "x,colour\n1,red\n1e200,red\n", nil, datasets.ErrTooLarge, []string{"line 3", "column 1 (x)", `"1e200"`}},
		{"ragged row", "x,colour\n1,red,9\n", nil, datasets.ErrFieldCount, []string{"line 2", "expected 2 fields"}},
		{"missing kept column", "x,colour\n1,red\n", []string{"id"}, datasets.ErrMissingColumn, []string{`"id"`}},
		{"error after a quoted line", "x,colour,note\n1,red,\"a, b\"\n2,red,x\nzz,red,y\n", nil, datasets.ErrNotNumber,
			[]string{"line 4", "column 1 (x)"}},
		{"empty file", "", nil, datasets.ErrEmptyFile, []string{"header"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			_, err := Run(f, strings.NewReader(tc.text), "new.csv", &out, Options{Threshold: 0.5, Keep: tc.keep})
			if !errors.Is(err, tc.kind) {
				t.Fatalf("err = %v, want %v", err, tc.kind)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("error is not one line: %q", msg)
			}
			for _, w := range append([]string{"new.csv"}, tc.want...) {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not mention %s", msg, w)
				}
			}
		})
	}
	// Quoted fields are read by encoding/csv from the first quote on, and
	// the rows still score as the unquoted ones.
	var a, b bytes.Buffer
	if _, err := Run(f, strings.NewReader("x,colour,note\n1,red,n\n2,blue,\"a, \"\"b\"\"\"\n3,green,z\n"), "q.csv", &a, Options{Threshold: 0.5, Keep: []string{"note"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(f, strings.NewReader("x,colour,note\n1,red,n\n2,blue,q\n3,green,z\n"), "p.csv", &b, Options{Threshold: 0.5}); err != nil {
		t.Fatal(err)
	}
	ra, _ := csv.NewReader(&a).ReadAll()
	rb, _ := csv.NewReader(&b).ReadAll()
	if len(ra) != 4 || ra[2][0] != `a, "b"` || ra[2][1] != rb[2][0] || ra[3][1] != rb[3][0] {
		t.Errorf("quoted rows: %v vs %v", ra, rb)
	}
	// A file from an older fp cannot score raw rows.
	old := *f
	old.Schema = nil
	if _, err := Run(&old, strings.NewReader("x,colour\n1,red\n"), "x.csv", &out{}, Options{}); !errors.Is(err, ErrNoSchema) {
		t.Errorf("v1 network: err = %v", err)
	}
}

type out struct{ bytes.Buffer }
