package report

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/fpareto/fp/records"
)

// DistChoice is what a distribution figure of one run shows: one split's
// candidates at a few λ values, in increasing λ.
type DistChoice struct {
	Split      int
	Candidates []*records.Record
	Title      string // the figure's title: dataset, method, penalty, split
}

// ChooseDist chooses the candidates of a distribution figure among recs,
// the successful candidates of one run: those of split (the lowest present
// when split < 0) at the λ values of list (PickLambdas; "" for
// SpreadLambdas of those present). Records of several runs, a split without
// candidates and a candidate recorded twice are errors.
func ChooseDist(recs []records.Record, split int, list string) (DistChoice, error) {
	if len(recs) == 0 {
		return DistChoice{}, fmt.Errorf("no trained candidates")
	}
	run := records.Grouping{"dataset", "sensitive", "method", "penalty"}
	if g := records.GroupBy(recs, run); len(g) > 1 {
		keys := slices.Sorted(maps.Keys(g))
		return DistChoice{}, fmt.Errorf("candidates of several runs (%s): give one run's", strings.Join(keys, ", "))
	}
	splits := map[int]bool{}
	for i := range recs {
		splits[recs[i].Split] = true
	}
	have := slices.Sorted(maps.Keys(splits))
	if split < 0 {
		split = have[0]
	} else if !splits[split] {
		s := make([]string, len(have))
		for i, m := range have {
			s[i] = strconv.Itoa(m)
		}
		return DistChoice{}, fmt.Errorf("split %d has no trained candidates: have splits %s", split, strings.Join(s, ", "))
	}
	byLambda := map[float64]*records.Record{}
	for i := range recs {
		if recs[i].Split != split {
			continue
		}
		if _, dup := byLambda[recs[i].Lambda]; dup {
			return DistChoice{}, fmt.Errorf("candidate %s is recorded twice", recs[i].Key())
		}
		byLambda[recs[i].Lambda] = &recs[i]
	}
	present := slices.Sorted(maps.Keys(byLambda))
	lambdas := SpreadLambdas(present)
	if list != "" {
		var err error
		if lambdas, err = PickLambdas(list, present); err != nil {
			return DistChoice{}, fmt.Errorf("split %d: %w", split, err)
		}
	}
	c := DistChoice{Split: split}
	for _, l := range lambdas {
		c.Candidates = append(c.Candidates, byLambda[l])
	}
	c.Title = fmt.Sprintf("%s · split %d · test set", (records.Grouping{"method", "penalty"}).Key(c.Candidates[0]), split)
	if d := DatasetLabel(recs); d != "" {
		c.Title = d + " · " + c.Title
	}
	return c, nil
}

// DistPanel is the panel of candidate r with its test predictions p, labels
// y and groups a: titled with its λ (β for the adversarial method), and
// whether it collapsed to a constant predictor.
func DistPanel(r *records.Record, p, y, a []float64) Dist {
	symbol := "λ"
	if r.Method == "adversarial" {
		symbol = "β"
	}
	title := fmt.Sprintf("%s = %s", symbol, LambdaLabel(r.Lambda))
	if r.Collapsed {
		title += " (constant predictor)"
	}
	return Dist{Title: title, P: p, Y: y, A: a, ATO: r.ATO, EO: r.EO, EOpp: r.EOpp, DP: r.DP}
}
