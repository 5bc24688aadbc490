package htmlreport_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/experiments/experimentstest"
	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/report/htmlreport"
	"github.com/fpareto/fp/runfolder"
)

// chromium returns the path of a Chromium to drive. Without one the test
// is skipped, or fails when FP_REQUIRE_CHROMIUM=1 (as in CI).
func chromium(t testing.TB) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("FP_REQUIRE_CHROMIUM") == "1" {
		t.Fatal("FP_REQUIRE_CHROMIUM=1 but no chromium on PATH (apt-get install chromium)")
	}
	t.Skip("no chromium on PATH (apt-get install chromium); FP_REQUIRE_CHROMIUM=1 turns this into a failure")
	return ""
}

// browser is a headless Chromium that collects the page's console errors,
// uncaught exceptions and error log entries (such as failed loads).
type browser struct {
	ctx  context.Context
	mu   sync.Mutex
	errs []string
}

func newBrowser(t testing.TB) *browser {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)), chromedp.NoSandbox, chromedp.WindowSize(1280, 800))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelTime(); cancelCtx(); cancelAlloc() })
	b := &browser{ctx: ctx}
	err := chromedp.Listen(ctx, func(ev any) {
		var msg string
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
				for _, a := range e.Args {
					msg += string(a.Value) + a.Description + " "
				}
			}
		case *runtime.EventExceptionThrown:
			msg = e.ExceptionDetails.Text
			if e.ExceptionDetails.Exception != nil {
				msg += " " + e.ExceptionDetails.Exception.Description
			}
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError {
				msg = e.Entry.Text + " " + e.Entry.URL
			}
		}
		if msg != "" {
			b.mu.Lock()
			b.errs = append(b.errs, msg)
			b.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return b
}

func (b *browser) errors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errs...)
}

// run runs actions, failing the test on error.
func (b *browser) run(t testing.TB, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t testing.TB, b *browser, expr string) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// open loads the page at path and waits for it to be drawn.
func (b *browser) open(t testing.TB, path string) {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	b.run(t, "load "+path, chromedp.Navigate("file://"+abs), chromedp.WaitReady("#draw-time"))
}

// smallCompasRun trains a small sweep on the embedded COMPAS data and
// returns its folder and records.
func smallCompasRun(t *testing.T) (string, []records.Record) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "compas run")
	c := experiments.DefaultConfig()
	c.Splits, c.Lambdas, c.Epochs, c.PropensityEpochs, c.Engine = 2, "log:4", 3, 5, "backprop"
	ok := experimentstest.Train(t, c, dir)
	if len(ok) < 4 {
		t.Fatalf("%d successful candidates, want at least 4 to draw", len(ok))
	}
	return dir, ok
}

func writePage(t testing.TB, runs []string, out string) *htmlreport.Page {
	t.Helper()
	p, err := htmlreport.Build(runs, htmlreport.Options{
		Predict: func(net string, _ *records.Record, _ *runfolder.Config) string {
			return "fp predict --model " + net + " --data DATA.csv"
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := htmlreport.Render(&buf, p); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReportInChromium(t *testing.T) {
	b := newBrowser(t)
	dir, recs := smallCompasRun(t)
	page := filepath.Join(dir, "report.html")
	p := writePage(t, []string{dir}, page)
	if len(p.Propensity) != 2 || !(p.Propensity[0].Items[0].Value > 0) {
		t.Errorf("propensity diagnostics %+v: want the temperature of each of the 2 splits", p.Propensity)
	}
	for _, row := range p.Propensity {
		names := map[string]float64{}
		for _, it := range row.Items {
			names[it.Name] = it.Value
		}
		if v, ok := names["ESS a=1 / rows"]; !ok || !(v > 0 && v <= 1) {
			t.Errorf("split %d: overlap diagnostics %+v: want the effective sample size of each group", row.Split, row.Items)
		}
	}
	for _, c := range p.Data.Candidates {
		if c.PoorOverlap == nil {
			t.Errorf("candidate %d: poor overlap not read from its record", c.ID)
			break
		}
	}
	b.open(t, page)

	count := func() map[string]int {
		n := map[string]int{}
		for _, m := range records.Metrics {
			k := eval[int](t, b, fmt.Sprintf(`document.querySelectorAll("#panel-%s circle.pt").length`, m))
			n[m] = k
		}
		return n
	}
	for m, k := range count() {
		if k != len(recs) {
			t.Errorf("panel %s draws %d points, want one per successful candidate (%d)", m, k, len(recs))
		}
	}
	// Networks predicting one class are drawn as rings.
	single := 0
	for _, r := range recs {
		if r.SingleClass {
			single++
		}
	}
	for _, m := range records.Metrics {
		k := eval[int](t, b, fmt.Sprintf(`[...document.querySelectorAll("#panel-%s circle.pt.single")].filter(e => getComputedStyle(e).fill === "rgb(255, 255, 255)").length`, m))
		if k != single {
			t.Errorf("panel %s draws %d white-filled single-class points, want %d", m, k, single)
		}
	}
	// Networks no better than the constant predictor have a dashed outline.
	noBetter := 0
	for _, r := range recs {
		if r.NoBetterThanConstant() {
			noBetter++
		}
	}
	for _, m := range records.Metrics {
		k := eval[int](t, b, fmt.Sprintf(`[...document.querySelectorAll("#panel-%s circle.pt.nobetter")].filter(e => getComputedStyle(e).strokeDasharray !== "none").length`, m))
		if k != noBetter {
			t.Errorf("panel %s draws %d dashed no-better-than-constant points, want %d", m, k, noBetter)
		}
	}

	// A run of good overlap has no banner; the key to the figures and the
	// upper half of the first figure are on the first screen.
	if n := eval[int](t, b, `document.querySelectorAll(".banner").length`); n != 0 {
		t.Errorf("a run of good overlap shows %d banners, want none", n)
	}
	firstScreen(t, b)

	// The runner recorded its invocation: the summary gives the wall time.
	if head := eval[string](t, b, `document.querySelector("header").textContent`); !strings.Contains(head, "wall time") || strings.Contains(head, "not recorded") {
		t.Errorf("summary %q: want the recorded wall time", head)
	}

	// Selecting a point shows that candidate's metrics. Candidates are
	// numbered in the order of the records.
	for _, id := range []int{1, len(recs) - 1} {
		r := recs[id]
		eval[int](t, b, fmt.Sprintf(`document.querySelector('#panel-eo circle.pt[data-id="%d"]').dispatchEvent(new MouseEvent("click", {bubbles: true})), 0`, id))
		shown := eval[map[string]string](t, b, `Object.fromEntries([...document.querySelectorAll("#detail-metrics td[data-k]")].map(td => [td.dataset.k, td.textContent]))`)
		want := map[string]float64{"risk": r.Risk, "acc": r.Accuracy, "ato": r.ATO, "dp": r.DP, "eo": r.EO, "eopp": r.EOpp}
		for k, v := range want {
			got, err := strconv.ParseFloat(shown[k], 64)
			if err != nil || math.Abs(got-v) > 5e-4*math.Max(math.Abs(v), 1e-3) {
				t.Errorf("candidate %d (%s): detail shows %s = %q, want %.6g", id, r.Key(), k, shown[k], v)
			}
		}
		title := eval[string](t, b, `document.getElementById("detail-title").textContent`)
		if !strings.Contains(title, fmt.Sprintf("split %d", r.Split)) {
			t.Errorf("candidate %d: detail title %q does not name split %d", id, title, r.Split)
		}
		// In every panel: against the risk, and the decision metrics
		// against the error.
		selected := eval[int](t, b, `document.querySelectorAll("circle.pt.selected").length`)
		if want := len(records.Metrics) + len(p.DecisionMetrics); selected != want || len(p.DecisionMetrics) != len(records.DecisionMetrics) {
			t.Errorf("candidate %d selected in %d panels, want %d", id, selected, want)
		}
	}

	// A candidate on the ATO front has its score distributions: four
	// (y, a) cells whose counts add up to its test split.
	pts := make([]pareto.Point, len(recs))
	for i, r := range recs {
		pts[i] = pareto.Point{X: r.Risk, Y: r.ATO}
	}
	front := pareto.Front(pts)
	nd := front[0]
	eval[int](t, b, fmt.Sprintf(`document.querySelector('#panel-ato circle.pt[data-id="%d"]').dispatchEvent(new MouseEvent("click", {bubbles: true})), 0`, nd))
	cells := eval[int](t, b, `document.querySelectorAll("#detail .hist svg path").length`)
	keys := eval[string](t, b, `document.querySelector("#detail .hist .muted").textContent`)
	total := 0
	for _, f := range strings.Split(keys, "(n=")[1:] {
		n, _ := strconv.Atoi(f[:strings.Index(f, ")")])
		total += n
	}
	if cells != 4 || total != recs[nd].NTest {
		t.Errorf("front candidate %d: %d histograms over %d rows (%q), want 4 over its %d test rows", nd, cells, total, keys, recs[nd].NTest)
	}
	cmd := eval[string](t, b, `document.querySelector("#detail").textContent`)
	if !strings.Contains(cmd, "fp predict --model "+filepath.Join(dir, recs[nd].Weights)) {
		t.Errorf("detail does not show the predict command of %s: %q", recs[nd].Weights, cmd)
	}

	// Hovering shows the split and λ.
	tip := eval[string](t, b, `(() => { const c = document.querySelector('#panel-dp circle.pt[data-id="0"]');
		c.dispatchEvent(new MouseEvent("mouseover", {bubbles: true}));
		const t = document.getElementById("tooltip"); return t.hidden ? "" : t.textContent; })()`)
	if !strings.Contains(tip, fmt.Sprintf("split %d", recs[0].Split)) || !strings.Contains(tip, "λ =") {
		t.Errorf("tooltip %q: want the split and λ of candidate 0", tip)
	}

	// The table lists the ATO front; a click on a heading sorts it.
	rows := eval[int](t, b, `document.querySelectorAll("#nd-table tbody tr").length`)
	if rows != len(front) {
		t.Errorf("table of non-dominated candidates has %d rows, want %d", rows, len(front))
	}
	sorted := eval[bool](t, b, `(() => { document.querySelector('#nd-table th[data-k="ato"]').click();
		const v = [...document.querySelectorAll("#nd-table tbody tr")].map(tr => +tr.children[5].textContent);
		return v.every((x, i) => i == 0 || v[i-1] <= x); })()`)
	if !sorted {
		t.Error("sorting the table by ATO did not order its rows")
	}

	// The log scale and a zoom on the unfairness axis keep every point.
	eval[int](t, b, `document.querySelector('input[name="scale"][value="log"]').click(), 0`)
	eval[int](t, b, `(() => { const s = document.getElementById("panel-ato"), r = s.getBoundingClientRect();
		const ev = (type, y) => s.dispatchEvent(new PointerEvent(type, {bubbles: true, button: 0, clientX: r.left + r.width / 2, clientY: r.top + y * r.height}));
		ev("pointerdown", 0.2); ev("pointermove", 0.5); ev("pointerup", 0.5); return 0; })()`)
	zoomed := eval[bool](t, b, `document.getElementById("panel-ato").textContent.includes("zoomed")`)
	if !zoomed {
		t.Error("dragging on the ATO panel did not zoom it")
	}
	for m, k := range count() {
		if k != len(recs) {
			t.Errorf("log scale, zoomed: panel %s draws %d points, want %d", m, k, len(recs))
		}
	}

	// Hiding the only method in the legend empties the panels; showing it
	// draws every point again.
	eval[int](t, b, `document.querySelector('#legend button.lg[data-g="0"]').click(), 0`)
	if n := count()["ato"]; n != 0 {
		t.Errorf("method hidden: %d points drawn, want 0", n)
	}
	eval[int](t, b, `document.querySelector('#legend button.lg[data-g="0"]').click(), 0`)
	if n := count()["ato"]; n != len(recs) {
		t.Errorf("method shown again: %d points drawn, want %d", n, len(recs))
	}

	// Without the networks the page says so.
	if err := os.Rename(filepath.Join(dir, "networks"), filepath.Join(dir, "networks.away")); err != nil {
		t.Fatal(err)
	}
	writePage(t, []string{dir}, page)
	b.open(t, page)
	eval[int](t, b, fmt.Sprintf(`document.querySelector('#panel-ato circle.pt[data-id="%d"]').dispatchEvent(new MouseEvent("click", {bubbles: true})), 0`, nd))
	note := eval[string](t, b, `document.querySelector("#detail").textContent`)
	if !strings.Contains(note, "absent") {
		t.Errorf("networks removed: detail %q does not say they are absent", note)
	}

	// A run whose candidates all failed still gives a page, which says so.
	failed := filepath.Join(t.TempDir(), "failed")
	if err := os.MkdirAll(failed, 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := records.Open(filepath.Join(failed, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	bad := recs[0]
	bad.Status, bad.FailEpoch, bad.FailReason = records.StatusFailed, 3, "loss is NaN"
	if err := w.Append(&bad); err != nil {
		t.Fatal(err)
	}
	w.Close()
	writePage(t, []string{failed}, filepath.Join(failed, "report.html"))
	b.open(t, filepath.Join(failed, "report.html"))
	if text := eval[string](t, b, `document.getElementById("panel-ato").textContent`); !strings.Contains(text, "No candidate trained") {
		t.Errorf("all candidates failed: panel says %q", text)
	}

	if errs := b.errors(); len(errs) > 0 {
		t.Errorf("the page logged errors: %q", errs)
	}
}

// firstScreen checks that a 1280×800 window shows, without scrolling, what
// each axis and metric means and the upper half of the first figure.
func firstScreen(t *testing.T, b *browser) {
	t.Helper()
	if w := eval[int](t, b, `window.innerWidth`); w != 1280 {
		t.Fatalf("window %d px wide, want 1280", w)
	}
	key := eval[string](t, b, `(() => { const k = document.getElementById("key");
		return k && k.getBoundingClientRect().bottom <= window.innerHeight ? k.textContent : ""; })()`)
	if key == "" {
		t.Error("the key to the figures is not on the first screen")
	}
	for _, s := range []string{"Risk", "log-loss on the test rows", "Accuracy", "ATO:", "overlap-weighted causal effect", "DP, EO, EOpp:", "mean-variance",
		"0 = the groups' score distributions are identical", "lower is fairer", "Point:", "Dashed front:"} {
		if !strings.Contains(key, s) {
			t.Errorf("the key on the first screen lacks %q", s)
		}
	}
	if ok := eval[bool](t, b, `(() => { const r = document.getElementById("panel-ato").getBoundingClientRect();
		return r.top + r.height / 2 <= window.innerHeight; })()`); !ok {
		t.Error("the upper half of the ATO figure is below the first screen")
	}
}

// A column that copies the sensitive attribute leaves the groups without
// overlap: the first screen shows a banner that names the column and the
// advice, and links to the details.
func TestReportBannerInChromium(t *testing.T) {
	b := newBrowser(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 5))
	var csv strings.Builder
	csv.WriteString("x1,x2,proxy,g,y\n")
	for range 400 {
		g, x1 := rng.IntN(2), rng.NormFloat64()
		y := 0
		if x1+0.5*rng.NormFloat64() > 0 {
			y = 1
		}
		fmt.Fprintf(&csv, "%.4f,%.4f,%d,%d,%d\n", x1, rng.NormFloat64(), g, g, y)
	}
	data := filepath.Join(dir, "groups.csv")
	if err := os.WriteFile(data, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	c := experiments.DefaultConfig()
	c.Dataset, c.CSV, c.Target, c.Sensitive = "", data, "y", "g"
	c.Splits, c.Lambdas, c.Epochs, c.Engine = 1, "0,1", 2, "backprop"
	run := filepath.Join(dir, "run")
	experimentstest.Run(t, c, run)
	page := filepath.Join(run, "report.html")
	writePage(t, []string{run}, page)
	b.open(t, page)

	banner := eval[string](t, b, `(() => { const e = document.querySelector(".banner");
		return e && e.getBoundingClientRect().bottom <= window.innerHeight ? e.textContent : ""; })()`)
	if banner == "" {
		t.Fatal("no banner on the first screen")
	}
	for _, s := range []string{"Poor overlap", "proxy (absolute correlation 1.00)", "fp train --exclude proxy", "read the ATO with caution"} {
		if !strings.Contains(banner, s) {
			t.Errorf("banner %q lacks %q", banner, s)
		}
	}
	details := eval[string](t, b, `(() => { const a = document.querySelector(".banner a"), h = a && document.querySelector(a.getAttribute("href"));
		return h ? h.nextElementSibling.textContent : ""; })()`)
	if !strings.Contains(details, "poor overlap") || !strings.Contains(details, "proxy") {
		t.Errorf("the banner's link leads to %q, want the split's overlap warning", details)
	}
	if note := eval[string](t, b, `document.getElementById("panel-ato").textContent`); !strings.Contains(note, "poor overlap") {
		t.Errorf("the ATO figure does not say its overlap is poor: %q", note)
	}
	firstScreen(t, b)
	if errs := b.errors(); len(errs) > 0 {
		t.Errorf("the page logged errors: %q", errs)
	}
}

// BenchmarkDraw loads the page of 1,600 candidates in Chromium and reports
// how long its script takes to draw the four fronts and the table, as
// measured by performance.now() in the page.
func BenchmarkDraw(b *testing.B) {
	br := newBrowser(b)
	_, html := largePage(b, b.TempDir())
	page := filepath.Join(b.TempDir(), "report.html")
	if err := os.WriteFile(page, html, 0o644); err != nil {
		b.Fatal(err)
	}
	var total float64
	for b.Loop() {
		br.open(b, page)
		total += eval[float64](b, br, `window.fpDrawMs`)
	}
	b.ReportMetric(total/float64(b.N), "ms/draw")
	b.ReportMetric(float64(len(html))/(1<<20), "MiB")
	if errs := br.errors(); len(errs) > 0 {
		b.Errorf("the page logged errors: %q", errs)
	}
}
