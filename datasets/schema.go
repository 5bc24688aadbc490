package datasets

import "fmt"

// Column kinds of a Schema.
const (
	KindNumeric     = "numeric"
	KindCategorical = "categorical"
)

// Schema is what it takes to turn a raw row of the source file into the
// encoded feature vector a network was trained on, and what the 0/1 codes
// of the target and the sensitive attribute stand for. It is stored in
// network files so that they score raw rows on their own.
//
// The encoded vector is, column by column in Columns order: a numeric
// column's value; for a categorical column one 0/1 entry per level in
// Levels order, leaving out Dropped (the level encoded as all zeros).
type Schema struct {
	// Dataset is the built-in dataset whose original file the rows come
	// from ("compas", "adult-sex", "adult-race"), read by that dataset's
	// own reader; "" for a CSV file with a header row.
	Dataset string `json:"dataset,omitempty"`
	Preset  string `json:"preset,omitempty"`

	Columns []SourceColumn `json:"columns"`

	Target            string `json:"target"`
	TargetPositive    string `json:"target_positive"` // the raw target value coded y = 1
	Sensitive         string `json:"sensitive"`
	SensitivePositive string `json:"sensitive_positive"` // the raw sensitive value coded a = 1
}

// SourceColumn is one column of the source file the network reads.
type SourceColumn struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // KindNumeric or KindCategorical
	// Levels are a categorical column's known values, sorted, as they
	// appear after Rename.
	Levels  []string `json:"levels,omitempty"`
	Dropped string   `json:"dropped,omitempty"` // the level without an entry of its own, "" for none
	// Rename maps a raw value to the level it stands for (Adult's "?" is
	// the level "Unknown").
	Rename map[string]string `json:"rename,omitempty"`
}

// Features lists the encoded columns' names ("age", "sex=Male"), in order.
func (s *Schema) Features() []string {
	var out []string
	for _, c := range s.Columns {
		if c.Kind == KindNumeric {
			out = append(out, c.Name)
			continue
		}
		for _, l := range c.Levels {
			if l != c.Dropped || c.Dropped == "" {
				out = append(out, c.Name+"="+l)
			}
		}
	}
	return out
}

// Sources lists the source column of each encoded column, in the order of
// Features: "sex" for "sex=Male". A column's name may itself hold "=", so
// the encoded name cannot be split to find it.
func (s *Schema) Sources() []string {
	var out []string
	for _, c := range s.Columns {
		if c.Kind == KindNumeric {
			out = append(out, c.Name)
			continue
		}
		for _, l := range c.Levels {
			if l != c.Dropped || c.Dropped == "" {
				out = append(out, c.Name)
			}
		}
	}
	return out
}

// Validate checks that every column is well formed.
func (s *Schema) Validate() error {
	if len(s.Columns) == 0 {
		return fmt.Errorf("schema: no columns")
	}
	seen := map[string]bool{}
	for _, c := range s.Columns {
		if seen[c.Name] {
			return fmt.Errorf("schema: column %q listed twice", c.Name)
		}
		seen[c.Name] = true
		switch c.Kind {
		case KindNumeric:
		case KindCategorical:
			if len(c.Levels) == 0 {
				return fmt.Errorf("schema: categorical column %q has no levels", c.Name)
			}
		default:
			return fmt.Errorf("schema: column %q: kind %q, want %s or %s", c.Name, c.Kind, KindNumeric, KindCategorical)
		}
	}
	return nil
}
