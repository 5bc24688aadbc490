package report

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/fpareto/fp/pareto"
)

// synthetic returns n candidates scattered above the convex front
// y = 0.2 (1 − t)², x = 0.3 + 0.25 t², as a sweep over λ would give.
func synthetic(r *rand.Rand, name string, n int) Series {
	s := Series{Name: name}
	for range n {
		t := r.Float64()
		s.Points = append(s.Points, pareto.Point{
			X: 0.3 + 0.25*t*t + 0.01*math.Abs(r.NormFloat64()),
			Y: 0.2*(1-t)*(1-t) + 0.006*math.Abs(r.NormFloat64()),
		})
	}
	return s
}

func threeSeries() []Series {
	r := rand.New(rand.NewPCG(1, 2))
	return []Series{synthetic(r, "cheb · ato-penultimate", 300), synthetic(r, "cheb · ato-all", 300), synthetic(r, "adversarial", 100)}
}

// magentaPixels counts the pixels of img close to pure magenta.
func magentaPixels(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 > 220 && g>>8 < 60 && bl>>8 > 220 {
				n++
			}
		}
	}
	return n
}

func TestSaveFrontPNG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "front.png")
	opt := FrontOptions{Title: "ATO against test risk", YLabel: "ATO", Width: 9 * vg.Inch, Height: 3.5 * vg.Inch, DPI: 100}
	if err := SaveFront(path, threeSeries(), opt); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	if got := img.Bounds().Size(); got != (image.Point{X: 900, Y: 350}) {
		t.Errorf("size = %v, want 900×350 (9 in × 3.5 in at 100 dpi)", got)
	}
	// Three dashed staircases, front points and the legend: well over a
	// thousand magenta pixels; the grey candidates add none.
	if n := magentaPixels(img); n < 1000 {
		t.Errorf("magenta pixels = %d, want ≥ 1000 (the front is missing)", n)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("mode of %s = %v (%v), want 0644", path, st.Mode().Perm(), err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*tmp*")); len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

// dashedMagenta matches the SVG paths of the dashed magenta staircase.
var dashedMagenta = regexp.MustCompile(`<path d="([^"]*)" style="fill:none;stroke:#FF00FF;stroke-width:[0-9.]+;stroke-dasharray:5,3"`)

func TestSaveFrontSVGStaircase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "front.svg")
	series := threeSeries()
	if err := SaveFront(path, series, FrontOptions{}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(b)
	for _, want := range []string{"test risk (BCE)", "unfairness", "non-dominated = ", "cheb · ato-all"} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks the text %q", want)
		}
	}
	paths := dashedMagenta.FindAllStringSubmatch(svg, -1)
	if len(paths) < 1+len(series) {
		t.Fatalf("%d dashed magenta paths, want one per panel and one in the legend", len(paths))
	}
	// Each panel's staircase alternates horizontal and vertical segments,
	// moving right and down (vgsvg flips the y axis, so down is dy ≤ 0).
	stairs := 0
	for _, m := range paths {
		pts := svgPoints(t, m[1])
		if len(pts) <= 2 {
			continue // the legend's sample
		}
		stairs++
		for i := 1; i < len(pts); i++ {
			dx, dy := pts[i][0]-pts[i-1][0], pts[i][1]-pts[i-1][1]
			horizontal := i%2 == 1
			if horizontal && !(math.Abs(dy) < 0.01 && dx >= 0) || !horizontal && !(math.Abs(dx) < 0.01 && dy <= 0) {
				t.Fatalf("segment %d of a staircase goes (%.2f, %.2f): want alternately right then down", i, dx, dy)
			}
		}
	}
	if stairs != len(series) {
		t.Errorf("%d staircases, want %d", stairs, len(series))
	}
}

// svgPoints parses a path of the form "Mx,yLx,yLx,y…".
func svgPoints(t *testing.T, d string) [][2]float64 {
	t.Helper()
	var out [][2]float64
	for _, f := range strings.FieldsFunc(d, func(r rune) bool { return r == 'M' || r == 'L' }) {
		xs, ys, ok := strings.Cut(f, ",")
		x, err1 := strconv.ParseFloat(xs, 64)
		y, err2 := strconv.ParseFloat(ys, 64)
		if !ok || err1 != nil || err2 != nil {
			t.Fatalf("path %q: cannot parse %q", d, f)
		}
		out = append(out, [2]float64{x, y})
	}
	return out
}

func TestFrontFormats(t *testing.T) {
	fig, err := FrontFigure(threeSeries()[:1], FrontOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ format, magic string }{
		{"png", "\x89PNG"}, {"svg", "<?xml"}, {"pdf", "%PDF"}, {"PNG", "\x89PNG"},
	} {
		var buf bytes.Buffer
		if err := fig.Render(&buf, tc.format); err != nil {
			t.Fatalf("%s: %v", tc.format, err)
		}
		if !bytes.HasPrefix(buf.Bytes(), []byte(tc.magic)) {
			t.Errorf("%s output starts %q, want %q", tc.format, buf.Bytes()[:min(8, buf.Len())], tc.magic)
		}
	}
	if err := fig.Render(&bytes.Buffer{}, "gif"); err == nil || !strings.Contains(err.Error(), `"gif"`) {
		t.Errorf("gif: err = %v, want an error naming the format", err)
	}
	if err := fig.Save(filepath.Join(t.TempDir(), "front.jpeg")); err == nil || !strings.Contains(err.Error(), ".jpeg") {
		t.Errorf("save .jpeg: err = %v, want an error naming the extension", err)
	}
}

// Degenerate inputs draw without panicking.
func TestFrontDegenerate(t *testing.T) {
	for _, tc := range []struct {
		name string
		pts  []pareto.Point
	}{
		{"one point", []pareto.Point{{X: 0.4, Y: 0.1}}},
		{"all equal", []pareto.Point{{X: 0.4, Y: 0.1}, {X: 0.4, Y: 0.1}, {X: 0.4, Y: 0.1}}},
		{"one dominates", []pareto.Point{{X: 0.3, Y: 0.05}, {X: 0.4, Y: 0.1}, {X: 0.5, Y: 0.2}}},
		{"zeros", []pareto.Point{{X: 0, Y: 0}, {X: 0, Y: 0}}},
		{"huge", []pareto.Point{{X: 1e12, Y: 1e-12}, {X: 2e12, Y: 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, ext := range []string{".png", ".svg"} {
				path := filepath.Join(dir, "f"+ext)
				if err := SaveFront(path, []Series{{Name: tc.name, Points: tc.pts}}, FrontOptions{}); err != nil {
					t.Fatal(err)
				}
				if st, err := os.Stat(path); err != nil || st.Size() == 0 {
					t.Fatalf("%s not written: %v", path, err)
				}
			}
		})
	}
}

func TestFrontErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		series []Series
		want   string
	}{
		{"no series", nil, "no series"},
		{"empty series", []Series{{Name: "cheb"}}, `series "cheb" has no points`},
		{"NaN", []Series{{Name: "cheb", Points: []pareto.Point{{X: 0.3, Y: 0.1}, {X: math.NaN(), Y: 0.1}}}}, `series "cheb" point 1`},
		{"Inf", []Series{{Name: "lin", Points: []pareto.Point{{X: 0.3, Y: math.Inf(1)}}}}, `series "lin" point 0`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f.png")
			err := SaveFront(path, tc.series, FrontOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("err = %v, want one naming %s and containing %q", err, path, tc.want)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("a figure was written despite the error")
			}
		})
	}
}

func TestStaircase(t *testing.T) {
	p := func(x, y float64) pareto.Point { return pareto.Point{X: x, Y: y} }
	for _, tc := range []struct {
		name  string
		front []pareto.Point
		want  []pareto.Point
	}{
		{"empty", nil, nil},
		{"one", []pareto.Point{p(1, 2)}, []pareto.Point{p(1, 2)}},
		{"three", []pareto.Point{p(1, 3), p(2, 2), p(4, 0)}, []pareto.Point{p(1, 3), p(2, 3), p(2, 2), p(4, 2), p(4, 0)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := staircase(tc.front)
			if len(got) != len(tc.want) {
				t.Fatalf("staircase = %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("staircase = %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestDistinctSorted(t *testing.T) {
	pts := []pareto.Point{{X: 2, Y: 1}, {X: 1, Y: 3}, {X: 2, Y: 1}, {X: 9, Y: 9}, {X: 3, Y: 0}}
	got := distinctSorted(pts, []int{0, 1, 2, 4})
	want := []pareto.Point{{X: 1, Y: 3}, {X: 2, Y: 1}, {X: 3, Y: 0}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

// The panel title counts distinct non-dominated points (docs/method.md §8).
func TestFrontTitleCounts(t *testing.T) {
	pts := []pareto.Point{{X: 1, Y: 3}, {X: 2, Y: 1}, {X: 2, Y: 1}, {X: 3, Y: 3}, {X: 3, Y: 0}}
	fig, err := FrontFigure([]Series{{Name: "cheb", Points: pts}}, FrontOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fig.panels[0][0].Title.Text, "cheb\nn = 5, non-dominated = 3"; got != want {
		t.Errorf("title = %q, want %q", got, want)
	}
}

func TestFrontSharedAxes(t *testing.T) {
	s := []Series{
		{Name: "a", Points: []pareto.Point{{X: 0.3, Y: 0.1}, {X: 0.5, Y: 0}}},
		{Name: "b", Points: []pareto.Point{{X: 0.4, Y: 0.3}}},
	}
	fig, err := FrontFigure(s, FrontOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a, b := fig.panels[0][0], fig.panels[0][1]
	if a.X.Min != b.X.Min || a.X.Max != b.X.Max || a.Y.Min != b.Y.Min || a.Y.Max != b.Y.Max {
		t.Errorf("shared axes differ: x [%v, %v] and [%v, %v]", a.X.Min, a.X.Max, b.X.Min, b.X.Max)
	}
	// The union [0.3, 0.5] × [0, 0.3], with room beyond the largest values
	// and below the smallest but not below 0.
	if a.X.Min != 0.3-0.2*margin || a.X.Max != 0.5+0.2*margin || a.Y.Min != 0 || a.Y.Max != 0.3+0.3*margin {
		t.Errorf("shared axes x [%v, %v], y [%v, %v]; want [%v, %v] × [0, %v]", a.X.Min, a.X.Max, a.Y.Min, a.Y.Max, 0.3-0.2*margin, 0.5+0.2*margin, 0.3+0.3*margin)
	}
	fig, err = FrontFigure(s, FrontOptions{FreeAxes: true})
	if err != nil {
		t.Fatal(err)
	}
	if p := fig.panels[0][1]; !(p.X.Min < 0.4 && p.X.Max > 0.4 && p.X.Max < 0.45) {
		t.Errorf("free axes: panel b x [%v, %v], want its own range around 0.4", p.X.Min, p.X.Max)
	}
}

// Every point, the largest included, lies inside its axes with room to
// spare, on linear and log axes alike; the log axis starts at the power
// of ten below the smallest value kept, not 10⁻⁵ of the largest.
func TestFrontAxesFitData(t *testing.T) {
	pts := []pareto.Point{{X: 0.617, Y: 0.0022}, {X: 0.63, Y: 0.0087}, {X: 0.7197, Y: 0.0011}, {X: 0.7368, Y: 0.0014}}
	for _, logY := range []bool{false, true} {
		fig, err := FrontFigure([]Series{{Name: "cheb", Points: pts}}, FrontOptions{LogY: logY})
		if err != nil {
			t.Fatal(err)
		}
		p := fig.panels[0][0]
		xSpan, ySpan := 0.7368-0.617, 0.0087-0.0011
		if want := 0.7368 + margin*xSpan; math.Abs(p.X.Max-want) > 1e-12 {
			t.Errorf("log %v: x max %v, want %v (the last point clear of the end)", logY, p.X.Max, want)
		}
		if p.X.Min > 0.617-margin*xSpan {
			t.Errorf("log %v: x min %v leaves the first point on the axis", logY, p.X.Min)
		}
		if logY {
			if p.Y.Min != 1e-3 {
				t.Errorf("log axis floor %g, want 1e-3 (the decade of the smallest value)", p.Y.Min)
			}
			if want := 0.0087 * math.Pow(0.0087/1e-3, margin); math.Abs(p.Y.Max-want) > 1e-15 {
				t.Errorf("log axis top %g, want %g", p.Y.Max, want)
			}
			continue
		}
		if want := 0.0087 + margin*ySpan; math.Abs(p.Y.Max-want) > 1e-15 {
			t.Errorf("y max %v, want %v", p.Y.Max, want)
		}
		if p.Y.Min > 0.0011-margin*ySpan || p.Y.Min < 0 {
			t.Errorf("y min %v: want below the smallest value and not negative", p.Y.Min)
		}
	}
}

// An axis starts at the label below its smallest value when that leaves
// room, else just below the value: never most of a step lower.
func TestFitLinear(t *testing.T) {
	for _, tc := range []struct{ min, max, wantMin float64 }{
		{0.6009, 0.7275, 0.6009 - margin*(0.7275-0.6009)}, // the label 0.600 is too close
		{0.617, 0.7368, 0.6},                              // the label 0.600 leaves room
		{0, 0.03, 0},                                      // not below 0
	} {
		a := plot.Axis{Min: tc.min, Max: tc.max}
		fitLinear(&a, 6)
		if math.Abs(a.Min-tc.wantMin) > 1e-12 || a.Max != tc.max+margin*(tc.max-tc.min) {
			t.Errorf("fitLinear [%v, %v] = [%v, %v], want [%v, %v]", tc.min, tc.max, a.Min, a.Max, tc.wantMin, tc.max+margin*(tc.max-tc.min))
		}
	}
}

func TestLogFloor(t *testing.T) {
	for _, tc := range []struct {
		name string
		ys   []float64
		want float64
	}{
		{"decade of the smallest", []float64{0.0087, 0.0011, 0.004}, 1e-3},
		{"smallest on a power of ten, no zeros", []float64{0.01, 0.003}, 1e-3},
		{"zeros below a power of ten", []float64{0.01, 1e-3, 0}, 1e-4},
		{"zeros below another value", []float64{0.01, 2e-3, 0}, 1e-3},
		{"no lower than 1e-5 of the largest", []float64{0.03, 1e-9, 0}, 1e-7},
	} {
		var pts []pareto.Point
		for _, y := range tc.ys {
			pts = append(pts, pareto.Point{X: 1, Y: y})
		}
		got, ok := logFloor([][]pareto.Point{pts})
		if !ok || math.Abs(got-tc.want) > tc.want*1e-9 {
			t.Errorf("%s: logFloor(%v) = %g, %v; want %g", tc.name, tc.ys, got, ok, tc.want)
		}
	}
	if _, ok := logFloor([][]pareto.Point{{{X: 1, Y: 0}}}); ok {
		t.Error("zeros only: want no floor")
	}
}

func TestGrid(t *testing.T) {
	for _, tc := range []struct{ n, cols, rows, gotCols int }{
		{1, 0, 1, 1}, {3, 0, 1, 3}, {4, 0, 2, 2}, {5, 0, 2, 3}, {9, 0, 3, 3}, {10, 0, 3, 4},
		{6, 1, 6, 1}, {2, 5, 1, 2}, {7, 3, 3, 3},
	} {
		r, c := grid(tc.n, tc.cols)
		if r != tc.rows || c != tc.gotCols {
			t.Errorf("grid(%d, %d) = %d×%d, want %d×%d", tc.n, tc.cols, r, c, tc.rows, tc.gotCols)
		}
	}
}

func TestCandidateColor(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want uint8
	}{{1, 153}, {100, 153}, {3000, 51}, {100000, 51}} {
		if got := candidateColor(tc.n).A; got != tc.want {
			t.Errorf("candidateColor(%d).A = %d, want %d", tc.n, got, tc.want)
		}
	}
	if a, b := candidateColor(300).A, candidateColor(1500).A; !(a > b && b > 51 && a < 153) {
		t.Errorf("opacity not decreasing between the ends: 300 → %d, 1500 → %d", a, b)
	}
}

func TestZeroFigure(t *testing.T) {
	var f Figure
	if err := f.Render(&bytes.Buffer{}, "png"); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("zero figure: err = %v", err)
	}
}

// Degenerate candidates get markers and legend entries of their own; a log
// axis starts at a power of ten that holds the zeros.
func TestFrontFlagsAndLog(t *testing.T) {
	s := []Series{{Name: "cheb",
		Points: []pareto.Point{{X: 0.6, Y: 0.03}, {X: 0.62, Y: 0.001}, {X: 0.69, Y: 0}, {X: 0.7, Y: 1e-9}, {X: 0.71, Y: 1e-9}},
		Flags:  []Flag{0, 0, Collapsed | SingleClass | NoBetter, SingleClass, NoBetter},
	}}
	fig, err := FrontFigure(s, FrontOptions{LogY: true})
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, e := range fig.legend {
		labels = append(labels, e.label)
	}
	if got := strings.Join(labels, ", "); got != "candidate, non-dominated, Pareto front, constant predictor, one class predicted, no better than constant" {
		t.Errorf("legend %q", got)
	}
	// Each point has one marker, its first flag's.
	for _, e := range fig.legend[3:] {
		if n := len(e.thumb.(*plotter.Scatter).XYs); n != 1 {
			t.Errorf("%s: %d points marked, want 1", e.label, n)
		}
	}
	p := fig.panels[0][0]
	if p.Y.Min != 1e-7 { // 10⁻⁵ of 0.03, down to a power of ten
		t.Errorf("log axis floor %g, want 1e-7", p.Y.Min)
	}
	path := filepath.Join(t.TempDir(), "f.png")
	if err := fig.Save(path); err != nil {
		t.Fatal(err)
	}
	if _, err := FrontFigure([]Series{{Name: "zero", Points: []pareto.Point{{X: 1, Y: 0}}}}, FrontOptions{LogY: true}); err == nil {
		t.Error("a log axis over zeros only was accepted")
	}
	if _, err := FrontFigure([]Series{{Name: "x", Points: s[0].Points, Flags: []Flag{0}}}, FrontOptions{}); err == nil {
		t.Error("flags of the wrong length accepted")
	}
}

// Panel titles count points closer than the tolerance once.
func TestNonDominatedTolerance(t *testing.T) {
	s := []Series{{Name: "a", Points: []pareto.Point{{X: 0, Y: 1}, {X: 1, Y: 0}, {X: 1 - 1e-6, Y: 1e-6}}}}
	if got := NonDominated(s, 0); got[0] != 2 {
		t.Errorf("NonDominated = %v, want 2", got)
	}
	if got := NonDominated(s, 1e-7); got[0] != 3 {
		t.Errorf("NonDominated with tol 1e-7 = %v, want 3", got)
	}
}

// A title wider than a one-panel figure wraps (at ": " and before " (" where
// it can) and every line of it lies inside the figure.
func TestTitleFitsFigure(t *testing.T) {
	title := "compas (race): ATO against test risk (constant predictors left out)"
	fig, err := FrontFigure([]Series{{Name: "cheb/ato-penultimate", Points: []pareto.Point{{X: 0.6, Y: 0.01}, {X: 0.7, Y: 0.001}}}}, FrontOptions{Title: title})
	if err != nil {
		t.Fatal(err)
	}
	w, h := fig.Size()
	sty := textStyle(titleSize)
	if sty.Width(title) <= w {
		t.Fatalf("the title (%v wide) fits the figure (%v): the test needs a longer one", sty.Width(title), w)
	}
	var rec recorder.Canvas
	fig.Draw(draw.Canvas{Canvas: &rec, Rectangle: vg.Rectangle{Max: vg.Point{X: w, Y: h}}})
	var lines []string
	for _, a := range rec.Actions {
		fs, ok := a.(*recorder.FillString)
		if !ok || fs.Size != titleSize {
			continue
		}
		lines = append(lines, fs.String)
		if x0, x1 := fs.Point.X, fs.Point.X+sty.Width(fs.String); x0 < 0 || x1 > w {
			t.Errorf("title line %q spans x %v to %v, outside the figure's 0 to %v", fs.String, x0, x1, w)
		}
	}
	if want := []string{"compas (race): ATO against test risk", "(constant predictors left out)"}; !slices.Equal(lines, want) {
		t.Errorf("title lines %q, want %q", lines, want)
	}
}

func TestFitLines(t *testing.T) {
	sty := textStyle(titleSize)
	for _, tc := range []struct {
		text  string
		width vg.Length
		want  []string
	}{
		{"short", 300, []string{"short"}},
		{"a: b (c)", 1000, []string{"a: b (c)"}},
		{"one two three four", sty.Width("three four"), []string{"one two", "three four"}},
		{"first line\nsecond", 1000, []string{"first line", "second"}},
		{"incomprehensibilities", sty.Width("incompre…"), []string{"incompre…"}},
	} {
		got := fitLines(sty, tc.text, tc.width)
		if !slices.Equal(got, tc.want) {
			t.Errorf("fitLines(%q, %v) = %q, want %q", tc.text, tc.width, got, tc.want)
		}
		for _, l := range got {
			if sty.Width(l) > tc.width {
				t.Errorf("fitLines(%q): line %q is %v wide, over %v", tc.text, l, sty.Width(l), tc.width)
			}
		}
	}
}
