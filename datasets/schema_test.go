package datasets

import (
	"slices"
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
