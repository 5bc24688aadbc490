package htmlreport_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fpareto/fp/choose"
	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/experiments/experimentstest"
	"github.com/fpareto/fp/internal/shellword"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/report/htmlreport"
	"github.com/fpareto/fp/runfolder"
)

// Every front drawn says how many of its points can be told apart, and
// the candidate fp pick would return from it is marked: the knee by
// default, or the requirement given.
func TestPageFrontsAndPicks(t *testing.T) {
	dir, _ := smallCompasRun(t)
	all, _, err := runfolder.ReadAll([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	cands, err := choose.Candidates(all)
	if err != nil {
		t.Fatal(err)
	}
	decide := records.DecideTest // COMPAS keeps no selection rows
	q := shellword.Quote(dir)
	cases := []struct {
		name  string
		opt   htmlreport.Options
		rule  choose.Rule
		flags string
	}{
		{"knee", htmlreport.Options{CIResamples: 200}, choose.Rule{Kind: choose.Knee}, "--knee"},
		{"requirement", htmlreport.Options{CIResamples: 200, Rule: choose.Rule{Kind: choose.MaxRisk, Bound: 0.68}, RuleFlags: "--max-risk 0.68"},
			choose.Rule{Kind: choose.MaxRisk, Bound: 0.68}, "--max-risk 0.68"},
		{"ratio", htmlreport.Options{Rule: choose.Rule{Kind: choose.MinRatio, Bound: 0.5}, RuleFlags: "--min-ratio 0.5"},
			choose.Rule{Kind: choose.MinRatio, Bound: 0.5}, "--min-ratio 0.5"},
		// Met by no network of any front: the key says so.
		{"unmet", htmlreport.Options{Rule: choose.Rule{Kind: choose.MaxRisk, Bound: 0.01}, RuleFlags: "--max-risk 0.01"},
			choose.Rule{Kind: choose.MaxRisk, Bound: 0.01}, "--max-risk 0.01"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := htmlreport.Build([]string{dir}, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Fronts) != len(p.Data.Metrics) || p.Data.PickFlags != tc.flags {
				t.Fatalf("%d fronts for %d metrics, pick flags %q", len(p.Fronts), len(p.Data.Metrics), p.Data.PickFlags)
			}
			for mi, m := range p.Data.Metrics {
				f := p.Fronts[mi]
				points := 0
				var marked []int
				for _, c := range p.Data.Candidates {
					if slices.Contains(c.Front, mi) {
						points++
					}
					if slices.Contains(c.Pick, mi) {
						marked = append(marked, c.ID)
					}
				}
				if f.Points != points || f.Metric != records.MetricLabel(m) {
					t.Errorf("%s: front of %d points named %q, want %d", m, f.Points, f.Metric, points)
				}
				// Tested when the page has intervals.
				if tested := tc.opt.CIResamples > 0; tested != (f.Distinct != "") || tested == (f.NotTested != "") ||
					(tested && !strings.HasPrefix(f.Distinct, fmt.Sprintf("%d points; ", points))) {
					t.Errorf("%s: distinct %q, not tested %q", m, f.Distinct, f.NotTested)
				}
				if tc.rule.Kind == choose.MinRatio && m != records.MetricDPRatio {
					if len(marked) != 0 || f.Command != "" {
						t.Errorf("%s: --min-ratio marks %v, command %q: want the dp-ratio front only", m, marked, f.Command)
					}
					continue
				}
				want := "fp pick " + q + " " + tc.flags
				if tc.rule.Kind != choose.MinRatio {
					want += " --metric " + m
				}
				if f.Command != want {
					t.Errorf("%s: command %q, want %q", m, f.Command, want)
				}
				// The one fp pick returns.
				picked, err := choose.Pick(cands, m, tc.rule, choose.Options{Decide: decide})
				if err != nil {
					if len(marked) != 0 || !strings.Contains(f.PickNote, "returns none") {
						t.Errorf("%s: fp pick returns none (%v), the page marks %v, note %q", m, err, marked, f.PickNote)
					}
					continue
				}
				if len(marked) != 1 {
					t.Fatalf("%s: %d candidates marked, want 1", m, len(marked))
				}
				c := p.Data.Candidates[marked[0]]
				if c.Network != picked.Weights || c.Split != picked.Split || float64(c.Lambda) != picked.Lambda {
					t.Errorf("%s: marked %s split %d λ %g, fp pick returns %s", m, c.Network, c.Split, c.Lambda, picked.Weights)
				}
				if f.Pick == "" || f.PickNote != picked.Note {
					t.Errorf("%s: pick %q, note %q; fp pick's note %q", m, f.Pick, f.PickNote, picked.Note)
				}
			}
			var buf bytes.Buffer
			if err := htmlreport.Render(&buf, p); err != nil {
				t.Fatal(err)
			}
			html := buf.String()
			// The key says what the star marks, or that fp pick returns no
			// network from any front, and from which fronts it returns none.
			anyPick := slices.ContainsFunc(p.Fronts, func(f htmlreport.FrontSummary) bool { return f.Pick != "" })
			key := "★</span> marks what <code>fp pick " + tc.flags + "</code> returns"
			if !anyPick {
				first := p.Fronts[slices.IndexFunc(p.Fronts, func(f htmlreport.FrontSummary) bool { return f.Command != "" })]
				key = "<code>fp pick " + tc.flags + "</code> returns <b>no network</b> from any front (on " + first.Metric + ": "
			}
			for _, s := range []string{`id="fronts-note"`, "Told apart:", key, `id="front-picks"`,
				`"pick_flags":"` + strings.ReplaceAll(tc.flags, " ", " ") + `"`} {
				if !strings.Contains(html, s) {
					t.Errorf("the page lacks %q", s)
				}
			}
			for _, f := range p.Fronts {
				if none := f.Command != "" && f.Pick == ""; none != slices.Contains(p.Unpicked(), f.Metric) {
					t.Errorf("%s: fp pick returns none %v, but the key's list of such fronts is %v", f.Metric, none, p.Unpicked())
				}
			}
			fronts := "front"
			if len(p.Unpicked()) > 1 {
				fronts = "fronts"
			}
			if u := p.Unpicked(); anyPick && len(u) > 0 && !strings.Contains(html, "from the "+fronts+" of "+strings.Join(u, ", ")+" it returns none") {
				t.Errorf("the key does not say that fp pick returns none from %v", u)
			}
			if tc.name == "unmet" && anyPick {
				t.Error("a risk of 0.01 is met by a network")
			}
			// What each front's claim rests on, where it was tested.
			if tested := tc.opt.CIResamples > 0; tested != strings.Contains(html, "(in risk or ato at 95% on the test rows: ") {
				t.Errorf("the page says what the fronts' claims rest on: %v, want %v", !tested, tested)
			}
		})
	}
}

// The first screen says whether the fronts' points can be told apart, the
// panels mark the network fp pick returns, and the page opens on it.
func TestReportPicksInChromium(t *testing.T) {
	b := newBrowser(t)
	// Trained long enough that fp pick's picks are not all dominated by
	// degenerate networks, which it leaves out and the page draws.
	dir := filepath.Join(t.TempDir(), "compas run")
	c := experiments.DefaultConfig()
	c.Splits, c.Lambdas, c.Epochs, c.PropensityEpochs, c.Engine = 2, "log:4", 40, 5, "backprop"
	experimentstest.Run(t, c, dir)
	p, err := htmlreport.Build([]string{dir}, htmlreport.Options{CIResamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "report.html")
	if _, err := htmlreport.WriteFile(page, p); err != nil {
		t.Fatal(err)
	}
	b.open(t, page)
	note := eval[string](t, b, `(() => { const n = document.getElementById("fronts-note");
		return n && n.getBoundingClientRect().bottom <= window.innerHeight ? n.textContent : ""; })()`)
	if !strings.Contains(note, "ATO: ") || !strings.Contains(note, "at 95%") || !strings.Contains(note, "fp pick --knee") {
		t.Errorf("the first screen does not say whether the fronts can be told apart: %q", note)
	}
	firstScreen(t, b)
	for mi, m := range p.Data.Metrics {
		want := 0
		for _, c := range p.Data.Candidates {
			if slices.Contains(c.Pick, mi) {
				want++
			}
		}
		if got := eval[int](t, b, fmt.Sprintf(`document.querySelectorAll("#panel-%s text.pick").length`, m)); got != want {
			t.Errorf("panel %s marks %d picks, want %d", m, got, want)
		}
	}
	// The page opens on the knee of the first metric's front.
	for _, c := range p.Data.Candidates {
		if slices.Contains(c.Pick, 0) {
			title := eval[string](t, b, `document.getElementById("detail-title").textContent`)
			if want := fmt.Sprintf("split %d", c.Split); !strings.Contains(title, want) {
				t.Errorf("the page opens on %q, want the pick (%s)", title, want)
			}
			if d := eval[string](t, b, `document.getElementById("detail").textContent`); !strings.Contains(d, "fp pick --knee returns it") {
				t.Errorf("the detail does not say fp pick returns it: %q", d)
			}
		}
	}
	// The table of a front marks the pick when it is on that front (fp pick
	// forms its front without the degenerate candidates, so its pick can be
	// dominated by one of them).
	shown := 0
	for mi, m := range p.Data.Metrics {
		want := 0
		for _, c := range p.Data.Candidates {
			if slices.Contains(c.Pick, mi) && slices.Contains(c.Front, mi) {
				want++
			}
		}
		shown += want
		n := eval[int](t, b, fmt.Sprintf(`(() => { const s = document.getElementById("nd-metric"); s.value = %q;
			s.dispatchEvent(new Event("change")); return document.querySelectorAll("#nd-table .tag.pick").length; })()`, m))
		if n != want {
			t.Errorf("the table of the %s front marks %d picks, want %d", m, n, want)
		}
	}
	if shown == 0 {
		t.Error("no pick lies on its front: the table's mark is not tested")
	}
	// A requirement on dp_ratio marks its own front only, which is not the
	// first: the page opens on its pick all the same, not on the first
	// front's network of lowest risk. The mark is moved to the ratio
	// front's network of highest risk, so that the two cannot coincide.
	flags := "--min-ratio 0.01"
	if p, err = htmlreport.Build([]string{dir}, htmlreport.Options{Rule: choose.Rule{Kind: choose.MinRatio, Bound: 0.01}, RuleFlags: flags}); err != nil {
		t.Fatal(err)
	}
	ratio := slices.Index(p.Data.Metrics, records.MetricDPRatio)
	if ratio <= 0 {
		t.Fatalf("the dp-ratio front is at %d of %v, want one after the first", ratio, p.Data.Metrics)
	}
	var pick, lowest *htmlreport.Candidate
	for i := range p.Data.Candidates {
		c := &p.Data.Candidates[i]
		c.Pick = nil
		if slices.Contains(c.Front, 0) && (lowest == nil || c.Risk < lowest.Risk) {
			lowest = c
		}
		if slices.Contains(c.Front, ratio) && (pick == nil || c.Risk > pick.Risk) {
			pick = c
		}
	}
	if pick == nil || lowest == nil || pick.ID == lowest.ID {
		t.Fatalf("the ratio front's network of highest risk is the first front's of lowest risk (%v, %v)", pick, lowest)
	}
	pick.Pick = []int{ratio}
	if _, err := htmlreport.WriteFile(page, p); err != nil {
		t.Fatal(err)
	}
	b.open(t, page)
	title := eval[string](t, b, `document.getElementById("detail-title").textContent`)
	if want := fmt.Sprintf("split %d", pick.Split); !strings.Contains(title, want) {
		t.Errorf("with %s the page opens on %q, want the pick (%s)", flags, title, want)
	}
	if d := eval[string](t, b, `document.getElementById("detail").textContent`); !strings.Contains(d, "fp pick "+flags+" returns it") {
		t.Errorf("with %s the page does not open on the pick: %q", flags, d)
	}
	if errs := b.errors(); len(errs) > 0 {
		t.Errorf("browser errors: %q", errs)
	}
}
