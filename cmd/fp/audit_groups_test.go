package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fpareto/fp/fairness/audit"
)

// mvByHand is the mean-variance index written out as its definition, one
// O(n²) loop per group, independently of package fairness:
// Σ_r (n_r/n) · (1/n) Σ_i (F_r(s_i) − F(s_i))².
func mvByHand(s []float64, g []string) float64 {
	n := len(s)
	size := map[string]int{}
	for _, v := range g {
		size[v]++
	}
	if len(size) < 2 {
		return 0
	}
	var mv float64
	for r, nr := range size {
		var sum float64
		for i := range n {
			var le, leR float64
			for j := range n {
				if s[j] <= s[i] {
					le++
					if g[j] == r {
						leR++
					}
				}
			}
			d := leR/float64(nr) - le/float64(n)
			sum += d * d
		}
		mv += float64(nr) / float64(n) * sum / float64(n)
	}
	return mv
}

// A file with race (three values) and sex, audited by their intersection:
// every number fp prints is recomputed here by plain loops over the rows.
func TestAuditIntersectionMatchesHandComputation(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	races, sexes := []string{"White", "Black", "Asian"}, []string{"M", "F"}
	const n = 400
	s, y := make([]float64, n), make([]float64, n)
	race, sex := make([]string, n), make([]string, n)
	// The groups in the order fp sorts them, each group's propensity column.
	var groups []string
	for _, r := range []string{"Asian", "Black", "White"} {
		for _, x := range []string{"F", "M"} {
			groups = append(groups, r+" × "+x)
		}
	}
	e := make([][]float64, n) // e[i][k]: row i's propensity of groups[k]
	var b strings.Builder
	b.WriteString("id,race,score,y,sex")
	for _, g := range groups {
		b.WriteString(",propensity_" + g)
	}
	b.WriteString("\n")
	for i := range n {
		race[i], sex[i] = races[rng.IntN(3)], sexes[rng.IntN(2)]
		if i < 6 { // every intersection present
			race[i], sex[i] = races[i%3], sexes[i/3]
		}
		s[i] = float64(rng.IntN(20)) / 20 // ties
		if race[i] == "Black" {
			s[i] = min(1, s[i]+0.1)
		}
		y[i] = float64(rng.IntN(2))
		e[i] = make([]float64, len(groups))
		var sum float64
		for k := range e[i] {
			e[i][k] = 1 + float64(rng.IntN(4))
			sum += e[i][k]
		}
		for k := range e[i] {
			e[i][k] /= sum
		}
		fmt.Fprintf(&b, "%d,%s,%g,%g,%s", i, race[i], s[i], y[i], sex[i])
		for _, v := range e[i] {
			fmt.Fprintf(&b, ",%.17g", v)
		}
		b.WriteString("\n")
	}
	path := writeAuditFile(t, "preds.csv", b.String())
	out, _, err := runFP(t, "audit", "--data", path, "--score", "score", "--label", "y", "--group", "race,sex", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got audit.GroupResult
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}

	// The expected numbers, by hand.
	g := make([]string, n)
	for i := range n {
		g[i] = race[i] + " × " + sex[i]
	}
	var risk, correct float64
	for i := range n {
		pc := min(max(s[i], 1e-15), 1-1e-15)
		risk -= y[i]*math.Log(pc) + (1-y[i])*math.Log(1-pc)
		if (s[i] >= 0.5) == (y[i] == 1) {
			correct++
		}
	}
	within := func(k float64) ([]float64, []string) {
		var ss []float64
		var gg []string
		for i := range n {
			if y[i] == k {
				ss, gg = append(ss, s[i]), append(gg, g[i])
			}
		}
		return ss, gg
	}
	s0, g0 := within(0)
	s1, g1 := within(1)
	// Overlap weights h/e_own with h = 1/Σ 1/e, and each group's weighted mean.
	means := map[string]float64{}
	for _, grp := range groups {
		var sw, swo float64
		for i := range n {
			if g[i] != grp {
				continue
			}
			var inv float64
			for _, v := range e[i] {
				inv += 1 / v
			}
			w := 1 / inv / e[i][slices.Index(groups, grp)]
			sw += w
			swo += w * s[i]
		}
		means[grp] = swo / sw
	}
	var ato float64
	for _, a := range groups {
		for _, c := range groups {
			ato = max(ato, math.Abs(means[a]-means[c]))
		}
	}
	if got.ATO == nil {
		t.Fatal("no ato, though the file has propensity columns")
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"n", float64(got.N), n}, {"risk", got.Risk, risk / n}, {"accuracy", got.Accuracy, correct / n},
		{"ato", *got.ATO, ato},
		{"dp", got.DP, mvByHand(s, g)},
		{"eo", got.EO, max(mvByHand(s0, g0), mvByHand(s1, g1))},
		{"eopp", got.EOpp, mvByHand(s1, g1)},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %.17g, want %.17g", c.name, c.got, c.want)
		}
	}
	if got.DP == 0 || *got.ATO == 0 {
		t.Errorf("dp %g, ato %g: the shifted scores of one race should show", got.DP, *got.ATO)
	}
	if !slices.Equal(got.GroupColumns, []string{"race", "sex"}) || got.MinGroupRows != 30 {
		t.Errorf("group columns %q, min rows %d", got.GroupColumns, got.MinGroupRows)
	}
	if len(got.ByGroup) != len(groups) {
		t.Fatalf("%d group rows, want %d", len(got.ByGroup), len(groups))
	}
	for k, grp := range groups {
		var count, pos, sc, cor, sel float64
		for i := range n {
			if g[i] == grp {
				count++
				pos += y[i]
				sc += s[i]
				if (s[i] >= 0.5) == (y[i] == 1) {
					cor++
				}
				if s[i] >= 0.5 {
					sel++
				}
			}
		}
		row := got.ByGroup[k]
		if row.Group != grp || row.Count != int(count) || math.Abs(row.BaseRate-pos/count) > 1e-12 ||
			math.Abs(row.MeanScore-sc/count) > 1e-12 || math.Abs(row.Accuracy-cor/count) > 1e-12 ||
			math.Abs(row.SelectionRate-sel/count) > 1e-12 || row.OverlapMean == nil ||
			math.Abs(*row.OverlapMean-means[grp]) > 1e-12 || row.Small != (count < 30) {
			ov := math.NaN()
			if row.OverlapMean != nil {
				ov = *row.OverlapMean
			}
			t.Errorf("group row %d = %+v (overlap mean %g), want %s: count %g, base rate %g, mean score %g, accuracy %g, selection rate %g, overlap mean %g",
				k, row.GroupMetrics, ov, grp, count, pos/count, sc/count, cor/count, sel/count, means[grp])
		}
	}

	// The text form names the grouping, the pair behind the ato, and each group.
	text, _, err := runFP(t, "audit", "--data", path, "--score", "score", "--label", "y", "--group", "race,sex")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range append([]string{"groups: 6, by race × sex", "overlap_mean", fmt.Sprintf("(%s − %s)", got.ATOBetween[0], got.ATOBetween[1])}, groups...) {
		if !strings.Contains(text, w) {
			t.Errorf("text output lacks %q:\n%s", w, text)
		}
	}
}

// One column of three values is audited in three groups, from a file or from
// standard input; the indices without propensities leave the ato out, and
// small groups are marked.
func TestAuditThreeValuedColumn(t *testing.T) {
	const text = "s,y,race\n0.9,1,b\n0.2,0,a\n0.6,1,c\n0.4,0,b\n0.7,1,a\n0.1,0,c\n"
	path := writeAuditFile(t, "p.csv", text)
	fromFile, _, err := runFP(t, "audit", "--data", path, "--score", "s", "--label", "y", "--group", "race", "--json")
	if err != nil {
		t.Fatal(err)
	}
	fromStdin, err := runFPStdin(t, text, "audit", "--data", "-", "--score", "s", "--label", "y", "--group", "race", "--json")
	if err != nil {
		t.Fatal(err)
	}
	if fromFile != fromStdin {
		t.Errorf("file and standard input differ:\n%s\n%s", fromFile, fromStdin)
	}
	var got audit.GroupResult
	if err := json.Unmarshal([]byte(fromFile), &got); err != nil {
		t.Fatal(err)
	}
	s := []float64{0.9, 0.2, 0.6, 0.4, 0.7, 0.1}
	g := []string{"b", "a", "c", "b", "a", "c"}
	if got.ATO != nil || len(got.ByGroup) != 3 || got.ByGroup[0].Group != "a" || got.ByGroup[2].Group != "c" ||
		!got.ByGroup[1].Small || math.Abs(got.DP-mvByHand(s, g)) > 1e-12 {
		t.Errorf("audit %s", fromFile)
	}
	out, _, err := runFP(t, "audit", "--data", path, "--score", "s", "--label", "y", "--group", "race")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "ato") || !strings.Contains(out, "* 3 of 3 groups have fewer than 30 rows") {
		t.Errorf("text output:\n%s", out)
	}
}

// Groups are sorted column by column, numbers as numbers, with numbers
// written in one form.
func TestAuditGroupOrder(t *testing.T) {
	const text = "s,y,age,g\n0.1,0,10,x\n0.2,1,9,x\n0.3,0,9.0,y\n0.4,1,10,y\n0.5,0,2,x\n"
	path := writeAuditFile(t, "p.csv", text)
	out, _, err := runFP(t, "audit", "--data", path, "--score", "s", "--label", "y", "--group", "age,g", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got audit.GroupResult
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range got.ByGroup {
		names = append(names, r.Group)
	}
	if want := []string{"2 × x", "9 × x", "9 × y", "10 × x", "10 × y"}; !slices.Equal(names, want) {
		t.Errorf("groups %q, want %q", names, want)
	}
}

func TestAuditGroupsRefusals(t *testing.T) {
	const header = "score,y,race,sex"
	const rows = "0.5,1,A,F\n0.3,0,B,M\n0.6,1,C,F\n"
	props := func(cols ...string) string {
		return header + ",propensity_" + strings.Join(cols, ",propensity_") + "\n"
	}
	for _, tc := range []struct {
		name  string
		text  string
		group string
		args  []string
		wants []string
	}{
		{"missing column", header + "\n" + rows, "race,age", nil, []string{"line 1", `no column "age"`}},
		{"one group", header + "\n0.5,1,A,F\n0.3,0,A,F\n", "race,sex", nil,
			[]string{`every row is in group "A × F" of race × sex`, "at least two groups"}},
		{"empty group cell", header + "\n0.5,1,A,F\n0.3,0,,M\n", "race,sex", nil, []string{"line 3, column 3 (race)", "empty cell"}},
		{"propensity column missing", props("A", "B") + "0.5,1,A,F,0.5,0.5\n0.3,0,B,M,0.5,0.5\n0.6,1,C,F,0.5,0.5\n", "race", nil,
			[]string{"line 1", `no column "propensity_C"`, "3 groups of race"}},
		{"propensity column of no group", props("A", "B", "C", "D") + "0.5,1,A,F,0.25,0.25,0.25,0.25\n0.3,0,B,M,0.25,0.25,0.25,0.25\n0.6,1,C,F,0.25,0.25,0.25,0.25\n",
			"race", nil, []string{"line 1", `column "propensity_D" names no group`}},
		{"propensities not summing to 1", props("A", "B", "C") + "0.5,1,A,F,0.2,0.3,0.5\n0.3,0,B,M,0.2,0.3,0.6\n0.6,1,C,F,0.2,0.3,0.5\n",
			"race", nil, []string{"line 3:", "sum to 1.1", "expected 1 (within 1e-06)"}},
		{"propensity out of range", props("A", "B", "C") + "0.5,1,A,F,0.2,0.3,0.5\n0.3,0,B,M,-0.2,0.7,0.5\n0.6,1,C,F,0.2,0.3,0.5\n",
			"race", nil, []string{"line 3, column 5 (propensity_A)", "outside [0, 1]"}},
		{"weightless group", props("A", "B", "C") + "0.5,1,A,F,0.5,0.5,0\n0.3,0,B,M,0.2,0.3,0.5\n0.6,1,C,F,0.2,0.3,0.5\n",
			"race", nil, []string{`every row of group "A" has overlap weight 0`}},
		{"three-valued label", header + "\n0.5,1,A,F\n0.3,0,B,M\n0.6,2,C,F\n", "race,sex", nil, []string{"line 4, column 2 (y)", `third value "2"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeAuditFile(t, "bad.csv", tc.text)
			args := append([]string{"audit", "--data", path, "--score", "score", "--label", "y", "--group", tc.group}, tc.args...)
			out, _, err := runFP(t, args...)
			if err == nil {
				t.Fatalf("accepted; output:\n%s", out)
			}
			msg := err.Error()
			oneLine(t, msg)
			if !strings.Contains(msg, path) {
				t.Errorf("error %q does not name the file", msg)
			}
			for _, w := range tc.wants {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			if out != "" {
				t.Errorf("printed output despite the error:\n%s", out)
			}
		})
	}

	path := writeAuditFile(t, "p.csv", header+",e\n0.5,1,A,F,0.5\n0.3,0,B,M,0.5\n0.6,1,C,F,0.5\n")
	for _, tc := range []struct {
		name, group string
		args        []string
		want        string
	}{
		{"--propensity with R groups", "race", []string{"--propensity", "e"}, "columns propensity_<group>, one per group"},
		{"--propensity with an intersection", "race,sex", []string{"--propensity", "e"}, "--propensity names the column of P(group=1 | x) for two groups"},
		// fp predict writes propensity_<group> columns and no propensity
		// column for more than two groups: the column is missing because
		// there are more than two groups, and that is what is said.
		{"--propensity absent with R groups", "race", []string{"--propensity", "propensity"}, "columns propensity_<group>, one per group"},
		{"empty column name", "race,", nil, "grouping column 2 of 2 has an empty name"},
		{"column named twice", "sex,sex", nil, `grouping column "sex" named twice`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"audit", "--data", path, "--score", "score", "--label", "y", "--group", tc.group}, tc.args...)
			_, _, err := runFP(t, args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
			oneLine(t, err.Error())
		})
	}
}
