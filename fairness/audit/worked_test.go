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

func readPredictions(t *testing.T, text string, cols datasets.PredictionColumns) *datasets.Predictions {
	t.Helper()
	path := filepath.Join(t.TempDir(), "preds.csv")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := datasets.ReadPredictions(path, cols)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// The hand-worked case of mv_test.go with text labels and groups, read
// from scores and from the same scores as logits.
func TestComputeWorkedByHand(t *testing.T) {
	const text = "score,logit,y,sex,e\n" +
		"0.1,-2.1972245773362196,yes,F,0.5\n0.2,-1.3862943611198906,yes,F,0.5\n0.2,-1.3862943611198906,yes,M,0.25\n" +
		"0.3,-0.8472978603872037,yes,M,0.25\n0.5,0,no,M,0.75\n0.6,0.4054651081081645,no,F,0.5\n"
	risk := -(math.Log(0.1) + math.Log(0.2) + math.Log(0.2) + math.Log(0.3) + math.Log(0.5) + math.Log(0.4)) / 6
	for _, cols := range []datasets.PredictionColumns{
		{Score: "score", Label: "y", Group: "sex", Propensity: "e"},
		{Logit: "logit", Label: "y", Group: "sex", Propensity: "e"},
	} {
		in := readPredictions(t, text, cols)
		got, err := audit.Compute(in, audit.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got.N != 6 || math.Abs(got.Risk-risk) > 1e-12 || got.Accuracy != 0 || got.ATO == nil ||
			math.Abs(*got.ATO-1.0/70) > 1e-12 || math.Abs(got.DP-1.0/54) > 1e-12 || math.Abs(got.EO-1.0/8) > 1e-12 ||
			math.Abs(got.EOpp-3.0/64) > 1e-12 || got.LabelPositive != "yes" || got.GroupPositive != "M" {
			t.Errorf("%+v: audit %+v", cols, got)
		}
		if len(got.ByGroup) != 2 || got.ByGroup[0].Group != "F" || got.ByGroup[1].Group != "M" ||
			math.Abs(got.ByGroup[1].MeanScore-1.0/3) > 1e-12 || got.ByGroup[0].Count != 3 {
			t.Errorf("%+v: by group %+v", cols, got.ByGroup)
		}
		var b strings.Builder
		if err := audit.WriteText(&b, in, got); err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{"ato        0.0142857", "eopp       0.046875", "F      0  3      0.6667     0.3000"} {
			if !strings.Contains(b.String(), s) {
				t.Errorf("text lacks %q:\n%s", s, b.String())
			}
		}
	}
	// Without propensities there is no ato, in the numbers or the text.
	in := readPredictions(t, text, datasets.PredictionColumns{Score: "score", Label: "y", Group: "sex"})
	got, err := audit.Compute(in, audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := audit.WriteText(&b, in, got); err != nil {
		t.Fatal(err)
	}
	if got.ATO != nil || strings.Contains(b.String(), "ato") {
		t.Errorf("ato without propensities: %v\n%s", got.ATO, b.String())
	}
}

// The same rows at threshold 0.25, and as a randomized classifier's
// decision probabilities, worked by hand.
func TestComputeDecisionsWorkedByHand(t *testing.T) {
	const text = "score,d,y,sex\n" +
		"0.1,0,yes,F\n0.2,0.5,yes,F\n0.2,0,yes,M\n0.3,1,yes,M\n0.5,1,no,M\n0.6,0.25,no,F\n"
	// At 0.25 the decisions are 0 0 0 1 1 1: F (rows 1, 2, 6) selects 1/3,
	// M (rows 3, 4, 5) 2/3; TPR F 0, M 1/2; FPR F 1, M 1; accuracy 1/6.
	// The decision column: F selects (0 + 0.5 + 0.25)/3 = 1/4, M 2/3; TPR
	// F 1/4, M 1/2; FPR F 1/4, M 1; accuracy (0 + .5 + 0 + 1 + 0 + .75)/6.
	for _, c := range []struct {
		name                              string
		cols                              datasets.PredictionColumns
		opt                               audit.Options
		acc, dpDiff, dpRatio, eoDiff, eop float64
		tprF, fprM                        float64
	}{
		{"threshold 0.25", datasets.PredictionColumns{Score: "score", Label: "y", Group: "sex"}, audit.Options{Threshold: 0.25},
			1.0 / 6, 1.0 / 3, 0.5, 0.5, 0.5, 0, 1},
		{"randomized", datasets.PredictionColumns{Score: "score", Decision: "d", Label: "y", Group: "sex"}, audit.Options{},
			2.25 / 6, 2.0/3 - 0.25, 0.25 / (2.0 / 3), 0.75, 0.25, 0.25, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := readPredictions(t, text, c.cols)
			got, err := audit.Compute(in, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range []struct {
				name      string
				got, want float64
			}{{"accuracy", got.Accuracy, c.acc}, {"dp_diff", got.DPDiff, c.dpDiff}, {"dp_ratio", got.DPRatio, c.dpRatio},
				{"eo_diff", got.EODiff, c.eoDiff}, {"eopp_diff", got.EOppDiff, c.eop},
				{"tpr F", *got.ByGroup[0].TPR, c.tprF}, {"fpr M", *got.ByGroup[1].FPR, c.fprM}} {
				if math.Abs(m.got-m.want) > 1e-12 {
					t.Errorf("%s = %v, want %v", m.name, m.got, m.want)
				}
			}
			if got.Randomized != (c.cols.Decision != "") {
				t.Errorf("randomized = %v", got.Randomized)
			}
		})
	}
}
