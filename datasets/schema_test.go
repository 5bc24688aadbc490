package datasets

import (
	"slices"
	"strings"
	"testing"
)

// The schema's features are the dataset's encoded columns, in order, for
// every built-in dataset and preset.
func TestSchemaFeaturesMatchColumns(t *testing.T) {
	for _, name := range Names() {
		for _, preset := range Presets(name) {
			d, err := Load(name, Options{Preset: preset})
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Schema.Validate(); err != nil {
				t.Fatalf("%s/%s: %v", name, preset, err)
			}
			if got := d.Schema.Features(); !slices.Equal(got, d.Columns) {
				t.Errorf("%s/%s: schema features\n%v\nwant\n%v", name, preset, got, d.Columns)
			}
			if d.Schema.Dataset != name || d.Schema.Preset != preset || d.Schema.TargetPositive == "" || d.Schema.SensitivePositive == "" {
				t.Errorf("%s/%s: schema identity %+v", name, preset, d.Schema)
			}
		}
	}
	d, err := Load("adult-sex", Options{Preset: PresetPaper})
	if err != nil {
		t.Fatal(err)
	}
	var wc SourceColumn
	for _, c := range d.Schema.Columns {
		if c.Name == "workclass" {
			wc = c
		}
	}
	if wc.Dropped != wc.Levels[0] || wc.Rename["?"] != "Unknown" {
		t.Errorf("adult paper workclass: dropped %q of %v, rename %v", wc.Dropped, wc.Levels, wc.Rename)
	}
}

// Sources gives each encoded column its source column whole, "=" in the
// name or the level included.
func TestSchemaSources(t *testing.T) {
	s := Schema{Columns: []SourceColumn{
		{Name: "age", Kind: KindNumeric},
		{Name: "income=high", Kind: KindNumeric},
		{Name: "a=b", Kind: KindCategorical, Levels: []string{"x", "y=z", "w"}, Dropped: "w"},
		{Name: "c", Kind: KindCategorical, Levels: []string{"p=q"}},
	}}
	got, feats := s.Sources(), s.Features()
	want := []string{"age", "income=high", "a=b", "a=b", "c"}
	if !slices.Equal(got, want) || len(feats) != len(got) {
		t.Errorf("Sources = %q (features %q), want %q", got, feats, want)
	}
}

// The schema codes raw target and sensitive values as training did: the
// values a CSV run saw, the built-in datasets' rules (any other race is
// 0, adult.test's labels end in "."), columns already coded 0/1 as fp
// datasets export writes them, and nothing else.
func TestSchemaCodesValuesAsTraining(t *testing.T) {
	csv := &Schema{Target: "outcome", TargetPositive: "yes", TargetNegative: "no", Sensitive: "group",
		SensitivePositive: "south", SensitiveNegative: "north"}
	numeric := &Schema{Target: "y", TargetPositive: "1", TargetNegative: "0", Sensitive: "a", SensitivePositive: "2", SensitiveNegative: "1"}
	old := &Schema{Target: "y", TargetPositive: "yes", Sensitive: "a", SensitivePositive: "1"} // no negatives recorded
	compas := &Schema{Dataset: "compas", Target: "two_year_recid", TargetPositive: "1", TargetNegative: "0",
		Sensitive: "race", SensitivePositive: "African-American"}
	adult := &Schema{Dataset: "adult-sex", Target: "income", TargetPositive: ">50K", TargetNegative: "<=50K",
		Sensitive: "sex", SensitivePositive: "Male", SensitiveNegative: "Female"}
	for _, tc := range []struct {
		name      string
		s         *Schema
		target    bool
		v         string
		want      float64
		errSubstr string
	}{
		{"csv target 1", csv, true, "yes", 1, ""},
		{"csv target 0", csv, true, "no", 0, ""},
		{"csv group 1", csv, false, "south", 1, ""},
		{"csv group 0", csv, false, "north", 0, ""},
		{"csv third value", csv, true, "maybe", 0, `unexpected value "maybe" in the target column: the network codes "yes" as 1 and "no" as 0`},
		{"csv empty", csv, false, "", 0, "empty cell: expected the sensitive value"},
		{"exported codes", csv, false, "1", 1, ""},
		{"exported codes 0", csv, true, "0", 0, ""},
		{"numeric values are raw values", numeric, false, "1", 0, ""},
		{"numeric third value", numeric, false, "0", 0, `unexpected value "0"`},
		{"old file: any other value", old, true, "no", 0, ""},
		{"old file: positive", old, false, "1", 1, ""},
		{"compas other race", compas, false, "Caucasian", 0, ""},
		{"compas exported race", compas, false, "1", 1, ""},
		{"compas target", compas, true, "1", 1, ""},
		{"compas target third", compas, true, "2", 0, `unexpected value "2"`},
		{"adult.test label", adult, true, ">50K.", 1, ""},
		{"adult label", adult, true, "<=50K", 0, ""},
		{"adult other sex", adult, false, "Other", 0, `unexpected value "Other"`},
	} {
		code := tc.s.CodeSensitive
		if tc.target {
			code = tc.s.CodeTarget
		}
		got, err := code(tc.v)
		switch {
		case tc.errSubstr != "":
			if err == nil || !strings.Contains(err.Error(), tc.errSubstr) {
				t.Errorf("%s: %v, err %v; want an error with %q", tc.name, got, err, tc.errSubstr)
			}
		case err != nil || got != tc.want:
			t.Errorf("%s: %v, err %v; want %v", tc.name, got, err, tc.want)
		}
	}
}

// A CSV run and the built-in datasets record the raw values coded 0.
func TestSchemaRecordsNegatives(t *testing.T) {
	d, err := LoadCSV(writeCSV(t, "x,y,a\n1,no,F\n2,yes,M\n3,no,M\n"), CSVOptions{Target: "y", Sensitive: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if d.Schema.TargetNegative != "no" || d.Schema.SensitiveNegative != "F" {
		t.Errorf("CSV: negatives %q, %q; want no, F", d.Schema.TargetNegative, d.Schema.SensitiveNegative)
	}
	for _, tc := range []struct{ name, target, sensitive string }{
		{"compas", "0", ""}, {"adult-sex", "<=50K", "Female"}, {"adult-race", "<=50K", ""},
	} {
		d, err := Load(tc.name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if d.Schema.TargetNegative != tc.target || d.Schema.SensitiveNegative != tc.sensitive {
			t.Errorf("%s: negatives %q, %q; want %q, %q", tc.name, d.Schema.TargetNegative, d.Schema.SensitiveNegative, tc.target, tc.sensitive)
		}
	}
}
