package datasets

import (
	"fmt"
	"strings"
)

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

	// The raw values coded 0: "" where every other value is (COMPAS's and
	// Adult's race) and in files written before they were recorded.
	TargetNegative    string `json:"target_negative,omitempty"`
	SensitiveNegative string `json:"sensitive_negative,omitempty"`
}

// CodeTarget returns the 0/1 code of a raw target value, as training
// coded it (CodeValue); Adult's labels may end in "." as in adult.test.
func (s *Schema) CodeTarget(v string) (float64, error) {
	if s.Dataset == "adult-sex" || s.Dataset == "adult-race" {
		v = strings.TrimSuffix(v, ".")
	}
	return CodeValue(v, s.TargetPositive, s.TargetNegative, "target")
}

// CodeSensitive returns the 0/1 code of a raw sensitive value, as
// training coded it (CodeValue).
func (s *Schema) CodeSensitive(v string) (float64, error) {
	return CodeValue(v, s.SensitivePositive, s.SensitiveNegative, "sensitive")
}

// CodeValue codes a raw value v of a two-valued column (role names it in
// errors): 1 for pos, 0 for neg, and, where neg is "", 0 for any other
// value. A column already coded 0/1 — as fp datasets export writes the
// target and the sensitive column — is read as the codes, unless "0" or
// "1" is itself one of the raw values. An empty cell or a value that is
// neither is an error.
func CodeValue(v, pos, neg, role string) (float64, error) {
	isCode := func(s string) bool { return s == "0" || s == "1" }
	switch {
	case v == "":
		return 0, fmt.Errorf("%w: expected the %s value", ErrEmptyCell, role)
	case v == pos:
		return 1, nil
	case neg != "" && v == neg:
		return 0, nil
	case isCode(v) && !isCode(pos) && !isCode(neg):
		if v == "1" {
			return 1, nil
		}
		return 0, nil
	case neg == "":
		return 0, nil
	}
	return 0, fmt.Errorf("%w %q in the %s column: the network codes %q as 1 and %q as 0", ErrBadValue, v, role, pos, neg)
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
	s.encoded(func(c *SourceColumn, name string) { out = append(out, name) })
	return out
}

// Sources lists the source column of each encoded column, in the order of
// Features: "sex" for "sex=Male". A column's name may itself hold "=", so
// the encoded name cannot be split to find it.
func (s *Schema) Sources() []string {
	var out []string
	s.encoded(func(c *SourceColumn, name string) { out = append(out, c.Name) })
	return out
}

// encoded calls f for each encoded column, in order, with its source
// column: a numeric column once, a categorical one for each level but the
// dropped one.
func (s *Schema) encoded(f func(c *SourceColumn, name string)) {
	for i := range s.Columns {
		c := &s.Columns[i]
		if c.Kind == KindNumeric {
			f(c, c.Name)
			continue
		}
		for _, l := range c.Levels {
			if l != c.Dropped || c.Dropped == "" {
				f(c, c.Name+"="+l)
			}
		}
	}
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
