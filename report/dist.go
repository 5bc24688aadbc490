package report

import (
	"errors"
	"fmt"
	"image/color"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Dist is one panel of a distribution figure: a candidate's predicted
// probabilities P on the test split with the labels Y and sensitive
// attributes A (each 0 or 1), and the metrics to print in its heading.
//
// With Levels (R > 2 groups), A holds each example's group, an index into
// Levels, and the panel draws one histogram per label and group, named.
// The panels of one figure share their Levels.
type Dist struct {
	Title             string // e.g. "λ = 0.01"
	P, Y, A           []float64
	ATO, EO, EOpp, DP float64
	Levels            []string
}

// DistOptions set the look of a distribution figure. Zero values take the
// defaults noted.
type DistOptions struct {
	Title string // above all panels; none if empty
	Bins  int    // histogram bins on [0, 1]; default 30
	// Width and Height of the whole figure; default 4.2 in × 3.3 in per panel.
	Width, Height vg.Length
	Cols          int // panels per row; default 2 for four panels (see FrontOptions.Cols)
	DPI           int // PNG resolution; default DefaultDPI
}

// group is one of the four (y, a) cells and its look.
type group struct {
	y, a  float64
	label string
	color color.NRGBA
	dash  []vg.Length
}

// groups are drawn in this order. Colours are from the Okabe–Ito palette
// (distinguishable with colour-blindness): blues for y = 0, oranges for
// y = 1; a = 1 is also dashed so the figure survives grey-scale printing.
var groups = []group{
	{0, 0, "y=0, a=0", color.NRGBA{R: 0, G: 114, B: 178, A: 255}, nil},
	{0, 1, "y=0, a=1", color.NRGBA{R: 86, G: 180, B: 233, A: 255}, []vg.Length{4 * pt, 2 * pt}},
	{1, 0, "y=1, a=0", color.NRGBA{R: 213, G: 94, B: 0, A: 255}, nil},
	{1, 1, "y=1, a=1", color.NRGBA{R: 230, G: 159, B: 0, A: 255}, []vg.Length{4 * pt, 2 * pt}},
}

// levelPalette colours the groups of a figure of R > 2 groups: the
// Okabe–Ito palette, repeated (with a longer dash) beyond eight groups.
var levelPalette = []color.NRGBA{
	{R: 0, G: 114, B: 178, A: 255}, {R: 213, G: 94, B: 0, A: 255}, {R: 0, G: 158, B: 115, A: 255},
	{R: 204, G: 121, B: 167, A: 255}, {R: 230, G: 159, B: 0, A: 255}, {R: 86, G: 180, B: 233, A: 255},
	{R: 0, G: 0, B: 0, A: 255}, {R: 240, G: 228, B: 66, A: 255},
}

// levelCells are the (y, group) cells of a figure of the named groups: a
// colour per group, y = 1 dashed.
func levelCells(levels []string) []group {
	var out []group
	for y := range 2 {
		for r, l := range levels {
			g := group{y: float64(y), a: float64(r), label: fmt.Sprintf("y=%d, %s", y, l),
				color: levelPalette[r%len(levelPalette)]}
			if y == 1 {
				g.dash = []vg.Length{4 * pt, 2 * pt}
			}
			if r >= len(levelPalette) {
				g.dash = []vg.Length{1 * pt, 2 * pt}
			}
			out = append(out, g)
		}
	}
	return out
}

// Distributions builds the distribution figure: for each panel, the
// densities of the predicted probability within the four groups (y, a) as
// overlaid step histograms on [0, 1], titled with the panel's title and its
// ATO, EO, EOpp and DP. A group without examples draws nothing.
//
// It returns an error for no panels, a panel without examples, slices of
// different lengths, a probability outside [0, 1] or a label or attribute
// other than 0 and 1.
func Distributions(panels []Dist, opt DistOptions) (*Figure, error) {
	if len(panels) == 0 {
		return nil, errors.New("distribution figure: no panels to draw")
	}
	bins := opt.Bins
	if bins <= 0 {
		bins = 30
	}
	cells := groups
	if lv := panels[0].Levels; len(lv) > 0 {
		cells = levelCells(lv)
	}
	plots := make([]*plot.Plot, len(panels))
	var lines []*plotter.Line
	for k := range panels {
		d := &panels[k]
		if !slices.Equal(d.Levels, panels[0].Levels) {
			return nil, fmt.Errorf("distribution figure: panel %d (%q): groups %q, the first panel's are %q", k, d.Title, d.Levels, panels[0].Levels)
		}
		if err := d.validate(); err != nil {
			return nil, fmt.Errorf("distribution figure: panel %d (%q): %w", k, d.Title, err)
		}
		title := fmt.Sprintf("%s\nATO = %.3g, EO = %.3g, EOpp = %.3g, DP = %.3g", d.Title, d.ATO, d.EO, d.EOpp, d.DP)
		p := newPanel(title, "predicted probability", "density")
		p.Add(gridLines())
		lines = lines[:0]
		for _, g := range cells {
			l, err := plotter.NewLine(stepOutline(histogram(d, g.y, g.a, bins)))
			if err != nil {
				return nil, fmt.Errorf("distribution figure: panel %d (%q): %w", k, d.Title, err)
			}
			l.LineStyle = draw.LineStyle{Color: g.color, Width: 1.5 * pt, Dashes: g.dash}
			fill := g.color
			fill.A = 22
			l.FillColor = fill
			lines = append(lines, l)
			p.Add(l)
		}
		p.X.Min, p.X.Max = 0, 1
		p.Y.Min = 0
		plots[k] = p
	}
	cols := opt.Cols
	if cols <= 0 && len(panels) == 4 {
		cols = 2
	}
	fig := &Figure{title: opt.Title, panels: layout(plots, cols), dpi: opt.DPI}
	for i, g := range cells {
		fig.legend = append(fig.legend, legendEntry{g.label, lines[i]})
	}
	fig.width, fig.height = figureSize(fig.panels, opt.Width, opt.Height, 4.2*vg.Inch, 3.3*vg.Inch)
	return fig, nil
}

// SaveDist draws the distribution figure and writes it to path (.png, .svg
// or .pdf), replacing the file atomically.
func SaveDist(path string, panels []Dist, opt DistOptions) error {
	fig, err := Distributions(panels, opt)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return fig.Save(path)
}

func (d *Dist) validate() error {
	n := len(d.P)
	if n == 0 {
		return errors.New("no predictions")
	}
	if len(d.Y) != n || len(d.A) != n {
		return fmt.Errorf("%d predictions but %d labels and %d attributes", n, len(d.Y), len(d.A))
	}
	for i := range n {
		if !(d.P[i] >= 0 && d.P[i] <= 1) {
			return fmt.Errorf("prediction %d = %v: want a probability in [0, 1]", i, d.P[i])
		}
		if d.Y[i] != 0 && d.Y[i] != 1 {
			return fmt.Errorf("label %d = %v: want 0 or 1", i, d.Y[i])
		}
		if r := len(d.Levels); r > 0 {
			if !(d.A[i] >= 0 && d.A[i] < float64(r)) || d.A[i] != float64(int(d.A[i])) {
				return fmt.Errorf("group %d = %v: want a group 0 … %d", i, d.A[i], r-1)
			}
		} else if d.A[i] != 0 && d.A[i] != 1 {
			return fmt.Errorf("attribute %d = %v: want 0 or 1", i, d.A[i])
		}
	}
	for _, m := range []struct {
		name string
		v    float64
	}{{"ATO", d.ATO}, {"EO", d.EO}, {"EOpp", d.EOpp}, {"DP", d.DP}} {
		if !finite(m.v) {
			return fmt.Errorf("%s = %v: want a finite number", m.name, m.v)
		}
	}
	return nil
}

// histogram returns the density of P on `bins` equal bins of [0, 1] among
// the examples with label y and attribute a (all zero if there are none).
// The last bin is closed so that p = 1 is counted.
func histogram(d *Dist, y, a float64, bins int) []float64 {
	h := make([]float64, bins)
	n := 0
	for i, p := range d.P {
		if d.Y[i] != y || d.A[i] != a {
			continue
		}
		b := min(int(p*float64(bins)), bins-1)
		h[b]++
		n++
	}
	if n > 0 {
		scale := float64(bins) / float64(n) // 1 / (n · bin width)
		for i := range h {
			h[i] *= scale
		}
	}
	return h
}

// stepOutline returns the outline of a histogram on [0, 1]: up from 0 at
// the left edge, across each bin at its height, and down to 0 at the right.
func stepOutline(h []float64) plotter.XYs {
	w := 1 / float64(len(h))
	out := make(plotter.XYs, 0, 2*len(h)+2)
	out = append(out, plotter.XY{X: 0, Y: 0})
	for i, v := range h {
		out = append(out, plotter.XY{X: float64(i) * w, Y: v}, plotter.XY{X: float64(i+1) * w, Y: v})
	}
	out = append(out, plotter.XY{X: 1, Y: 0})
	return out
}
