package htmlreport_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fpareto/fp/compare"
	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/experiments/experimentstest"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/report/htmlreport"
	"github.com/fpareto/fp/runfolder"
)

// familyRun writes the records of a sweep of one family (no networks, no
// config.json) into a new folder under root and returns the folder: a
// penalty sweep, reductions, or group thresholds, whose candidates use the
// sensitive attribute and carry their base network's risk and probability
// metrics. decisions false writes records without the decision metrics,
// as fp wrote them before it recorded those.
func familyRun(t testing.TB, root, family string, decisions bool, seed float64) string {
	t.Helper()
	method, penalty := family, "dp" // reductions and thresholds under the dp constraint
	if family == records.FamilyPenalty {
		method, penalty = "cheb", "dp-mean"
	}
	dir := filepath.Join(root, family)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := records.Open(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	constRisk, constError := 0.69, 0.45
	for m := range 2 {
		for k := range 6 {
			l := float64(k) / 5
			noise := math.Abs(math.Sin(seed*float64(5*m+11*k+1))) * 0.02
			r := records.Record{Dataset: "compas", Sensitive: "race", Method: method, Penalty: penalty, FamilyName: family,
				Split: m, Lambda: l, Seed: 1, Engine: "backprop", Arch: "4x4", Epochs: 5,
				RMin: 0.6, RMax: 0.7, UMin: 0, UMax: 0.02, TrainSeconds: 0.1,
				Risk: 0.6 + 0.05*l + noise, Accuracy: 0.68 - 0.05*l*seed - noise,
				ATO: 0.02 * (1 - l), DP: 0.03 * (1 - l), EO: 0.02 * (1 - l), EOpp: 0.01 * (1 - l),
				Weights: fmt.Sprintf("networks/split-%03d/%s-lambda-%d.json", m, method, k),
				Status:  records.StatusOK, Config: family, ConstRisk: &constRisk, ConstError: &constError}
			if family == records.FamilyThresholds {
				// The base network's probability: one risk for every λ.
				r.UsesSensitive, r.Risk = true, 0.61
			}
			if decisions {
				r.Decision = &records.Decision{DPDiff: 0.25*(1-l) + noise, DPRatio: 0.6 + 0.3*l, EODiff: 0.2*(1-l) + noise, EOppDiff: 0.15 * (1 - l)}
			}
			if err := w.Append(&r); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// dominated reports whether some point of pts other than i has an x and a
// y no larger than i's, one of them smaller: the definition, checked pair
// by pair.
func dominated(pts [][2]float64, i int) bool {
	for j, q := range pts {
		p := pts[i]
		if j != i && q[0] <= p[0] && q[1] <= p[1] && (q[0] < p[0] || q[1] < p[1]) {
			return true
		}
	}
	return false
}

// A page of a penalty sweep, reductions and group thresholds draws every
// decision metric against the test error too, where each method's own
// front and the front of all of them are those of the definition, group
// thresholds included; against the risk those candidates have no point.
func TestDecisionPanelsFronts(t *testing.T) {
	root := t.TempDir()
	runs := []string{familyRun(t, root, records.FamilyPenalty, true, 1), familyRun(t, root, records.FamilyReductions, true, 2),
		familyRun(t, root, records.FamilyThresholds, true, 0.5)}
	p, err := htmlreport.Build(runs, htmlreport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.DecisionMetrics, records.DecisionMetrics) || p.DecisionNote != "" {
		t.Fatalf("decision panels %v (note %q), want %v", p.DecisionMetrics, p.DecisionNote, records.DecisionMetrics)
	}
	families := map[string]bool{}
	for _, g := range p.Data.Groups {
		families[g.Family] = true
	}
	if len(families) != 3 || !families[records.FamilyThresholds] {
		t.Errorf("groups %+v: want one family each, thresholds among them", p.Data.Groups)
	}
	onThresholdsFront := 0
	for _, m := range p.DecisionMetrics {
		mi := slices.Index(p.Data.Metrics, m)
		var all [][2]float64
		byGroup := map[int][]int{}
		for i, c := range p.Data.Candidates {
			all = append(all, [2]float64{1 - float64(c.Acc), float64(c.Metrics[mi])})
			byGroup[c.Group] = append(byGroup[c.Group], i)
		}
		for i, c := range p.Data.Candidates {
			if want, got := !dominated(all, i), slices.Contains(c.ErrorFront, mi); want != got {
				t.Errorf("%s: candidate %d (%s) on the front against the error: %v, want %v", m, i, p.Data.Groups[c.Group].Label, got, want)
			}
			if c.UsesSensitive && slices.Contains(c.ErrorFront, mi) {
				onThresholdsFront++
			}
		}
		for g, ids := range byGroup {
			var pts [][2]float64
			for _, i := range ids {
				pts = append(pts, all[i])
			}
			for k, i := range ids {
				if want, got := !dominated(pts, k), slices.Contains(p.Data.Candidates[i].OwnErrorFront, mi); want != got {
					t.Errorf("%s: candidate %d on the own front of %s: %v, want %v", m, i, p.Data.Groups[g].Label, got, want)
				}
			}
		}
	}
	if onThresholdsFront == 0 {
		t.Error("no group-thresholds candidate on a front against the error: the data do not test them")
	}
	for _, c := range p.Data.Candidates {
		if c.UsesSensitive != (p.Data.Groups[c.Group].Family == records.FamilyThresholds) || c.UsesSensitive != c.BaseProbability {
			t.Errorf("candidate %d of %s: uses the sensitive attribute %v, base probability %v", c.ID, p.Data.Groups[c.Group].Label, c.UsesSensitive, c.BaseProbability)
		}
		if c.BaseProbability && len(c.Front) > 0 {
			t.Errorf("group-thresholds candidate %d is on the fronts %v against the risk", c.ID, c.Front)
		}
	}

	// The method comparison against the error is fp compare --axis
	// error's, group thresholds included.
	all, _, err := runfolder.ReadAll(runs)
	if err != nil {
		t.Fatal(err)
	}
	want, err := compare.Run(all, compare.Options{Axis: records.AxisError})
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, mc := range p.Comparisons[0].Metrics {
		if mc.Axis != records.AxisError {
			continue
		}
		for _, r := range mc.Pooled {
			k := slices.IndexFunc(want.Pooled, func(w compare.Pooled) bool { return w.Metric == r.Metric && w.Group == r.Group })
			if k < 0 || !reflect.DeepEqual(want.Pooled[k], r) {
				t.Errorf("error against %s, %s: %+v, fp compare --axis error says %+v", mc.Metric, r.Group, r, want.Pooled[max(k, 0)])
			}
			if r.Group == "thresholds/dp" {
				rows++
			}
		}
		for _, pr := range mc.Paired {
			k := slices.IndexFunc(want.Paired, func(w compare.PairedRow) bool { return w.Metric == pr.Metric && w.A == pr.A && w.B == pr.B })
			if k < 0 || want.Paired[k].QValue != pr.QValue || want.Paired[k].Mean != pr.Mean {
				t.Errorf("error against %s, %s − %s: %+v, not fp compare --axis error's", mc.Metric, pr.A, pr.B, pr.PairedRow)
			}
		}
	}
	if rows != len(p.DecisionMetrics) {
		t.Errorf("the group thresholds are in %d comparisons against the error, want %d", rows, len(p.DecisionMetrics))
	}

	var buf bytes.Buffer
	if err := htmlreport.Render(&buf, p); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	for _, m := range p.DecisionMetrics {
		if !strings.Contains(html, fmt.Sprintf(`id="panel-error-%s" data-axis="error" data-metric="%s"`, m, m)) {
			t.Errorf("the page has no panel of %s against the error", m)
		}
		if !strings.Contains(html, fmt.Sprintf(`<option value="error:%s">`, m)) {
			t.Errorf("the table cannot list the front of %s against the error", m)
		}
	}
	for _, s := range []string{`id="decision-panels"`, `"family":"thresholds"`, `"uses_a":true`, `"nde":[`, `"owne":[`} {
		if !strings.Contains(html, s) {
			t.Errorf("the page lacks %q", s)
		}
	}
}

// Without the decision metrics in every record there is no panel against
// the error, and the page says why, naming the run.
func TestDecisionPanelsNeedDecisionMetrics(t *testing.T) {
	root := t.TempDir()
	old := familyRun(t, root, records.FamilyPenalty, false, 1)
	p, err := htmlreport.Build([]string{old, familyRun(t, root, records.FamilyReductions, true, 2)}, htmlreport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.DecisionMetrics != nil || !strings.Contains(p.DecisionNote, old) || !strings.Contains(p.DecisionNote, "before fp recorded the decision metrics") {
		t.Fatalf("decision panels %v, note %q: want none, and the note naming %s", p.DecisionMetrics, p.DecisionNote, old)
	}
	for _, c := range p.Data.Candidates {
		if len(c.ErrorFront)+len(c.OwnErrorFront) > 0 {
			t.Fatalf("candidate %d marked on fronts %v, %v against the error, which is not drawn", c.ID, c.ErrorFront, c.OwnErrorFront)
		}
	}
	var buf bytes.Buffer
	if err := htmlreport.Render(&buf, p); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	if strings.Contains(html, `id="panel-error-`) || !strings.Contains(html, "No (test error, decision metric) panels") {
		t.Error("the page draws panels against the error, or does not say why there are none")
	}
}

// In the browser, the panels against the error draw every candidate,
// group thresholds included, each family with its marker and its own
// front, and ring those that use the sensitive attribute; the panels
// against the risk leave those out and point to these.
func TestDecisionPanelsInChromium(t *testing.T) {
	b := newBrowser(t)
	root := t.TempDir()
	runs := []string{familyRun(t, root, records.FamilyPenalty, true, 1), familyRun(t, root, records.FamilyReductions, true, 2),
		familyRun(t, root, records.FamilyThresholds, true, 0.5)}
	page := filepath.Join(root, "report.html")
	p := writePage(t, runs, page)
	b.open(t, page)

	n, usesA, shaped := len(p.Data.Candidates), 0, 0
	thresholds := slices.IndexFunc(p.Data.Groups, func(g htmlreport.Group) bool { return g.Family == records.FamilyThresholds })
	for _, c := range p.Data.Candidates {
		if c.UsesSensitive {
			usesA++
		}
		if p.Data.Groups[c.Group].Family != records.FamilyPenalty {
			shaped++
		}
	}
	count := func(sel string) int {
		return eval[int](t, b, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel))
	}
	for _, m := range p.DecisionMetrics {
		mi := slices.Index(p.Data.Metrics, m)
		panel := "#panel-error-" + m
		if k := count(panel + " .pt"); k != n {
			t.Errorf("%s draws %d points, want every candidate (%d)", panel, k, n)
		}
		if k := count("#panel-" + m + " .pt"); k != n-usesA {
			t.Errorf("#panel-%s (against the risk) draws %d points, want %d: the group-thresholds candidates left out", m, k, n-usesA)
		}
		if k := count(panel + " .ua-ring"); k != usesA {
			t.Errorf("%s rings %d points as using the sensitive attribute, want %d", panel, k, usesA)
		}
		if k := count(panel + " path.pt"); k != shaped {
			t.Errorf("%s draws %d points with a family's marker other than the circle, want %d", panel, k, shaped)
		}
		// The thresholds front: its outlined points and its own staircase.
		nd := 0
		for _, c := range p.Data.Candidates {
			if c.UsesSensitive && slices.Contains(c.ErrorFront, mi) {
				nd++
			}
		}
		drawn := eval[int](t, b, fmt.Sprintf(`[...document.querySelectorAll("%s .pt.nd")].filter(e => %s.includes(+e.dataset.id)).length`,
			panel, ids(p, func(c htmlreport.Candidate) bool { return c.UsesSensitive })))
		if drawn != nd {
			t.Errorf("%s outlines %d group-thresholds points as non-dominated, want %d", panel, drawn, nd)
		}
		if k := count(fmt.Sprintf(`%s path.stair-own.family[data-g="%d"]`, panel, thresholds)); k != 1 {
			t.Errorf("%s draws %d own fronts of the group thresholds, want 1", panel, k)
		}
	}
	key := eval[string](t, b, `document.querySelector(".decision-key").textContent`)
	for _, s := range []string{"penalty sweep", "reductions", "group thresholds", "uses the sensitive attribute at prediction time"} {
		if !strings.Contains(key, s) {
			t.Errorf("the key of the panels against the error %q lacks %q", key, s)
		}
	}
	if k := count(`#legend a[href="#decision-panels"]`); k != 1 {
		t.Error("the legend does not point to the panels against the error for the group-thresholds candidates")
	}
	// A group-thresholds point selected says it uses the sensitive attribute.
	id := slices.IndexFunc(p.Data.Candidates, func(c htmlreport.Candidate) bool { return c.UsesSensitive })
	eval[int](t, b, fmt.Sprintf(`document.querySelector('#panel-error-dp-diff .pt[data-id="%d"]').dispatchEvent(new MouseEvent("click", {bubbles: true})), 0`, id))
	if d := eval[string](t, b, `document.getElementById("detail").textContent`); !strings.Contains(d, "uses the sensitive attribute at prediction time") {
		t.Errorf("the detail of group-thresholds candidate %d does not say it uses the sensitive attribute: %q", id, d)
	}
	// The table lists a front against the error.
	mi := slices.Index(p.Data.Metrics, records.MetricDPDiff)
	want := 0
	for _, c := range p.Data.Candidates {
		if slices.Contains(c.ErrorFront, mi) {
			want++
		}
	}
	rows := eval[int](t, b, `(() => { const s = document.getElementById("nd-metric"); s.value = "error:dp-diff";
		s.dispatchEvent(new Event("change")); return document.querySelectorAll("#nd-table tbody tr").length; })()`)
	if rows != want {
		t.Errorf("the table of the front of DP diff against the error has %d rows, want %d", rows, want)
	}
	if errs := b.errors(); len(errs) > 0 {
		t.Errorf("the page logged errors: %q", errs)
	}
}

// ids is the ids of the page's candidates that keep holds for, as a
// JavaScript array.
func ids(p *htmlreport.Page, keep func(htmlreport.Candidate) bool) string {
	var out []string
	for _, c := range p.Data.Candidates {
		if keep(c) {
			out = append(out, fmt.Sprint(c.ID))
		}
	}
	return "[" + strings.Join(out, ",") + "]"
}

// A thresholds sweep's candidates on a front against the error carry the
// intervals of their rules' decisions, each holding the recorded value, as
// a penalty sweep's candidates carry theirs; the page notes nothing
// missing about them.
func TestDecisionPanelsThresholdsIntervals(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "thresholds run")
	c := experiments.DefaultConfig()
	c.Method, c.Constraint = experiments.MethodThresholds, "eo"
	c.Splits, c.Lambdas, c.Epochs, c.PropensityEpochs, c.Engine = 1, "0,0.3,0.9", 3, 5, "backprop"
	experimentstest.Run(t, c, dir)
	p, err := htmlreport.Build([]string{dir}, htmlreport.Options{CIResamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	on := 0
	for _, c := range p.Data.Candidates {
		if !c.UsesSensitive {
			t.Fatalf("candidate %d of a thresholds sweep does not use the sensitive attribute", c.ID)
		}
		if len(c.ErrorFront) == 0 {
			continue
		}
		on++
		if c.CI == nil {
			t.Errorf("candidate %d is on a front against the error without intervals (warnings %q)", c.ID, p.Warnings)
			continue
		}
		if len(c.CI.Acc) != 2 || !(c.CI.Acc[0] <= c.Acc && c.Acc <= c.CI.Acc[1]) {
			t.Errorf("candidate %d: accuracy %g, interval %v", c.ID, c.Acc, c.CI.Acc)
		}
		for _, m := range p.DecisionMetrics {
			mi := slices.Index(p.Data.Metrics, m)
			if iv, v := c.CI.Metrics[mi], c.Metrics[mi]; len(iv) != 2 || !(iv[0] <= v && v <= iv[1]) {
				t.Errorf("candidate %d: %s %g, interval %v", c.ID, m, v, iv)
			}
		}
	}
	if on == 0 {
		t.Fatal("no candidate on a front against the error: the run does not test them")
	}
	var buf bytes.Buffer
	if err := htmlreport.Render(&buf, p); err != nil {
		t.Fatal(err)
	}
	if html := buf.String(); strings.Contains(html, "No intervals for") || !strings.Contains(html, `"ci":{"risk":[`) {
		t.Error("the page says intervals are missing, or carries none")
	}
	// fp pick --knee finds no candidate in a (risk, ·) plane of a
	// thresholds sweep, so the page marks none there and says why.
	for _, c := range p.Data.Candidates {
		if len(c.Pick) > 0 {
			t.Errorf("candidate %d is marked as fp pick's on the fronts %v against the risk, where it has no point", c.ID, c.Pick)
		}
	}
	for _, f := range p.Fronts {
		if !strings.Contains(f.PickNote, "returns none") || !strings.Contains(f.PickNote, "--axis error") {
			t.Errorf("front %s: pick note %q, want that fp pick returns none there and to give --axis error", f.Metric, f.PickNote)
		}
	}
}
