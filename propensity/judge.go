package propensity

import (
	"fmt"
	"io"
	"slices"
)

// Judgement is what an audit of given propensities says about the overlap
// behind the ATO: how the overlap weights of the audited rows spread within
// each group (the effective sample size and the largest share of one row),
// and whether the ATO can be trusted by the rule fp train applies to the
// rows it measures the ATO on (UnreliableRows). Its fields join an audit's
// JSON document; all absent without propensities (the zero Judgement).
type Judgement struct {
	Overlap             *GroupOverlap `json:"overlap,omitempty"`
	ATOReliable         *bool         `json:"ato_reliable,omitempty"`
	ATOUnreliableReason string        `json:"ato_unreliable_reason,omitempty"`
}

// Judge diagnoses the propensities e (row-major n×len(levels)) of rows in
// groups g with the weights fp gives them: each floored at Clip as fp's own
// are, then UnreliableRows.
func Judge(e []float64, levels []string, g []int) (Judgement, error) {
	R := len(levels)
	floored := slices.Clone(e)
	for i := range g {
		Floor(floored[i*R : (i+1)*R])
	}
	o, err := DiagnoseGroups(floored, levels, g, 0)
	if err != nil {
		return Judgement{}, err
	}
	bad, why := UnreliableRows(o, "audited")
	reliable := !bad
	return Judgement{Overlap: &o, ATOReliable: &reliable, ATOUnreliableReason: why}, nil
}

// JudgeTwoGroups is Judge for two groups: e holds each row's propensity of
// group 1, a each row's group (0 or 1), names the two groups' names ("" for
// one named by its value, "a = 0").
func JudgeTwoGroups(e, a []float64, names [2]string) (Judgement, error) {
	both, g := make([]float64, 2*len(e)), make([]int, len(a))
	for i, v := range e {
		both[2*i], both[2*i+1], g[i] = 1-v, v, int(a[i])
	}
	levels := names[:]
	for i, n := range levels {
		if n == "" {
			levels[i] = fmt.Sprintf("a = %d", i)
		}
	}
	return Judge(both, levels, g)
}

// WriteText prints the overlap line and, when the ATO is unreliable, the
// warning; nothing for the zero Judgement.
func (j Judgement) WriteText(w io.Writer) {
	if j.Overlap == nil {
		return
	}
	fmt.Fprintf(w, "overlap of the ato's weights on the audited rows: %s\n", j.Overlap.WeightsString())
	if !*j.ATOReliable {
		fmt.Fprintf(w, "warning: the ato is unreliable (%s): its overlap weights rest on few rows, so read it with caution\n", j.ATOUnreliableReason)
	}
}
