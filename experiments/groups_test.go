package experiments_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/runfolder"
	G "gorgonia.org/gorgonia"
)

// A sweep on COMPAS's race in four groups trains with the R-group penalty
// on both engines (lockstep too) and with both methods: its records name
// the groups and count each group's test rows, its overlap file has each
// group's overlap, its networks name the levels, and its test metrics are
// the R-group ones, recomputed here from the stored network, the stored
// propensity model and the split's raw test rows.
func TestGroupsSweep(t *testing.T) {
	levels := []string{"African-American", "Caucasian", "Hispanic", "other"}
	for _, tc := range []struct {
		name string
		edit func(*experiments.Config)
	}{
		{"graph cheb", func(c *experiments.Config) {}},
		{"backprop lockstep linear", func(c *experiments.Config) {
			c.Engine, c.Lockstep, c.Method = "backprop", true, experiments.MethodLinear
		}},
		{"backprop ato-output", func(c *experiments.Config) {
			c.Engine, c.Penalty = "backprop", "ato-output"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := experiments.DefaultConfig()
			c.Dataset, c.Splits, c.Epochs, c.PropensityEpochs, c.Lambdas, c.Workers = "compas-race4", 1, 3, 3, "0,0.5,1", 2
			tc.edit(&c)
			out := filepath.Join(t.TempDir(), "run")
			r, err := experiments.NewRunner(c, out, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Config().Groups(); got != 4 {
				t.Errorf("groups %d, want 4", got)
			}
			r.Close()
			if err := runSweep(c, out); err != nil {
				t.Fatal(err)
			}
			recs := readRecords(t, out)
			if len(recs) != 3 {
				t.Fatalf("%d records, want 3", len(recs))
			}
			d, err := experiments.LoadDataset(c)
			if err != nil {
				t.Fatal(err)
			}
			parts, err := runfolder.PartsOf(c.Config, d, 0)
			if err != nil {
				t.Fatal(err)
			}
			x := make([]float64, 0, len(parts.Test)*d.Dim)
			var y []float64
			var z []int
			counts := map[string]int{}
			for _, i := range parts.Test {
				x = append(x, d.X[i*d.Dim:(i+1)*d.Dim]...)
				y = append(y, d.Y[i])
				z = append(z, d.Groups[i])
				counts[d.Levels[d.Groups[i]]]++
			}
			for _, rec := range recs {
				if !rec.OK() {
					t.Fatalf("λ = %g: %s", rec.Lambda, rec.FailReason)
				}
				if want := "race[" + strings.Join(levels, "|") + "]"; rec.Sensitive != want {
					t.Errorf("sensitive %q, want %q", rec.Sensitive, want)
				}
				if fmt.Sprint(rec.GroupCounts) != fmt.Sprint(counts) {
					t.Errorf("group_counts %v, want %v", rec.GroupCounts, counts)
				}
				if !(rec.TrainU > 0) || rec.ATOReliable == nil {
					t.Errorf("λ = %g: train_u %v, ato_reliable %v", rec.Lambda, rec.TrainU, rec.ATOReliable)
				}
				f, err := model.Load(filepath.Join(out, rec.Weights))
				if err != nil {
					t.Fatal(err)
				}
				if fmt.Sprint(f.Card.Levels) != fmt.Sprint(levels) || fmt.Sprint(f.Card.GroupColumns) != "[race]" {
					t.Errorf("card levels %v, columns %v", f.Card.Levels, f.Card.GroupColumns)
				}
				p, err := f.Predict(x, len(y))
				if err != nil {
					t.Fatal(err)
				}
				pf, err := runfolder.ReadPropensityFile(runfolder.PropensityPath(out, 0), f)
				if err != nil {
					t.Fatal(err)
				}
				e, err := pf.PredictGroups(x, len(y))
				if err != nil {
					t.Fatal(err)
				}
				w := make([]float64, len(y))
				if err := fairness.OverlapWeights(e, 4, z, w); err != nil {
					t.Fatal(err)
				}
				ato, err := fairness.ATO(p, z, w)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range []struct {
					name      string
					got, want float64
				}{
					{"ato", rec.ATO, ato}, {"dp", rec.DP, fairness.DP(p, z)},
					{"eo", rec.EO, fairness.EO(p, y, z)}, {"eopp", rec.EOpp, fairness.EOpp(p, y, z)},
				} {
					if math.Abs(m.got-m.want) > 1e-9 {
						t.Errorf("λ = %g: %s %v, recomputed %v", rec.Lambda, m.name, m.got, m.want)
					}
				}
			}
			b, err := os.ReadFile(runfolder.OverlapPath(out, 0))
			if err != nil {
				t.Fatal(err)
			}
			var ov runfolder.SplitOverlap
			if err := json.Unmarshal(b, &ov); err != nil {
				t.Fatal(err)
			}
			if ov.Groups == nil || ov.TestGroups == nil || len(ov.Groups.Groups) != 4 || ov.TestGroups.Groups[2].Level != "Hispanic" ||
				ov.TestGroups.Groups[2].N != counts["Hispanic"] || ov.ATOReliable == nil {
				t.Errorf("overlap file: %s", b)
			}
		})
	}
}

// A group with few training rows is warned about by name; a custom penalty
// of two groups is refused for more, in one line naming it.
func TestGroupsWarningsAndRefusals(t *testing.T) {
	var b strings.Builder
	b.WriteString("x,y,g\n")
	for i := range 600 {
		g := "ABC"[i%2 : i%2+1]
		if i%20 == 0 {
			g = "C" // 30 rows, about 15 in a training split
		}
		fmt.Fprintf(&b, "%d,%d,%s\n", i%17, (i/3)%2, g)
	}
	csv := filepath.Join(t.TempDir(), "g.csv")
	if err := os.WriteFile(csv, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	c := experiments.DefaultConfig()
	c.Dataset, c.CSV, c.Target, c.Sensitive = "", csv, "y", "g"
	c.SensitiveLevels, c.MinGroupRows = []string{"all"}, 5
	c.Splits, c.Epochs, c.Lambdas = 1, 1, "0,1"
	r, err := experiments.NewRunner(c, filepath.Join(t.TempDir(), "run"), nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	if w := strings.Join(r.Warnings(), "\n"); !strings.Contains(w, `split 0: the networks train on `) || !strings.Contains(w, `of group "C"; with fewer than 50 rows`) {
		t.Errorf("warnings %q", w)
	}
	c.Engine = "graph"
	c.CustomPenalty = penalties.NewPenalty("two", "1", nil,
		func(n penalties.Net, b penalties.BatchNodes) (*G.Node, error) { return G.Sum(n.Logit) })
	_, err = experiments.NewRunner(c, filepath.Join(t.TempDir(), "run2"), nil)
	if err == nil || !strings.Contains(err.Error(), "config: penalty: the custom penalty two compares two groups, but the sensitive attribute has 3") {
		t.Errorf("custom penalty: %v", err)
	}
}
