package datasets

import (
	"fmt"
	"strconv"
)

// Raw returns the raw source values of an encoded (unstandardized) row x,
// one per schema column: the inverse of the encoding, for writing encoded
// rows back out as a file the network reads. Numbers are written in the
// shortest form that reads back to the same float64; a categorical column
// gives its level (the dropped level when its entries are all 0).
func (s *Schema) Raw(x []float64) ([]string, error) {
	out := make([]string, 0, len(s.Columns))
	j := 0
	for _, c := range s.Columns {
		if c.Kind == KindNumeric {
			if j >= len(x) {
				return nil, fmt.Errorf("raw row: %d values, the schema encodes more", len(x))
			}
			out = append(out, strconv.FormatFloat(x[j], 'g', -1, 64))
			j++
			continue
		}
		level := c.Dropped
		for _, l := range c.Levels {
			if l == c.Dropped && c.Dropped != "" {
				continue
			}
			if j >= len(x) {
				return nil, fmt.Errorf("raw row: %d values, the schema encodes more", len(x))
			}
			if x[j] == 1 {
				level = l
			}
			j++
		}
		if level == "" {
			return nil, fmt.Errorf("raw row: column %q has no level set", c.Name)
		}
		out = append(out, level)
	}
	if j != len(x) {
		return nil, fmt.Errorf("raw row: %d values, the schema encodes %d", len(x), j)
	}
	return out, nil
}
