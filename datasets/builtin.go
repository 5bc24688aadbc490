package datasets

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The original file names, as published; Options.DataDir holds these.
const (
	compasFile    = "compas-scores-two-years.csv"
	adultDataFile = "adult.data"
	adultTestFile = "adult.test"
)

// Adult presets.
const (
	PresetPaper = "paper" // adult.data, White and Black rows, dim 93: the paper's Table 1
	PresetFull  = "full"  // adult.data + adult.test, rows with "?" dropped, full one-hot
)

// Options choose how a built-in dataset is read.
type Options struct {
	Preset  string // "" = DefaultPreset(name)
	DataDir string // folder with the original files; "" = the embedded copies
	// Columns chooses among the dataset's feature columns (FeatureColumns).
	// The rows kept are the preset's whatever the choice.
	Columns ColumnChoice
	// Groups asks for the sensitive column's values as groups
	// (docs/method.md §1.9); the zero value keeps only the binary a.
	Groups GroupOptions
}

// A variant is a built-in dataset whose sensitive attribute is in fixed
// groups: the rows, features and binary a of its base dataset, with the
// groups of its GroupOptions.
type variant struct {
	base    string
	presets []string
	groups  GroupOptions
}

var variants = map[string]variant{
	// COMPAS's three largest races, the other three (Asian, Native
	// American, Other: 385 rows) together.
	"compas-race4": {base: "compas", presets: []string{""},
		groups: GroupOptions{Levels: []string{"African-American", "Caucasian", "Hispanic"}}},
	// Adult's five races, on the full preset (the paper preset keeps only
	// White and Black).
	"adult-race5": {base: "adult-race", presets: []string{PresetFull}, groups: GroupOptions{All: true}},
}

// Variants lists the built-in datasets whose sensitive attribute is in
// more than two groups: datasets Load reads as their base dataset (Base)
// with the groups fixed.
func Variants() []string { return []string{"compas-race4", "adult-race5"} }

// Base is the built-in dataset a variant reads its rows from, or name
// itself for any other name.
func Base(name string) string {
	if v, ok := variants[name]; ok {
		return v.base
	}
	return name
}

// Names lists the built-in datasets.
func Names() []string { return []string{"compas", "adult-sex", "adult-race"} }

// Presets lists the encodings a built-in dataset has; compas has one, "".
func Presets(name string) []string {
	if v, ok := variants[name]; ok {
		return v.presets
	}
	switch name {
	case "compas":
		return []string{""}
	case "adult-sex", "adult-race":
		return []string{PresetPaper, PresetFull}
	}
	return nil
}

// DefaultPreset is the preset Load uses when none is given.
func DefaultPreset(name string) string {
	if p := Presets(name); len(p) > 0 {
		return p[0]
	}
	return ""
}

// Load reads a built-in dataset ("compas", "adult-sex" or "adult-race", or
// a variant of one, Variants), filters and encodes it as docs/method.md §1
// says.
func Load(name string, opt Options) (*Dataset, error) {
	presets := Presets(name)
	if presets == nil {
		return nil, fmt.Errorf("unknown dataset %q: want one of %s (or a CSV file)", name, strings.Join(append(Names(), Variants()...), ", "))
	}
	if v, ok := variants[name]; ok {
		if opt.Groups.asked() {
			return nil, fmt.Errorf("dataset %s has its groups (%s); --sensitive-levels and --group-map choose groups of %s", name, v.describe(), v.base)
		}
		if opt.Preset != "" && !slices.Contains(presets, opt.Preset) {
			return nil, fmt.Errorf("dataset %s: preset %q: it has only the %s preset", name, opt.Preset, presets[0])
		}
		v.groups.MinRows = opt.Groups.MinRows
		opt.Groups, opt.Preset = v.groups, presets[0]
		d, err := Load(v.base, opt)
		if err != nil {
			return nil, err
		}
		d.Name = name
		return d, nil
	}
	if err := opt.Groups.check(); err != nil {
		return nil, fmt.Errorf("dataset %s: %w", name, err)
	}
	preset := opt.Preset
	if preset == "" {
		preset = DefaultPreset(name)
	}
	if !slices.Contains(presets, preset) {
		if name == "compas" {
			return nil, fmt.Errorf("dataset compas has a single encoding; preset %q applies only to adult-sex and adult-race", preset)
		}
		return nil, fmt.Errorf("dataset %s: unknown preset %q: want %s", name, preset, strings.Join(presets, " or "))
	}
	keep, err := opt.Columns.keep(FeatureColumns(name), builtinHeader(name), builtinTarget(name), []string{builtinSensitive(name)}, "dataset "+name)
	if err != nil {
		return nil, err
	}
	var d *Dataset
	switch name {
	case "compas":
		var t *table
		if t, err = source(compasFile, opt.DataDir); err == nil {
			d, err = compas(t, keep, opt.Groups)
		}
	default:
		var t, u *table
		t, err = source(adultDataFile, opt.DataDir)
		if err == nil && preset == PresetFull {
			if u, err = source(adultTestFile, opt.DataDir); err == nil {
				t = concat(t, u)
			}
		}
		if err == nil {
			d, err = adult(t, strings.TrimPrefix(name, "adult-"), preset, keep, opt.Groups)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", name, err)
	}
	d.Name, d.Preset = name, preset
	d.Schema.Dataset, d.Schema.Preset = name, preset
	d.ID = d.identity("builtin:"+name+"/"+preset, 0, nil)
	d.Source = "embedded"
	if opt.DataDir != "" {
		d.Source = filepath.Join(opt.DataDir, adultDataFile)
		switch {
		case name == "compas":
			d.Source = filepath.Join(opt.DataDir, compasFile)
		case preset == PresetFull:
			d.Source += ", " + filepath.Join(opt.DataDir, adultTestFile)
		}
	}
	return d, nil
}

// source reads an original file from dir, or its embedded copy when dir is "".
func source(file, dir string) (*table, error) {
	if dir == "" {
		return readEmbedded(file)
	}
	path := filepath.Join(dir, file)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if file == compasFile {
		return readCSV(bufio.NewReaderSize(f, 1<<16), path, compasColumns)
	}
	return readAdult(f, path)
}

// compasColumns are the columns of the COMPAS file fp reads: the features,
// race, the label and those ProPublica's filter needs.
var compasColumns = []string{"sex", "age", "age_cat", "race", "juv_fel_count", "juv_misd_count",
	"juv_other_count", "priors_count", "days_b_screening_arrest", "is_recid", "c_charge_degree",
	"score_text", "two_year_recid"}

// The feature columns of the built-in datasets, numeric ones first.
var (
	compasNumeric     = []string{"age", "juv_fel_count", "juv_misd_count", "juv_other_count", "priors_count"}
	compasCategorical = []string{"sex", "age_cat", "c_charge_degree"}
	adultNumeric      = []string{"age", "education-num", "capital-gain", "capital-loss", "hours-per-week"}
	adultCategorical  = []string{"workclass", "education", "marital-status", "occupation", "relationship", "native-country"}
)

// builtinHeader lists the columns fp reads from a built-in dataset's files.
func builtinHeader(name string) []string {
	if name == "compas" {
		return compasColumns
	}
	return adultFields
}

func builtinTarget(name string) string {
	if name == "compas" {
		return "two_year_recid"
	}
	return "income"
}

func builtinSensitive(name string) string {
	if name == "adult-sex" {
		return "sex"
	}
	return "race"
}

// describe names a variant's groups for a message.
func (v variant) describe() string {
	if v.groups.All {
		return "every value its own group"
	}
	return strings.Join(v.groups.Levels, ", ") + " and " + OtherLevel
}

// compasRows lists the rows of t that ProPublica's analysis keeps (compas).
func compasRows(t *table) ([]int, error) {
	days, recid, degree, score := t.column("days_b_screening_arrest"), t.column("is_recid"),
		t.column("c_charge_degree"), t.column("score_text")
	dayVals, dayErrs := numbers(days)
	recidVals, recidErrs := numbers(recid)
	var rows []int
	for i := range t.rows() {
		k := days.codes[i]
		if days.levels[k] == "" {
			continue // no arrest date: outside the window, as in ProPublica's filter
		}
		if dayErrs[k] != nil {
			return nil, t.errAt(i, days, dayErrs[k])
		}
		if e := recidErrs[recid.codes[i]]; e != nil {
			return nil, t.errAt(i, recid, e)
		}
		if d := dayVals[k]; d < -30 || d > 30 || recidVals[recid.codes[i]] == -1 ||
			degree.value(i) == "O" || score.value(i) == "N/A" {
			continue
		}
		rows = append(rows, i)
	}
	if len(rows) == 0 {
		return nil, &ParseError{File: t.files[0], Err: fmt.Errorf("%w: no row passes the filter", ErrNoRows)}
	}
	return rows, nil
}

// compas keeps the rows of ProPublica's analysis: screening within 30 days
// of the arrest, a known recidivism status, no ordinary traffic offence and
// a valid score. keep names the feature columns to encode.
func compas(t *table, keep map[string]bool, g GroupOptions) (*Dataset, error) {
	rows, err := compasRows(t)
	if err != nil {
		return nil, err
	}
	d := &Dataset{Target: "two_year_recid", LabelPositive: "1", Sensitive: "race", GroupPositive: "African-American"}
	if d.Y, err = binaryLabel(t, rows, t.column("two_year_recid"), map[string]float64{"0": 0, "1": 1}); err != nil {
		return nil, err
	}
	race := t.column("race")
	d.A = make([]float64, len(rows))
	for r, i := range rows {
		switch race.value(i) {
		case "":
			return nil, t.errAt(i, race, fmt.Errorf("%w: expected a race", ErrEmptyCell))
		case "African-American":
			d.A[r] = 1
		}
	}
	if g.asked() {
		if err := d.setGroups(t, rows, []*column{race}, g); err != nil {
			return nil, err
		}
		d.binaryFromGroups(d.GroupPositive)
	}
	var feats []feature
	for _, n := range compasNumeric {
		if keep[n] {
			feats = append(feats, feature{col: t.column(n), enc: numeric})
		}
	}
	for _, n := range compasCategorical {
		if keep[n] {
			feats = append(feats, feature{col: t.column(n), enc: oneHot})
		}
	}
	if _, err := d.finish(t, rows, feats); err != nil {
		return nil, err
	}
	d.Schema.TargetNegative = "0" // any race other than African-American is a = 0
	return d, nil
}

// adult encodes Adult; a is "sex" or "race"; keep names the feature
// columns to encode.
func adult(t *table, a, preset string, keep map[string]bool, g GroupOptions) (*Dataset, error) {
	d := &Dataset{Target: "income", LabelPositive: ">50K", Sensitive: a, GroupPositive: "Male"}
	if a == "race" {
		d.GroupPositive = "White"
	}
	race := t.column("race")
	var rows []int
	enc, rename := oneHot, map[string]string(nil)
	if preset == PresetPaper {
		enc, rename = oneHotDropFirst, map[string]string{"?": "Unknown"}
		for i := range t.rows() {
			if r := race.value(i); r == "White" || r == "Black" {
				rows = append(rows, i)
			}
		}
	} else {
	rowLoop:
		for i := range t.rows() {
			for _, c := range t.cols {
				if c.value(i) == "?" {
					continue rowLoop
				}
			}
			rows = append(rows, i)
		}
	}
	if len(rows) == 0 {
		return nil, &ParseError{File: strings.Join(t.files, ", "), Err: fmt.Errorf("%w: no row passes the filter", ErrNoRows)}
	}
	var err error
	// adult.test writes its labels with a trailing ".".
	labels := map[string]float64{"<=50K": 0, ">50K": 1, "<=50K.": 0, ">50K.": 1}
	if d.Y, err = binaryLabel(t, rows, t.column("income"), labels); err != nil {
		return nil, err
	}
	col := t.column(a)
	d.A = make([]float64, len(rows))
	for r, i := range rows {
		switch v := col.value(i); {
		case v == d.GroupPositive:
			d.A[r] = 1
		case a == "sex" && v != "Female":
			return nil, t.errAt(i, col, fmt.Errorf("%w: expected Male or Female, got %q", ErrBadValue, v))
		case v == "" || v == "?":
			return nil, t.errAt(i, col, fmt.Errorf("%w: expected a race, got %q", ErrBadValue, v))
		}
	}
	if g.asked() {
		if err := d.setGroups(t, rows, []*column{col}, g); err != nil {
			return nil, err
		}
		d.binaryFromGroups(d.GroupPositive)
	}
	var feats []feature
	for _, n := range adultNumeric {
		if keep[n] {
			feats = append(feats, feature{col: t.column(n), enc: numeric})
		}
	}
	for _, n := range adultCategorical {
		if keep[n] {
			feats = append(feats, feature{col: t.column(n), enc: enc, rename: rename})
		}
	}
	if _, err := d.finish(t, rows, feats); err != nil {
		return nil, err
	}
	d.Schema.TargetNegative = "<=50K"
	if a == "sex" && d.GroupPositive == "Male" { // any race other than White is a = 0
		d.Schema.SensitiveNegative = "Female"
	}
	return d, nil
}

// binaryLabel codes a label column through codes, rejecting other values.
func binaryLabel(t *table, rows []int, c *column, codes map[string]float64) ([]float64, error) {
	y := make([]float64, len(rows))
	for r, i := range rows {
		v, ok := codes[c.value(i)]
		if !ok {
			want := make([]string, 0, len(codes))
			for k := range codes {
				want = append(want, k)
			}
			slices.Sort(want)
			return nil, t.errAt(i, c, fmt.Errorf("%w %q: expected one of %s", ErrBadValue, c.value(i), quoteList(want)))
		}
		y[r] = v
	}
	return y, nil
}
