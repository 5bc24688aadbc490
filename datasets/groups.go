package datasets

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// OtherLevel is the group of the values not kept as groups of their own:
// those GroupOptions.Levels does not list and those with fewer rows than
// GroupOptions.MinRows.
const OtherLevel = "other"

// LevelSeparator joins the values of the columns of an intersection in
// its level's name: "African-American × Male".
const LevelSeparator = " × "

// DefaultMinGroupRows is GroupOptions.MinRows when it is 0.
const DefaultMinGroupRows = 30

// ErrGroups is the kind of error of a grouping that cannot be made: an
// unknown level, too few rows, fewer than two groups.
var ErrGroups = errors.New("sensitive groups")

// GroupOptions ask for the sensitive attribute as R ≥ 2 groups rather than
// the binary a (docs/method.md §1.9). The zero value asks for none: the
// dataset keeps only its binary a, its identity and its splits exactly as
// without groups.
type GroupOptions struct {
	// All makes every value of the sensitive column (every combination of
	// values, for several columns) a group of its own.
	All bool
	// Levels lists the values kept as groups, in this order; every other
	// value joins the group OtherLevel. For several columns a level names
	// one value of each, joined by LevelSeparator (or by "*").
	Levels []string
	// MinRows is the fewest rows a group may have in the whole data: a
	// value with fewer joins OtherLevel, with a note; 0 means
	// DefaultMinGroupRows.
	MinRows int
	// Map puts values in groups of the user's naming before Levels and
	// MinRows act, so that Levels names the groups of the map and a group
	// of the map with fewer than MinRows rows joins OtherLevel. A group
	// named OtherLevel (in any case) is that group. Values not in the map
	// keep their own name. Map alone asks for every group (as All does).
	Map []GroupMapping
}

// A GroupMapping puts a value of the sensitive column (for several
// columns, a combination of their values, named as a level is) in the group
// Group.
type GroupMapping struct {
	Value, Group string
}

// ParseGroupMap reads --group-map's entries, VALUE=GROUP each, in the
// order given; spaces around either side are dropped. nil entries give a
// nil map.
func ParseGroupMap(entries []string) ([]GroupMapping, error) {
	var out []GroupMapping
	for _, e := range entries {
		v, g, ok := strings.Cut(e, "=")
		switch {
		case !ok:
			return nil, fmt.Errorf("%w: --group-map: %q has no \"=\"; write VALUE=GROUP, entries separated by commas", ErrGroups, e)
		case strings.Contains(g, "="):
			return nil, fmt.Errorf("%w: --group-map: %q has more than one \"=\"; write VALUE=GROUP", ErrGroups, e)
		}
		out = append(out, GroupMapping{Value: strings.TrimSpace(v), Group: strings.TrimSpace(g)})
	}
	return out, nil
}

// IsZero reports whether no grouping is asked for.
func (g GroupOptions) IsZero() bool {
	return !g.All && g.Levels == nil && g.MinRows == 0 && g.Map == nil
}

// asked reports whether levels are asked for (MinRows alone asks for none).
func (g GroupOptions) asked() bool { return g.All || g.Levels != nil || g.Map != nil }

func (g GroupOptions) minRows() int {
	if g.MinRows == 0 {
		return DefaultMinGroupRows
	}
	return g.MinRows
}

// check refuses a malformed choice, naming the flag.
func (g GroupOptions) check() error {
	switch {
	case g.All && g.Levels != nil:
		return fmt.Errorf("%w: --sensitive-levels: give all or a list of values, not both", ErrGroups)
	case g.Levels != nil && len(g.Levels) == 0:
		return fmt.Errorf("%w: --sensitive-levels: an empty list (give all or values separated by commas)", ErrGroups)
	case g.MinRows < 0:
		return fmt.Errorf("%w: --min-group-rows %d: want ≥ 1", ErrGroups, g.MinRows)
	case g.MinRows > 0 && !g.asked():
		return fmt.Errorf("%w: --min-group-rows applies to groups: give --sensitive-levels or --group-map (or several --sensitive columns, or a dataset with groups such as compas-race4)", ErrGroups)
	}
	for _, m := range g.Map {
		switch {
		case m.Value == "":
			return fmt.Errorf("%w: --group-map: %q has an empty value; write VALUE=GROUP", ErrGroups, m.Value+"="+m.Group)
		case m.Group == "":
			return fmt.Errorf("%w: --group-map: %q has an empty group; write VALUE=GROUP", ErrGroups, m.Value+"="+m.Group)
		}
	}
	seen := map[string]bool{}
	for _, l := range g.Levels {
		switch {
		case l == "":
			return fmt.Errorf("%w: --sensitive-levels: an empty value (write the values separated by commas)", ErrGroups)
		case seen[l]:
			return fmt.Errorf("%w: --sensitive-levels: %q is listed twice", ErrGroups, l)
		case strings.EqualFold(l, OtherLevel):
			return fmt.Errorf("%w: --sensitive-levels: %q is the name of the group of the values not listed; list the values themselves", ErrGroups, l)
		}
		seen[l] = true
	}
	return nil
}

// GroupCount is one group of a dataset: its level, its rows and its rate
// of y = 1.
type GroupCount struct {
	Level string  `json:"level"`
	Rows  int     `json:"rows"`
	PY    float64 `json:"p_y"`
}

// GroupCounts lists d's groups in level order; nil without groups.
func (d *Dataset) GroupCounts() []GroupCount {
	if d.Levels == nil {
		return nil
	}
	out := make([]GroupCount, len(d.Levels))
	for r, l := range d.Levels {
		out[r].Level = l
	}
	for i, g := range d.Groups {
		out[g].Rows++
		out[g].PY += d.Y[i]
	}
	for r := range out {
		if out[r].Rows > 0 {
			out[r].PY /= float64(out[r].Rows)
		}
	}
	return out
}

// setGroups codes each kept row's group from the values of cols (one
// column, or the intersection of several) as g asks: d.Groups, d.Levels and
// d.GroupNotes.
func (d *Dataset) setGroups(t *table, rows []int, cols []*column, g GroupOptions) error {
	// The label of each row, by the rank of each column's value.
	ranks := make([]map[int32]int, len(cols))
	for j, c := range cols {
		codes := usedCodes(c, rows)
		vals := make([]string, len(codes))
		for k, code := range codes {
			vals[k] = c.levels[code]
		}
		sortValues(vals)
		ranks[j] = make(map[int32]int, len(codes))
		for _, code := range codes {
			ranks[j][code] = slices.Index(vals, c.levels[code])
		}
	}
	type value struct {
		label string
		key   []int // the rank of each column's value
		rows  int
	}
	byLabel := map[string]*value{}
	var values []*value
	rowLabel := make([]string, len(rows))
	parts := make([]string, len(cols))
	for r, i := range rows {
		for j, c := range cols {
			if c.value(i) == "" {
				return t.errAt(i, c, fmt.Errorf("%w: expected a value of the sensitive column", ErrEmptyCell))
			}
			parts[j] = c.value(i)
		}
		label := strings.Join(parts, LevelSeparator)
		v := byLabel[label]
		if v == nil {
			v = &value{label: label, key: make([]int, len(cols))}
			for j, c := range cols {
				v.key[j] = ranks[j][c.codes[i]]
			}
			byLabel[label] = v
			values = append(values, v)
		}
		v.rows++
		rowLabel[r] = label
	}
	slices.SortFunc(values, func(a, b *value) int { return slices.Compare(a.key, b.key) })
	names := make([]string, len(values))
	for k, v := range values {
		names[k] = v.label
	}
	what := "column " + cols[0].name
	if len(cols) > 1 {
		var cn []string
		for _, c := range cols {
			cn = append(cn, c.name)
		}
		what = "columns " + strings.Join(cn, ", ")
	}

	label := func(l string) string { return levelLabel(len(cols), l) }

	// The map first: each of its groups takes the place of its first value
	// in level order, so that the levels listed and the minimum count of
	// rows apply to the groups.
	var group map[string]string // a value's group, for the values mapped
	rest := false               // a value is mapped to OtherLevel
	if g.Map != nil {
		group = make(map[string]string, len(g.Map))
		for _, m := range g.Map {
			v := label(m.Value)
			if byLabel[v] == nil {
				return notAValue("--group-map", m.Value, v, what, names)
			}
			if prev, ok := group[v]; ok {
				return fmt.Errorf("%w: --group-map: the value %q is mapped twice, to %q and to %q", ErrGroups, m.Value, prev, m.Group)
			}
			to := mappedGroup(len(cols), m.Group)
			rest = rest || to == OtherLevel
			group[v] = to
		}
		// One step only: a group that is another mapped value would be
		// read two ways.
		for _, m := range g.Map {
			v := label(m.Value)
			if to := group[v]; to != v {
				if next, ok := group[to]; ok && next != to {
					return fmt.Errorf("%w: --group-map: %q is the group of %q and a value mapped to %q; map each value to its final group", ErrGroups, to, m.Value, next)
				}
			}
		}
		merged := map[string]*value{}
		var out []*value
		for _, v := range values {
			name := v.label
			if to, ok := group[name]; ok {
				name = to
			}
			m := merged[name]
			if m == nil {
				m = &value{label: name, key: v.key}
				merged[name] = m
				out = append(out, m)
			}
			m.rows += v.rows
		}
		for r, l := range rowLabel {
			if to, ok := group[l]; ok {
				rowLabel[r] = to
			}
		}
		values, byLabel = out, merged
		names = make([]string, len(values))
		for k, v := range values {
			names[k] = v.label
		}
	}

	// The levels asked for, in order.
	var kept []string
	if g.Levels == nil {
		for _, n := range names {
			if !(rest && n == OtherLevel) {
				kept = append(kept, n)
			}
		}
	} else {
		for _, l := range g.Levels {
			lab := label(l)
			if byLabel[lab] == nil {
				if to, ok := group[lab]; ok {
					return fmt.Errorf("%w: --sensitive-levels: %q is in the group %q of --group-map; list the group", ErrGroups, l, to)
				}
				return notAValue("--sensitive-levels", l, lab, what, names)
			}
			kept = append(kept, lab)
		}
	}

	// Rare levels join "other", and so does a value named "other" in any
	// case once there is such a group, so that one name means one group.
	min := g.minRows()
	var merged []string
	var notes []string
	keep := map[string]bool{}
	for _, l := range kept {
		if n := byLabel[l].rows; n < min {
			merged = append(merged, l)
			notes = append(notes, fmt.Sprintf("group %q has %d rows, fewer than %d (--min-group-rows): it joins the group %q", l, n, min, OtherLevel))
			continue
		}
		keep[l] = true
	}
	hasOther := len(merged) > 0 || len(kept) < len(names)
	if hasOther {
		for _, l := range kept {
			if keep[l] && strings.EqualFold(l, OtherLevel) {
				delete(keep, l)
				merged = append(merged, l)
				notes = append(notes, fmt.Sprintf("the value %q (%d rows) joins the group %q of the values merged, which has its name", l, byLabel[l].rows, OtherLevel))
			}
		}
	}
	var levels []string
	for _, l := range kept {
		if keep[l] {
			levels = append(levels, l)
		}
	}
	code := make(map[string]int, len(names))
	for _, n := range names {
		code[n] = len(levels) // OtherLevel, when it is there
	}
	for r, l := range levels {
		code[l] = r
	}
	var otherRows int
	var otherValues []string
	if hasOther {
		for _, n := range names {
			if !keep[n] {
				otherRows += byLabel[n].rows
				otherValues = append(otherValues, n)
			}
		}
		if otherRows < min {
			return fmt.Errorf("%w: the group %q (%s) has %d rows, fewer than %d (--min-group-rows): list fewer values apart, or lower --min-group-rows",
				ErrGroups, OtherLevel, quoteList(otherValues), otherRows, min)
		}
		levels = append(levels, OtherLevel)
	}
	if len(levels) < 2 {
		return fmt.Errorf("%w: the %s give a single group %q of %d rows; a fairness comparison needs at least two (lower --min-group-rows, or list other values)",
			ErrGroups, what, levels[0], len(rows))
	}
	d.Groups = make([]int, len(rows))
	for r, l := range rowLabel {
		d.Groups[r] = code[l]
	}
	d.Levels, d.GroupNotes = levels, notes
	d.GroupColumns = make([]string, len(cols))
	for j, c := range cols {
		d.GroupColumns[j] = c.name
	}
	return nil
}

// notAValue refuses a value given to flag that is not among names (the
// values of the sensitive column, or their groups), naming the closest.
func notAValue(flag, given, label, what string, names []string) error {
	if best := closest(label, names); best != "" {
		return fmt.Errorf("%w: %s: %q is not a value of the %s; did you mean %q?", ErrGroups, flag, given, what, best)
	}
	return fmt.Errorf("%w: %s: %q is not a value of the %s (values: %s)", ErrGroups, flag, given, what, quoteList(names))
}

// levelLabel writes a value given by the user (a level, a map's value or
// group) as the groups of ncols columns name it: for an intersection with
// fp's separator (normalizeLabel), else as it is.
func levelLabel(ncols int, l string) string {
	if ncols > 1 {
		return normalizeLabel(l)
	}
	return l
}

// mappedGroup is the group a --group-map entry names, as levelLabel writes
// it; OtherLevel in any case is OtherLevel.
func mappedGroup(ncols int, group string) string {
	to := levelLabel(ncols, group)
	if strings.EqualFold(to, OtherLevel) {
		return OtherLevel
	}
	return to
}

// normalizeLabel writes a listed level of an intersection with the
// separator fp uses, so that "a*b", "a × b" and "a×b" name one level.
func normalizeLabel(l string) string {
	parts := strings.FieldsFunc(l, func(r rune) bool { return r == '*' || r == '×' })
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return strings.Join(parts, LevelSeparator)
}

// binaryFromGroups codes a from the groups, so that two groups train as
// the a they code: 1 for the level prefer when it is a named level (a
// built-in dataset's value coded 1), else for the named level the coding
// rule of a file picks (docs/method.md §1.3; never OtherLevel), 0 for every
// other group. At two named levels this is the coding of the column
// without groups.
func (d *Dataset) binaryFromGroups(prefer string) {
	named := slices.Clone(d.Levels)
	if named[len(named)-1] == OtherLevel {
		named = named[:len(named)-1]
	}
	sortValues(named)
	pos := positiveValue(named)
	if slices.Contains(named, prefer) {
		pos = prefer
	}
	r := slices.Index(d.Levels, pos)
	d.A = make([]float64, len(d.Groups))
	for i, g := range d.Groups {
		if g == r {
			d.A[i] = 1
		}
	}
	d.GroupPositive = pos
}

// groupIdentity is the part of the identity's digest input that the
// groups add: the levels and every row's group; without groups it adds nothing, so the identity
// of data without groups is the one it always had.
func (d *Dataset) groupIdentity() []byte {
	if d.Levels == nil {
		return nil
	}
	var b []byte
	str := func(s string) {
		b = binary.LittleEndian.AppendUint64(b, uint64(len(s)))
		b = append(b, s...)
	}
	str("groups")
	b = binary.LittleEndian.AppendUint64(b, uint64(len(d.Levels)))
	for _, l := range d.Levels {
		str(l)
	}
	for _, g := range d.Groups {
		b = binary.AppendUvarint(b, uint64(g))
	}
	return b
}
