package htmlreport_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/report/htmlreport"
)

// The candidates on a front carry their intervals, the others none, and
// the page then explains them; without networks no interval is drawn and a
// warning says why.
func TestPageIntervals(t *testing.T) {
	dir, recs := smallCompasRun(t)
	p, err := htmlreport.Build([]string{dir}, htmlreport.Options{CIResamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Intervals {
		t.Error("Page.Intervals is false on a page with intervals")
	}
	with := 0
	for _, c := range p.Data.Candidates {
		switch {
		case len(c.Front) == 0 && c.CI != nil:
			t.Errorf("candidate %d is on no front, yet has intervals", c.ID)
		case len(c.Front) > 0 && c.CI == nil:
			t.Errorf("candidate %d is on a front without intervals (warnings %q)", c.ID, p.Warnings)
		case c.CI != nil:
			with++
			if len(c.CI.Risk) != 2 || !(c.CI.Risk[0] <= c.Risk && c.Risk <= c.CI.Risk[1]) {
				t.Errorf("candidate %d: risk %g, interval %v", c.ID, c.Risk, c.CI.Risk)
			}
			if len(c.CI.Acc) != 2 || len(c.CI.Metrics) != len(p.Data.Metrics) {
				t.Errorf("candidate %d: intervals %+v: want accuracy and every metric", c.ID, c.CI)
			}
		}
	}
	if with == 0 || with == len(recs) {
		t.Errorf("%d of %d candidates have intervals: want those on a front only", with, len(recs))
	}
	var buf bytes.Buffer
	if err := htmlreport.Render(&buf, p); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "for ATO also the propensity model") || !strings.Contains(buf.String(), `"ci":{"risk":[`) {
		t.Error("the page neither explains nor carries the intervals")
	}

	// Without intervals asked for: none.
	p, err = htmlreport.Build([]string{dir}, htmlreport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range p.Data.Candidates {
		if c.CI != nil || p.Intervals {
			t.Fatal("intervals drawn without being asked for")
		}
	}

	// Without the networks: a warning, and no interval.
	if err := os.RemoveAll(filepath.Join(dir, "networks")); err != nil {
		t.Fatal(err)
	}
	p, err = htmlreport.Build([]string{dir}, htmlreport.Options{CIResamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	if p.Intervals {
		t.Error("intervals drawn without the networks")
	}
	var said []string
	for _, w := range p.Warnings {
		if strings.Contains(w, "no interval") {
			said = append(said, w)
		}
	}
	if len(said) != 1 || !strings.Contains(said[0], "its networks are not there") {
		t.Errorf("warnings %q: want one line saying the networks are missing", p.Warnings)
	}
}

// The browser draws the intervals as error bars in both axes on the
// non-dominated points, and shows them in the table.
func TestReportIntervalsInChromium(t *testing.T) {
	b := newBrowser(t)
	dir, _ := smallCompasRun(t)
	p, err := htmlreport.Build([]string{dir}, htmlreport.Options{CIResamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "report.html")
	if _, err := htmlreport.WriteFile(page, p); err != nil {
		t.Fatal(err)
	}
	b.open(t, page)
	for mi, m := range p.Data.Metrics {
		want := 0
		for _, c := range p.Data.Candidates {
			for _, f := range c.Front {
				if f == mi && c.CI != nil {
					want++
				}
			}
		}
		got := eval[int](t, b, fmt.Sprintf(`document.querySelectorAll("#panel-%s g.ci").length`, m))
		if got != want || want == 0 {
			t.Errorf("panel %s draws %d error bars, want %d (one per non-dominated point)", m, got, want)
		}
		// Each bar runs through its point: the risk's crosses it, the
		// metric's stands on its x (a metric near 0 can lie below its
		// interval, see docs/method.md §7.1).
		bad := eval[int](t, b, fmt.Sprintf(`[...document.querySelectorAll("#panel-%s g.ci")].filter(g => {
			const pt = document.querySelector('#panel-%s circle.pt[data-id="' + g.dataset.id + '"]');
			const x = g.querySelector("line.ci-x"), y = g.querySelector("line.ci-y");
			if (!pt || !x || !y) return true;
			const cx = +pt.getAttribute("cx"), cy = +pt.getAttribute("cy");
			return !(+x.getAttribute("x1") <= cx + 0.01 && cx - 0.01 <= +x.getAttribute("x2") && Math.abs(+x.getAttribute("y1") - cy) < 0.01 &&
				Math.abs(+y.getAttribute("x1") - cx) < 0.01 && +y.getAttribute("y2") <= +y.getAttribute("y1"));
		}).length`, m, m))
		if bad != 0 {
			t.Errorf("panel %s: %d error bars do not run through their point", m, bad)
		}
	}
	if n := eval[int](t, b, `document.querySelectorAll("#nd-table span.ci").length`); n == 0 {
		t.Error("the table of non-dominated candidates shows no interval")
	}
	if w := eval[int](t, b, `document.documentElement.scrollWidth - window.innerWidth`); w > 0 {
		t.Errorf("with intervals the page is %d px wider than the window", w)
	}
	firstScreen(t, b)
	if k := eval[string](t, b, `document.getElementById("key").textContent`); !strings.Contains(k, "95% interval") {
		t.Error("the key does not explain the intervals")
	}
	if errs := b.errors(); len(errs) > 0 {
		t.Errorf("browser errors: %q", errs)
	}
}
