package audit_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/fairness/audit"
)

// Two groups audited as R groups give the binary audit's numbers: the
// indices exactly, the ato up to the rounding of the weights.
func TestComputeGroupsAtTwoGroupsIsTheBinaryAudit(t *testing.T) {
	const text = "score,y,sex,e,propensity_F,propensity_M\n" +
		"0.1,yes,F,0.5,0.5,0.5\n0.2,yes,F,0.5,0.5,0.5\n0.2,yes,M,0.25,0.75,0.25\n" +
		"0.3,yes,M,0.25,0.75,0.25\n0.5,no,M,0.75,0.25,0.75\n0.6,no,F,0.5,0.5,0.5\n"
	path := filepath.Join(t.TempDir(), "preds.csv")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	bin, err := datasets.ReadPredictions(path, datasets.PredictionColumns{Score: "score", Label: "y", Group: "sex", Propensity: "e"})
	if err != nil {
		t.Fatal(err)
	}
	want, err := audit.Compute(bin, audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in, err := datasets.ReadGroupedPredictions(path, datasets.GroupColumns{Score: "score", Label: "y", Groups: []string{"sex"}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := audit.ComputeGroups(in, audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got.N != want.N || got.Risk != want.Risk || got.Accuracy != want.Accuracy || got.DP != want.DP ||
		got.EO != want.EO || got.EOpp != want.EOpp || got.ATO == nil || math.Abs(*got.ATO-*want.ATO) > 1e-15 {
		t.Errorf("R-group audit %+v (ato %v), binary %+v (ato %v)", got, got.ATO, want, *want.ATO)
	}
	// The ato is the difference of the two overlap-weighted means: F's
	// weights are ê = ½ each, so its mean is (0.1 + 0.2 + 0.6)/3 = 3/10;
	// M's are 1 − ê = ¾, ¾, ¼, so its mean is 0.5/1.75 = 2/7.
	if len(got.ByGroup) != 2 || math.Abs(*got.ByGroup[0].OverlapMean-3.0/10) > 1e-15 ||
		math.Abs(*got.ByGroup[1].OverlapMean-2.0/7) > 1e-15 || got.ATOBetween[0] != "F" || got.ATOBetween[1] != "M" {
		t.Errorf("by group %+v, ato between %q", got.ByGroup, got.ATOBetween)
	}
	for g := range 2 {
		a, b := got.ByGroup[g], want.ByGroup[g]
		if a.Group != b.Group || a.GroupMetrics != b.GroupMetrics || !a.Small {
			t.Errorf("group %d: %+v, binary %+v", g, a, b)
		}
	}
	var b strings.Builder
	if err := audit.WriteGroupsText(&b, in, got); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`label: "yes" coded as 1, "no" as 0`, "groups: 2, by sex", "ato        0.0142857  (F − M)",
		"F      3      0.6667     0.3000      0.0000    0.3333          0.0000  1.0000  0.3000  *"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("text lacks %q:\n%s", s, b.String())
		}
	}
}
