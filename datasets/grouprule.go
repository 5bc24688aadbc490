package datasets

import (
	"fmt"
	"slices"
	"strings"
)

// A GroupRule puts a row in one of a network's groups from the row's raw
// values of the group columns, by the rule the training formed its groups
// with (docs/method.md §1.9): the values joined into a label, the
// --group-map applied, and every label that is not a group of its own in
// OtherLevel. New rows then fall in the groups the network was trained on,
// whatever values were merged or mapped.
type GroupRule struct {
	levels []string
	cols   []string
	group  map[string]string // a mapped label's group
	other  bool              // OtherLevel is one of levels
}

// NewGroupRule returns the rule of the groups levels (in code order, as a
// network file's card names them) formed from the columns cols with the
// --group-map entries groupMap (VALUE=GROUP each, as a run's config
// stores them; nil for none).
func NewGroupRule(levels, cols, groupMap []string) (*GroupRule, error) {
	if len(levels) < 2 || len(cols) == 0 {
		return nil, fmt.Errorf("%w: %d groups from %d columns: want at least two groups and one column", ErrGroups, len(levels), len(cols))
	}
	m, err := ParseGroupMap(groupMap)
	if err != nil {
		return nil, err
	}
	g := &GroupRule{levels: levels, cols: cols, other: slices.Contains(levels, OtherLevel)}
	if len(m) > 0 {
		g.group = make(map[string]string, len(m))
		for _, e := range m {
			g.group[levelLabel(len(cols), e.Value)] = mappedGroup(len(cols), e.Group)
		}
	}
	return g, nil
}

// Levels names the groups, in code order.
func (g *GroupRule) Levels() []string { return g.levels }

// Columns names the columns the groups come from.
func (g *GroupRule) Columns() []string { return g.cols }

// Group returns the group of a row whose values of the group columns are
// values, in the order of Columns. An empty value, or a value that is not a
// group of its own when no group gathers the rest, is an error naming the
// value and the groups.
func (g *GroupRule) Group(values []string) (string, error) {
	if len(values) != len(g.cols) {
		return "", fmt.Errorf("%w: %d values for the %d group columns %s", ErrGroups, len(values), len(g.cols), strings.Join(g.cols, ", "))
	}
	for j, v := range values {
		if v == "" {
			return "", fmt.Errorf("%w: expected a value of the sensitive column %s", ErrEmptyCell, g.cols[j])
		}
	}
	l := strings.Join(values, LevelSeparator)
	if to, ok := g.group[l]; ok {
		l = to
	}
	if slices.Contains(g.levels, l) {
		return l, nil
	}
	if g.other {
		return OtherLevel, nil
	}
	return "", fmt.Errorf("%w: %q is not one of the network's groups (%s), and none gathers the other values", ErrGroups, l, quoteList(g.levels))
}
