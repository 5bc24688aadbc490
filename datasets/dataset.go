package datasets

// Dataset is a loaded table after filtering and one-hot encoding, before
// standardization (which is fitted on a training split: see Standardizer).
type Dataset struct {
	Name      string    // "compas", "adult-sex", "adult-race", or the CSV's file name
	Preset    string    // "" for compas and CSVs, "paper" or "full" for adult
	Sensitive string    // the column a comes from: "race", "sex", or the CSV's sensitive column
	Target    string    // the column y comes from: "two_year_recid", "income", or the CSV's target
	Source    string    // "embedded" or the file path(s) read
	Columns   []string  // encoded column names, e.g. "age", "sex=Male"; len == Dim
	X         []float64 // row-major N×Dim, one-hot applied, not standardized
	Y, A      []float64 // labels and sensitive attribute, 0/1
	N, Dim    int

	// The raw values coded 1, which fp prints so that y = 1 and a = 1 have a
	// stated meaning.
	LabelPositive, GroupPositive string

	// Dropped counts the rows of the source that were read but not kept:
	// those the preset's filter removes, or the rows with empty cells that
	// CSVOptions.DropMissing drops.
	Dropped int

	// Schema describes the source columns the features come from and the
	// coding of y and a; network files store it to score raw rows.
	Schema Schema

	// ID identifies the rows as data to compare runs on: a digest of the
	// definitions of y and a, the row filter and every kept row's coded y
	// and a in order, without the file's name or bytes or the feature
	// columns (see identity). Two datasets with the same ID give the same
	// splits for the same seed.
	ID string

	// Groups and Levels are the sensitive attribute as R ≥ 2 groups, when
	// they are asked for (GroupOptions; docs/method.md §1.9): Groups holds
	// each row's group, an index into Levels, the groups' names in a stable
	// order (OtherLevel last, when there). Both are nil otherwise. A stays
	// the binary coding: the built-in dataset's, or for a file the named
	// level its coding rule picks against the rest.
	Groups []int
	Levels []string
	// GroupColumns are the columns the groups come from: the sensitive
	// column, or the columns of an intersection.
	GroupColumns []string
	// GroupNotes say, one line each, which values joined the group
	// OtherLevel for having too few rows.
	GroupNotes []string
	// Notes say, one line each, what was made of the file beyond its
	// columns: an unnamed first column read as a row index and left out.
	Notes []string

	// ColumnWarnings name feature columns that identify rows rather than
	// describe them (unique per row, a one-hot encoding wider than half the
	// rows, a row counter), then those that separate the target almost
	// perfectly on their own (a likely leak), one each.
	ColumnWarnings []ColumnWarning
}

// finish encodes the kept rows' features; d.Y and d.A are already set.
func (d *Dataset) finish(t *table, rows []int, feats []feature) (*Dataset, error) {
	cols, x, schema, err := encodeX(t, rows, feats)
	if err != nil {
		return nil, err
	}
	d.Schema = Schema{Columns: schema, Target: d.Target, TargetPositive: d.LabelPositive,
		Sensitive: d.Sensitive, SensitivePositive: d.GroupPositive}
	d.Columns, d.X = cols, x
	d.N, d.Dim = len(rows), len(cols)
	d.Dropped = t.rows() - len(rows)
	d.ColumnWarnings = suspectColumns(t, rows, feats)
	flagged := map[string]bool{} // a row counter of a file sorted by y is not also a leak
	for _, w := range d.ColumnWarnings {
		flagged[w.Column] = true
	}
	d.ColumnWarnings = append(d.ColumnWarnings, leakyColumns(x, schema, d.Y, d.Target, d.LabelPositive, flagged)...)
	for i := range d.ColumnWarnings {
		d.ColumnWarnings[i].Only = len(feats) == 1
	}
	return d, nil
}

// Stats are a dataset's base rates.
type Stats struct {
	Rows int     `json:"rows"`
	Dim  int     `json:"dim"`
	PY   float64 `json:"p_y"`    // P(y=1)
	PA   float64 `json:"p_a"`    // P(a=1)
	PYA0 float64 `json:"p_y_a0"` // P(y=1 | a=0)
	PYA1 float64 `json:"p_y_a1"` // P(y=1 | a=1)
}

// Stats computes the base rates over all rows. A rate over no rows is 0.
func (d *Dataset) Stats() Stats {
	var n, y [2]float64 // n[g]: rows of group g; y[g]: positives in it
	for i := range d.N {
		g := 0
		if d.A[i] == 1 {
			g = 1
		}
		n[g]++
		y[g] += d.Y[i]
	}
	ratio := func(p, q float64) float64 {
		if q == 0 {
			return 0
		}
		return p / q
	}
	return Stats{
		Rows: d.N, Dim: d.Dim,
		PY:   ratio(y[0]+y[1], n[0]+n[1]),
		PA:   ratio(n[1], n[0]+n[1]),
		PYA0: ratio(y[0], n[0]),
		PYA1: ratio(y[1], n[1]),
	}
}

// Subset returns copies of the labels and binary groups (a) of the given rows.
func (d *Dataset) Subset(rows []int) (y, a []float64) {
	y = make([]float64, len(rows))
	a = make([]float64, len(rows))
	for r, i := range rows {
		y[r], a[r] = d.Y[i], d.A[i]
	}
	return y, a
}
