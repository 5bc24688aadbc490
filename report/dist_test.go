package report

import (
	"fmt"
	"image"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// syntheticDist returns n predictions whose groups separate less as λ grows.
func syntheticDist(r *rand.Rand, lambda float64, n int) Dist {
	d := Dist{Title: fmt.Sprintf("λ = %g", lambda), ATO: 0.1 * (1 - lambda), EO: 0.02, EOpp: 0.01, DP: 0.03}
	for range n {
		y, a := float64(r.IntN(2)), float64(r.IntN(2))
		z := -1.5 + 3*y + (1-lambda)*a + r.NormFloat64()
		d.P = append(d.P, 1/(1+math.Exp(-z)))
		d.Y = append(d.Y, y)
		d.A = append(d.A, a)
	}
	return d
}

// countColor counts pixels within 40 of c in every channel.
func countColor(img image.Image, c [3]int) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if abs(int(r>>8)-c[0]) < 40 && abs(int(g>>8)-c[1]) < 40 && abs(int(bl>>8)-c[2]) < 40 {
				n++
			}
		}
	}
	return n
}

func abs(v int) int { return max(v, -v) }

func TestSaveDistPNG(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var panels []Dist
	for _, l := range []float64{0, 0.01, 0.1, 1} {
		panels = append(panels, syntheticDist(r, l, 2000))
	}
	path := filepath.Join(t.TempDir(), "dist.png")
	if err := SaveDist(path, panels, DistOptions{Title: "split 0", Width: 8 * vg.Inch, Height: 6 * vg.Inch, DPI: 80}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds().Size(); got != (image.Point{X: 640, Y: 480}) {
		t.Errorf("size = %v, want 640×480", got)
	}
	// Every group's outline colour is drawn.
	for _, g := range groups {
		c := [3]int{int(g.color.R), int(g.color.G), int(g.color.B)}
		if n := countColor(img, c); n < 200 {
			t.Errorf("%s: %d pixels of its colour, want ≥ 200", g.label, n)
		}
	}
}

func TestDistSVGHeading(t *testing.T) {
	d := Dist{Title: "λ = 0.1", P: []float64{0, 0.5, 1, 0.2}, Y: []float64{0, 1, 1, 0}, A: []float64{0, 0, 1, 1}, ATO: 0.0123, EO: 0.00456, EOpp: 0.5, DP: 1e-5}
	path := filepath.Join(t.TempDir(), "dist.svg")
	if err := SaveDist(path, []Dist{d}, DistOptions{}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"λ = 0.1", "ATO = 0.0123, EO = 0.00456, EOpp = 0.5, DP = 1e-05", "y=0, a=0", "y=1, a=1", "predicted probability", "density"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
}

func TestDistErrors(t *testing.T) {
	ok := func() Dist {
		return Dist{Title: "λ = 0", P: []float64{0.1, 0.9}, Y: []float64{0, 1}, A: []float64{1, 0}}
	}
	for _, tc := range []struct {
		name   string
		mutate func(*Dist)
		want   string
	}{
		{"no predictions", func(d *Dist) { d.P, d.Y, d.A = nil, nil, nil }, "no predictions"},
		{"lengths", func(d *Dist) { d.Y = d.Y[:1] }, "2 predictions but 1 labels and 2 attributes"},
		{"p > 1", func(d *Dist) { d.P[1] = 1.5 }, "prediction 1 = 1.5"},
		{"p NaN", func(d *Dist) { d.P[0] = math.NaN() }, "prediction 0 = NaN"},
		{"label", func(d *Dist) { d.Y[0] = 2 }, "label 0 = 2: want 0 or 1"},
		{"attribute", func(d *Dist) { d.A[1] = -1 }, "attribute 1 = -1: want 0 or 1"},
		{"metric", func(d *Dist) { d.EO = math.Inf(1) }, "EO = +Inf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := ok()
			tc.mutate(&d)
			_, err := Distributions([]Dist{ok(), d}, DistOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `panel 1 ("λ = 0")`) {
				t.Fatalf("err = %v, want one naming panel 1 and containing %q", err, tc.want)
			}
		})
	}
	if _, err := Distributions(nil, DistOptions{}); err == nil || !strings.Contains(err.Error(), "no panels") {
		t.Errorf("no panels: err = %v", err)
	}
}

func TestHistogram(t *testing.T) {
	d := &Dist{
		P: []float64{0, 0.05, 0.1, 0.99, 1, 0.5, 0.5},
		Y: []float64{0, 0, 0, 0, 0, 1, 1},
		A: []float64{0, 0, 0, 0, 0, 0, 1},
	}
	const bins = 10
	h := histogram(d, 0, 0, bins)
	// Five examples, width 0.1: density = count / (5 · 0.1) = 2 · count.
	want := []float64{4, 2, 0, 0, 0, 0, 0, 0, 0, 4} // 0 and 0.05; 0.1; 0.99 and 1 (closed last bin)
	for i := range want {
		if math.Abs(h[i]-want[i]) > 1e-12 {
			t.Fatalf("histogram = %v, want %v", h, want)
		}
	}
	var area float64
	for _, v := range h {
		area += v / bins
	}
	if math.Abs(area-1) > 1e-12 {
		t.Errorf("area = %v, want 1", area)
	}
	for _, v := range histogram(d, 1, 0, bins) {
		if v != 0 && v != 10 {
			t.Errorf("one example: bin density %v, want 0 or 10", v)
		}
	}
	// An empty group (y=0, a=1) is all zeros, not NaN.
	for _, v := range histogram(d, 0, 1, bins) {
		if v != 0 {
			t.Fatalf("empty group: %v", v)
		}
	}
}

func TestStepOutline(t *testing.T) {
	got := stepOutline([]float64{2, 3})
	want := [][2]float64{{0, 0}, {0, 2}, {0.5, 2}, {0.5, 3}, {1, 3}, {1, 0}}
	if len(got) != len(want) {
		t.Fatalf("outline = %v, want %v", got, want)
	}
	for i, w := range want {
		if got[i].X != w[0] || got[i].Y != w[1] {
			t.Fatalf("outline = %v, want %v", got, want)
		}
	}
}

// With Levels the figure draws a histogram per label and named group, and
// refuses a group code outside the levels or panels of other groups.
func TestDistLevels(t *testing.T) {
	levels := []string{"African-American", "Caucasian", "Hispanic"}
	d := Dist{Title: "λ = 0", P: []float64{0.1, 0.9, 0.5}, Y: []float64{0, 1, 1}, A: []float64{0, 1, 2}, Levels: levels}
	fig, err := Distributions([]Dist{d}, DistOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, e := range fig.legend {
		labels = append(labels, e.label)
	}
	want := "y=0, African-American|y=0, Caucasian|y=0, Hispanic|y=1, African-American|y=1, Caucasian|y=1, Hispanic"
	if got := strings.Join(labels, "|"); got != want {
		t.Errorf("legend %q, want %q", got, want)
	}
	bad := d
	bad.A = []float64{0, 3, 1}
	if _, err := Distributions([]Dist{bad}, DistOptions{}); err == nil || !strings.Contains(err.Error(), "group 1 = 3: want a group 0 … 2") {
		t.Errorf("group out of range: err = %v", err)
	}
	other := d
	other.Levels = nil
	if _, err := Distributions([]Dist{d, other}, DistOptions{}); err == nil || !strings.Contains(err.Error(), "the first panel's are") {
		t.Errorf("mixed groups: err = %v", err)
	}
}
