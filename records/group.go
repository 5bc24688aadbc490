package records

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// GroupFields lists the fields records can be grouped by. "run" is one
// group per sweep configuration (Record.Config), named readably (see
// Groups).
var GroupFields = []string{"run", "family", "method", "penalty", "lambdas", "lambda", "split", "engine", "dataset", "sensitive", "arch", "config"}

// DefaultGrouping is how fp front and fp compare group candidates: one
// group per sweep configuration.
const DefaultGrouping = "run"

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

// Has reports whether the grouping includes field.
func (g Grouping) Has(field string) bool { return slices.Contains(g, field) }

// Key returns the name of r's group: the values of the fields joined by
// "/", numbers written as field=value (e.g. "cheb/ato-all",
// "lambda=0.001"). Empty values are left out; a record whose values are
// all empty is in the group "(none)". The field "run" stands for the
// method and penalty here; Groups names runs apart.
func (g Grouping) Key(r *Record) string {
	parts := make([]string, 0, len(g))
	for _, f := range g {
		var v string
		switch f {
		case "run":
			v = r.MethodLabel()
			if r.Penalty != "" {
				v += "/" + r.Penalty
			}
		case "family":
			v = r.Family()
		case "method":
			v = r.MethodLabel()
		case "penalty":
			v = r.Penalty
		case "lambdas":
			if r.Lambdas != "" {
				v = "lambdas=" + r.Lambdas
			}
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

// Groups splits recs into named groups by g, like GroupBy, but a grouping
// with "run" keeps the records of different sweep configurations apart.
// A run is named by its method and penalty; runs that would print alike are
// told apart by the first of λ grid and engine that differs among them,
// else by the file or folder they were read from (without .jsonl), else by
// their configuration digest.
func Groups(recs []Record, g Grouping) map[string][]Record {
	if !g.Has("run") {
		return GroupBy(recs, g)
	}
	// Group by the full identity first: the key plus the configuration.
	type id struct{ key, config string }
	byID := map[id][]Record{}
	for i := range recs {
		k := id{g.Key(&recs[i]), recs[i].Config}
		byID[k] = append(byID[k], recs[i])
	}
	byKey := map[string][]id{}
	for k := range byID {
		byKey[k.key] = append(byKey[k.key], k)
	}
	out := map[string][]Record{}
	for key, ids := range byKey {
		if len(ids) == 1 {
			out[key] = byID[ids[0]]
			continue
		}
		first := func(k id) *Record { return &byID[k][0] }
		// Each describer names one attribute; "" means the records do not
		// carry it (written before it was recorded), which tells nothing apart.
		describers := []func(r *Record) string{
			func(r *Record) string { return labelled("lambdas", r.Lambdas) },
			func(r *Record) string { return labelled("adversary", advVersion(r)) },
			func(r *Record) string { return labelled("mode", r.EngineMode) },
			func(r *Record) string { return r.Engine },
			func(r *Record) string { return strings.TrimSuffix(filepath.Base(r.Source), Ext) },
			func(r *Record) string { return "config=" + r.Config },
		}
		for _, describe := range describers {
			names := map[string]bool{}
			for _, k := range ids {
				names[describe(first(k))] = true
			}
			if len(names) == len(ids) && !names[""] {
				for _, k := range ids {
					out[key+" ("+describe(first(k))+")"] = byID[k]
				}
				break
			}
		}
	}
	return out
}

// labelled is "name=value", or "" for an absent value.
func labelled(name, value string) string {
	if value == "" {
		return ""
	}
	return name + "=" + value
}

// advVersion names the adversarial baseline's schedule: records of that
// method written before the schedule had versions used version 1.
func advVersion(r *Record) string {
	switch {
	case r.Method != "adversarial":
		return ""
	case r.AdvVersion == 0:
		return "v1"
	}
	return "v" + strconv.Itoa(r.AdvVersion)
}
