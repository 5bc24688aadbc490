package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// count returns how many of v equal 1.
func count(v []float64) int {
	n := 0
	for _, x := range v {
		if x == 1 {
			n++
		}
	}
	return n
}

// The sizes and base-rate counts below are published figures: ProPublica's
// analysis keeps 6,172 defendants, 3,175 African-American, 2,809 re-arrested;
// adult.data has 27,816 White and 3,124 Black rows; the 45,222 complete rows
// of Adult hold 11,208 with income >50K.
func TestBuiltins(t *testing.T) {
	for _, tc := range []struct {
		name, preset     string
		rows, dim        int
		positives, group int
		dropped          int
		a1, y1           string
		notFeatures      []string
	}{
		{"compas", "", 6172, 12, 2809, 3175, 7214 - 6172, "African-American", "1", compasNot},
		{"adult-sex", PresetPaper, 30940, 93, 7504, 20743, 32561 - 30940, "Male", ">50K", adultNot},
		{"adult-race", PresetPaper, 30940, 93, 7504, 27816, 32561 - 30940, "White", ">50K", adultNot},
		{"adult-sex", PresetFull, 45222, 96, 11208, 30527, 48842 - 45222, "Male", ">50K", adultNot},
		{"adult-race", PresetFull, 45222, 96, 11208, 38903, 48842 - 45222, "White", ">50K", adultNot},
	} {
		t.Run(tc.name+"/"+tc.preset, func(t *testing.T) {
			d, err := Load(tc.name, Options{Preset: tc.preset})
			if err != nil {
				t.Fatal(err)
			}
			if d.N != tc.rows || d.Dim != tc.dim || len(d.Columns) != d.Dim || len(d.X) != d.N*d.Dim || len(d.Y) != d.N || len(d.A) != d.N {
				t.Fatalf("N=%d Dim=%d, %d columns, len X, Y, A = %d, %d, %d; want %d rows, dim %d",
					d.N, d.Dim, len(d.Columns), len(d.X), len(d.Y), len(d.A), tc.rows, tc.dim)
			}
			if got := count(d.Y); got != tc.positives {
				t.Errorf("%d rows with y=1, want %d", got, tc.positives)
			}
			if got := count(d.A); got != tc.group {
				t.Errorf("%d rows with a=1, want %d", got, tc.group)
			}
			if d.Dropped != tc.dropped || d.GroupPositive != tc.a1 || d.LabelPositive != tc.y1 || d.Source != "embedded" {
				t.Errorf("Dropped=%d a1=%q y1=%q Source=%q, want %d %q %q embedded", d.Dropped, d.GroupPositive, d.LabelPositive, d.Source, tc.dropped, tc.a1, tc.y1)
			}
			wantPreset := tc.preset
			if d.Name != tc.name || d.Preset != wantPreset {
				t.Errorf("Name=%q Preset=%q", d.Name, d.Preset)
			}
			for _, c := range d.Columns {
				for _, banned := range tc.notFeatures {
					if c == banned || strings.HasPrefix(c, banned+"=") {
						t.Errorf("column %q must not be a feature", c)
					}
				}
			}
			checkColumnOrder(t, d.Columns, 5)
			for _, v := range append(append([]float64{}, d.Y...), d.A...) {
				if v != 0 && v != 1 {
					t.Fatalf("label or group %v, want 0 or 1", v)
				}
			}
			s := d.Stats()
			if s.Rows != d.N || s.Dim != d.Dim || s.PY != float64(tc.positives)/float64(tc.rows) || s.PA != float64(tc.group)/float64(tc.rows) {
				t.Errorf("stats %+v", s)
			}
			if !(s.PYA0 > 0 && s.PYA0 < s.PYA1 && s.PYA1 < 1) {
				t.Errorf("P(y=1|a=0)=%v, P(y=1|a=1)=%v: expected the a=1 group to have the higher base rate", s.PYA0, s.PYA1)
			}
		})
	}
}

var (
	compasNot = []string{"race", "two_year_recid", "score_text", "decile_score", "is_recid", "days_b_screening_arrest", "name", "id", "dob"}
	adultNot  = []string{"race", "sex", "income", "fnlwgt"}
)

// checkColumnOrder checks that the numeric columns come first, then each
// categorical column's one-hot columns together, levels in sorted order.
func checkColumnOrder(t *testing.T, cols []string, numeric int) {
	t.Helper()
	done := map[string]bool{}
	for j, c := range cols {
		name, level, oneHot := strings.Cut(c, "=")
		if oneHot != (j >= numeric) {
			t.Errorf("column %d is %q: want %d numeric columns first", j, c, numeric)
		}
		if j == 0 || !oneHot {
			continue
		}
		prevName, prevLevel, _ := strings.Cut(cols[j-1], "=")
		switch {
		case prevName == name && prevLevel >= level:
			t.Errorf("levels %q before %q", cols[j-1], c)
		case prevName != name && done[name]:
			t.Errorf("the one-hot columns of %s are not together", name)
		}
		done[name] = true
	}
}

// TestFirstRows checks the encoding of one row against the original files'
// text: adult.data line 1 and the first COMPAS row kept.
func TestFirstRows(t *testing.T) {
	row := func(d *Dataset, i int) map[string]float64 {
		m := map[string]float64{}
		for j, c := range d.Columns {
			if v := d.X[i*d.Dim+j]; v != 0 {
				m[c] = v
			}
		}
		return m
	}
	// 39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K
	paper := map[string]float64{"age": 39, "education-num": 13, "capital-gain": 2174, "hours-per-week": 40,
		"workclass=State-gov": 1, "education=Bachelors": 1, "marital-status=Never-married": 1,
		"relationship=Not-in-family": 1, "native-country=United-States": 1} // Adm-clerical is the dropped first occupation
	full := map[string]float64{"age": 39, "education-num": 13, "capital-gain": 2174, "hours-per-week": 40,
		"workclass=State-gov": 1, "education=Bachelors": 1, "marital-status=Never-married": 1,
		"occupation=Adm-clerical": 1, "relationship=Not-in-family": 1, "native-country=United-States": 1}
	// 1,miguel hernandez,…,Male,…,69,Greater than 45,Other,0,1,0,0,0,-1,…,F,…,two_year_recid 0
	compas := map[string]float64{"age": 69, "sex=Male": 1, "age_cat=Greater than 45": 1, "c_charge_degree=F": 1}
	for _, tc := range []struct {
		name, preset string
		want         map[string]float64
		y, a         float64
	}{
		{"adult-sex", PresetPaper, paper, 0, 1},
		{"adult-race", PresetPaper, paper, 0, 1},
		{"adult-sex", PresetFull, full, 0, 1},
		{"compas", "", compas, 0, 0},
	} {
		d, err := Load(tc.name, Options{Preset: tc.preset})
		if err != nil {
			t.Fatal(err)
		}
		if got := row(d, 0); !mapsEqual(got, tc.want) || d.Y[0] != tc.y || d.A[0] != tc.a {
			t.Errorf("%s %s row 0: %v y=%v a=%v\nwant %v y=%v a=%v", tc.name, tc.preset, got, d.Y[0], d.A[0], tc.want, tc.y, tc.a)
		}
	}
}

func mapsEqual(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestLoadArguments(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  Options
		want string
	}{
		{"german", Options{}, "unknown dataset"},
		{"compas", Options{Preset: PresetPaper}, "single encoding"},
		{"adult-sex", Options{Preset: "tiny"}, "unknown preset"},
		{"adult-sex", Options{DataDir: t.TempDir()}, "adult.data"},
	} {
		if _, err := Load(tc.name, tc.opt); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%q, %+v) = %v, want an error about %s", tc.name, tc.opt, err, tc.want)
		}
	}
	if got := DefaultPreset("adult-race"); got != PresetPaper {
		t.Errorf("DefaultPreset(adult-race) = %q", got)
	}
	if got := DefaultPreset("compas"); got != "" {
		t.Errorf("DefaultPreset(compas) = %q", got)
	}
}

// TestDataDirErrors checks that a damaged original file is reported at its
// line and column.
func TestDataDirErrors(t *testing.T) {
	good := "39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K\n"
	goodTest := "|1x3 Cross validator\n" + strings.ReplaceAll(good, "<=50K", "<=50K.")
	compasHeader := "id,name,sex,age,age_cat,race,juv_fel_count,juv_misd_count,juv_other_count,priors_count,days_b_screening_arrest,is_recid,c_charge_degree,score_text,two_year_recid,priors_count\n"
	for _, tc := range []struct {
		name, preset string
		files        map[string]string
		kind         error
		file         string
		line, col    int
	}{
		{"adult-sex", PresetPaper, map[string]string{adultDataFile: good + strings.Replace(good, "39", "thirty", 1)},
			ErrNotNumber, adultDataFile, 2, 1},
		{"adult-sex", PresetPaper, map[string]string{adultDataFile: good + "\n" + strings.Replace(good, "<=50K", "50K", 1)},
			ErrBadValue, adultDataFile, 3, 15},
		{"adult-sex", PresetPaper, map[string]string{adultDataFile: good + strings.Replace(good, "Male", "M", 1)},
			ErrBadValue, adultDataFile, 2, 10},
		{"adult-sex", PresetPaper, map[string]string{adultDataFile: ""}, ErrEmptyFile, adultDataFile, 0, 0},
		{"adult-sex", PresetPaper, map[string]string{adultDataFile: good + "39, State-gov, 77516\n"},
			ErrFieldCount, adultDataFile, 2, 0},
		{"adult-race", PresetFull, map[string]string{adultDataFile: good, adultTestFile: goodTest + strings.Replace(goodTest[21:], " 40,", " 4O,", 1)},
			ErrNotNumber, adultTestFile, 3, 13},
		{"compas", "", map[string]string{compasFile: compasHeader + "1,x,Male,30,25 - 45,Other,0,0,0,2,0,0,F,Low,1,2\n2,x,Male,31,25 - 45,Other,0,0,0,2,-1,0,F,Low,maybe,2\n"},
			ErrBadValue, compasFile, 3, 15},
		{"compas", "", map[string]string{compasFile: compasHeader + "1,x,Male,30,25 - 45,Other,0,0,0,2,a week,0,F,Low,1,2\n"},
			ErrNotNumber, compasFile, 2, 11},
		{"compas", "", map[string]string{compasFile: strings.Replace(compasHeader, ",race,", ",ethnicity,", 1) + "1,x,Male,30,25 - 45,Other,0,0,0,2,0,0,F,Low,1,2\n"},
			ErrMissingColumn, compasFile, 1, 0},
	} {
		dir := t.TempDir()
		for name, text := range tc.files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, err := Load(tc.name, Options{Preset: tc.preset, DataDir: dir})
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, tc.kind) {
			t.Errorf("%s: error %v, want a *ParseError of kind %v", tc.file, err, tc.kind)
			continue
		}
		if pe.File != filepath.Join(dir, tc.file) || pe.Line != tc.line || pe.Column != tc.col || strings.Contains(err.Error(), "\n") {
			t.Errorf("error %q at %s line %d column %d, want %s line %d column %d", err, pe.File, pe.Line, pe.Column, tc.file, tc.line, tc.col)
		}
	}
}
