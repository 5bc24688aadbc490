package records

import (
	"fmt"
	"strconv"
	"strings"
)

// GroupFields lists the fields records can be grouped by.
var GroupFields = []string{"method", "penalty", "lambda", "split", "engine", "dataset", "sensitive", "arch", "config"}

// Grouping names the record fields that define a group, e.g. method and
// penalty. Build one with ParseGrouping.
type Grouping []string

// ParseGrouping parses a comma-separated list of fields from GroupFields,
// e.g. "method,penalty".
func ParseGrouping(by string) (Grouping, error) {
	var g Grouping
	for f := range strings.SplitSeq(by, ",") {
		f = strings.TrimSpace(f)
		ok := false
		for _, known := range GroupFields {
			ok = ok || f == known
		}
		if !ok {
			return nil, fmt.Errorf("group by %q: field %q, want a comma-separated list of %s",
				by, f, strings.Join(GroupFields, ", "))
		}
		g = append(g, f)
	}
	return g, nil
}

// Key returns the name of r's group: the values of the fields joined by
// "/", numbers written as field=value (e.g. "cheb/ato-all",
// "lambda=0.001"). Empty values are left out; a record whose values are
// all empty is in the group "(none)".
func (g Grouping) Key(r *Record) string {
	parts := make([]string, 0, len(g))
	for _, f := range g {
		var v string
		switch f {
		case "method":
			v = r.MethodLabel()
		case "penalty":
			v = r.Penalty
		case "engine":
			v = r.Engine
		case "dataset":
			v = r.Dataset
		case "sensitive":
			v = r.Sensitive
		case "arch":
			v = r.Arch
		case "config":
			v = r.Config
		case "lambda":
			v = "lambda=" + strconv.FormatFloat(r.Lambda, 'g', -1, 64)
		case "split":
			v = "split=" + strconv.Itoa(r.Split)
		}
		if v != "" {
			parts = append(parts, v)
		}
	}
	if len(parts) == 0 {
		return "(none)"
	}
	return strings.Join(parts, "/")
}

// GroupBy splits recs into groups by g's key. Within a group the records
// keep their order.
func GroupBy(recs []Record, g Grouping) map[string][]Record {
	out := map[string][]Record{}
	for i := range recs {
		k := g.Key(&recs[i])
		out[k] = append(out[k], recs[i])
	}
	return out
}
