package records

import (
	"fmt"
	"slices"
	"strings"
)

// DataGroup is the records of one dataset, as SameData tells datasets
// apart.
type DataGroup struct {
	// Label names the dataset readably: its name (the names of the files
	// that held the same rows), its sensitive attribute, and what tells it
	// apart from another dataset of the same name.
	Label   string
	Records []Record
}

// SameData reports whether two records come from the same dataset: the
// same rows, coded alike, so that their fronts can be pooled and their
// splits paired. Records that carry the rows' identity (DataID) are
// compared by it alone: a copy of a file under another name, or a run that
// left out a feature column, is the same dataset. Records written before
// the identity was recorded are compared by dataset, preset and sensitive
// attribute, with each other and with records that carry it.
//
// ByData applies this rule to a set of records; every command that pools
// or pairs candidates (fp front, compare, pick, plot, report) goes through
// it.
func SameData(a, b *Record) bool {
	if a.DataID != "" && b.DataID != "" {
		return a.DataID == b.DataID
	}
	return fallbackData(a) == fallbackData(b)
}

// fallbackData is the identity of a record without DataID.
func fallbackData(r *Record) string { return r.Dataset + "\x00" + r.Preset + "\x00" + r.Sensitive }

// ByData partitions recs by dataset (see SameData), in the order the
// datasets first appear; within a group the records keep their order.
// Records without DataID join the one group of records with DataID whose
// dataset, preset and sensitive attribute they share; when several such
// groups exist (files of one name with different rows), which one they
// belong to cannot be told, and they form a group of their own.
func ByData(recs []Record) []DataGroup {
	type group struct {
		recs      []Record
		fallbacks map[string]bool // the fallback identities of its records
	}
	var withID []*group
	byID, byFallback := map[string]*group{}, map[string]*group{}
	for i := range recs {
		r := &recs[i]
		if r.DataID == "" {
			continue
		}
		g := byID[r.DataID]
		if g == nil {
			g = &group{fallbacks: map[string]bool{}}
			byID[r.DataID] = g
			withID = append(withID, g)
		}
		g.fallbacks[fallbackData(r)] = true
	}
	// owner is the one group with DataID that fb belongs to, or nil.
	owner := func(fb string) *group {
		var found *group
		for _, g := range withID {
			if g.fallbacks[fb] {
				if found != nil {
					return nil
				}
				found = g
			}
		}
		return found
	}
	var ordered []*group
	seen := map[*group]bool{}
	for i := range recs {
		r := &recs[i]
		g := byID[r.DataID]
		if r.DataID == "" {
			fb := fallbackData(r)
			if g = owner(fb); g == nil {
				if g = byFallback[fb]; g == nil {
					g = &group{}
					byFallback[fb] = g
				}
			}
		}
		if !seen[g] {
			seen[g] = true
			ordered = append(ordered, g)
		}
		g.recs = append(g.recs, *r)
	}
	out := make([]DataGroup, len(ordered))
	for i, g := range ordered {
		out[i] = DataGroup{Label: dataLabel(g.recs), Records: g.recs}
	}
	// Datasets whose names coincide are told apart by preset, else by
	// their identity.
	same := map[string][]int{}
	for i := range out {
		same[out[i].Label] = append(same[out[i].Label], i)
	}
	for _, idx := range same {
		if len(idx) < 2 {
			continue
		}
		presets := map[string]bool{}
		for _, i := range idx {
			presets[out[i].Records[0].Preset] = true
		}
		for _, i := range idx {
			r := &out[i].Records[0]
			switch {
			case len(presets) == len(idx):
				out[i].Label += " [preset " + r.Preset + "]"
			case r.DataID != "":
				out[i].Label += " [data_id " + r.DataID + "]"
			default:
				out[i].Label += " [no data_id]"
			}
		}
	}
	return out
}

// dataLabel names the dataset of recs: its names, then its sensitive
// attribute ("compas (race)", "before.csv, after.csv (group)"); Adult's
// datasets name their attribute already.
func dataLabel(recs []Record) string {
	var names []string
	for i := range recs {
		if !slices.Contains(names, recs[i].Dataset) {
			names = append(names, recs[i].Dataset)
		}
	}
	s, r := strings.Join(names, ", "), &recs[0]
	if r.Sensitive == "" || r.Dataset == "adult-sex" || r.Dataset == "adult-race" {
		return s
	}
	return s + " (" + r.Sensitive + ")"
}

// MixedDataError refuses records of several datasets where a command would
// pool their candidates in one front or pair their splits.
type MixedDataError struct {
	Labels []string // the datasets, as ByData names them
	// Escape is the grouping that keeps the datasets apart ("--by
	// dataset,run"), "" for a command that has none.
	Escape string
}

func (e *MixedDataError) Error() string {
	s := fmt.Sprintf("the records are of %d datasets (%s): a front or a comparison is of one dataset's candidates; give one dataset's runs",
		len(e.Labels), strings.Join(e.Labels, "; "))
	if e.Escape != "" {
		s += ", or keep the datasets apart with " + e.Escape
	}
	return s
}

// OneDataPerGroup partitions recs by dataset (ByData) for a command that
// pools or pairs candidates. Several datasets are refused with a
// *MixedDataError unless by includes "dataset", the one way to keep them
// apart; escape is the flag that says so, for the message.
func OneDataPerGroup(recs []Record, by Grouping, escape string) ([]DataGroup, error) {
	groups := ByData(recs)
	if len(groups) <= 1 || by.Has("dataset") {
		return groups, nil
	}
	labels := make([]string, len(groups))
	for i := range groups {
		labels[i] = groups[i].Label
	}
	return nil, &MixedDataError{Labels: labels, Escape: escape}
}

// NamesApart refuses datasets that share a name, for a command whose groups
// are named by the grouping's key (the dataset's name, not its rows): it
// could not keep them apart.
func NamesApart(groups []DataGroup) error {
	names := map[string]int{}
	for i, g := range groups {
		for k := range g.Records {
			if j, ok := names[g.Records[k].Dataset]; ok && j != i {
				labels := make([]string, len(groups))
				for i := range groups {
					labels[i] = groups[i].Label
				}
				return fmt.Errorf("the records are of %d datasets (%s), two of them named %s: grouping by dataset cannot keep them apart; give one dataset's runs",
					len(groups), strings.Join(labels, "; "), g.Records[k].Dataset)
			}
			names[g.Records[k].Dataset] = i
		}
	}
	return nil
}
