package report

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/fpareto/fp/pareto"
)

// Series is one panel of a front figure: a named set of candidates.
type Series struct {
	Name   string
	Points []pareto.Point // X: test risk, Y: unfairness; both minimised
	// Flags, when not nil, marks each point (same index) that is a
	// degenerate candidate: such points get a marker of their own.
	Flags []Flag
	// Decide, when not nil, holds the points (same index) on which the
	// non-dominated candidates are decided, e.g. their metrics on the
	// selection rows; they are drawn at Points. Nil decides on Points.
	Decide []pareto.Point
}

// front returns the indices of the series' non-dominated points, decided
// on Decide when set.
func (s Series) front() []int {
	if s.Decide != nil {
		return pareto.Front(s.Decide)
	}
	return pareto.Front(s.Points)
}

// Flag marks a degenerate candidate.
type Flag uint8

const (
	// Collapsed marks a constant predictor.
	Collapsed Flag = 1 << iota
	// SingleClass marks a candidate that predicts one class for every row.
	SingleClass
	// NoBetter marks a candidate whose test risk is no better than the
	// constant predictor's at the training base rate.
	NoBetter
)

// flagOrder ranks the flags: a point is drawn with the marker of the first
// it carries.
var flagOrder = []Flag{Collapsed, SingleClass, NoBetter}

// top is the first flag of fl in flagOrder (0 for none).
func (fl Flag) top() Flag {
	for _, f := range flagOrder {
		if fl&f != 0 {
			return f
		}
	}
	return 0
}

// FrontOptions set the labels and size of a front figure. Zero values take
// the defaults noted.
type FrontOptions struct {
	Title string // above all panels; none if empty
	// Note is a line under the title in a warning colour (e.g. that the
	// ATO values are unreliable); none if empty.
	Note   string
	XLabel string // default "test risk (BCE)"
	YLabel string // default "unfairness"
	// Width and Height of the whole figure; default 4 in × 3.3 in per panel.
	Width, Height vg.Length
	// Cols is the number of panels per row; default: all in one row for up
	// to three panels, else a near-square grid.
	Cols int
	// FreeAxes gives each panel its own axis ranges. By default all panels
	// share one range so that methods can be compared by eye.
	FreeAxes bool
	// LogY draws the unfairness axis on a log scale. Its floor is the power
	// of ten at or below the smallest positive value (a decade lower when
	// that value is a power of ten and zeros are drawn too), but no lower
	// than 10⁻⁵ of the largest value; points at or below it (zero
	// included) are drawn on it, and its label reads "≤ floor".
	LogY bool
	// Tolerance is ε for counting distinct non-dominated points in panel
	// titles (pareto.DefaultTolerance if 0); the axes are normalised over
	// every panel's points.
	Tolerance float64
	DPI       int // PNG resolution; default DefaultDPI
}

// The front is drawn in magenta, as in the paper.
var frontColor = color.NRGBA{R: 255, G: 0, B: 255, A: 255}

// candidateColor is the translucent grey of n candidates: more transparent
// the more there are, so that dense clouds show their density instead of
// a solid blot and sparse ones stay visible (opacity 0.6 up to 100 points,
// 0.2 from 3000, log-linear between).
func candidateColor(n int) color.NRGBA {
	const lo, hi = 100, 3000
	f := (math.Log(float64(n)) - math.Log(lo)) / (math.Log(hi) - math.Log(lo))
	f = math.Min(1, math.Max(0, f))
	return color.NRGBA{R: 90, G: 90, B: 90, A: uint8(math.Round(153 - f*(153-51)))}
}

// FrontFigure builds the front figure: for each series one panel with
// every candidate as a small translucent point, the non-dominated candidates
// highlighted and joined by a dashed magenta staircase (the boundary of the
// region they dominate). Each panel's title gives the series name, its
// number of candidates n and of distinct non-dominated points.
//
// It returns an error for no series, a series without points, or a point
// that is not finite.
func FrontFigure(panels []Series, opt FrontOptions) (*Figure, error) {
	if len(panels) == 0 {
		return nil, errors.New("front figure: no series to draw")
	}
	for _, s := range panels {
		if len(s.Points) == 0 {
			return nil, fmt.Errorf("front figure: series %q has no points", s.Name)
		}
		for i, p := range s.Points {
			if !finite(p.X) || !finite(p.Y) {
				return nil, fmt.Errorf("front figure: series %q point %d = (%v, %v): want finite risk and unfairness", s.Name, i, p.X, p.Y)
			}
		}
	}
	if opt.XLabel == "" {
		opt.XLabel = "test risk (BCE)"
	}
	if opt.YLabel == "" {
		opt.YLabel = "unfairness"
	}
	for _, s := range panels {
		if s.Flags != nil && len(s.Flags) != len(s.Points) {
			return nil, fmt.Errorf("front figure: series %q has %d flags for %d points", s.Name, len(s.Flags), len(s.Points))
		}
		if s.Decide != nil && len(s.Decide) != len(s.Points) {
			return nil, fmt.Errorf("front figure: series %q has %d deciding points for %d points", s.Name, len(s.Decide), len(s.Points))
		}
	}
	var sets, shown [][]pareto.Point // deciding points (for distinct counts), points drawn
	for _, s := range panels {
		sets = append(sets, s.distinctBy())
		shown = append(shown, s.Points)
	}
	env := panelEnv{norm: pareto.NewNormalizer(sets...), tol: opt.Tolerance}
	if env.tol == 0 {
		env.tol = pareto.DefaultTolerance
	}
	if opt.LogY {
		floor, ok := logFloor(shown)
		if !ok {
			return nil, errors.New("front figure: a log scale needs some positive unfairness, and every value is 0")
		}
		env.floor = floor
	}
	plots := make([]*plot.Plot, len(panels))
	var all, front *plotter.Scatter
	var stairs *plotter.Line
	marks := map[Flag]*plotter.Scatter{}
	for k, s := range panels {
		var err error
		var m map[Flag]*plotter.Scatter
		plots[k], all, front, stairs, m, err = frontPanel(s, opt, env)
		if err != nil {
			return nil, err
		}
		for f, sc := range m {
			marks[f] = sc
		}
	}
	if !opt.FreeAxes {
		shareAxes(plots)
	}
	for _, p := range plots {
		fitLinear(&p.X, 6)
		if opt.LogY {
			p.Y.Min = env.floor
			p.Y.Max = padLog(env.floor, p.Y.Max)
		} else {
			fitLinear(&p.Y, 5)
		}
	}
	nd, pf := "non-dominated", "Pareto front"
	if panels[0].Decide != nil {
		// Chosen on other rows than those drawn: the staircase joins the
		// chosen candidates, which need not dominate the rest here.
		nd, pf = "non-dominated on selection rows", "chosen front"
	}
	fig := &Figure{
		title:  opt.Title,
		note:   opt.Note,
		panels: layout(plots, opt.Cols),
		dpi:    opt.DPI,
		legend: []legendEntry{
			{"candidate", all},
			{nd, front},
			{pf, stairs},
		},
	}
	if m := marks[Collapsed]; m != nil {
		fig.legend = append(fig.legend, legendEntry{"constant predictor", m})
	}
	if m := marks[SingleClass]; m != nil {
		fig.legend = append(fig.legend, legendEntry{"one class predicted", m})
	}
	if m := marks[NoBetter]; m != nil {
		fig.legend = append(fig.legend, legendEntry{"no better than constant", m})
	}
	fig.width, fig.height = figureSize(fig.panels, opt.Width, opt.Height, 4*vg.Inch, 3.3*vg.Inch)
	if opt.Note != "" && opt.Height <= 0 {
		fig.height += 0.2 * vg.Inch // the note's line
	}
	return fig, nil
}

// SaveFront draws the front figure and writes it to path (.png, .svg or
// .pdf), replacing the file atomically.
func SaveFront(path string, panels []Series, opt FrontOptions) error {
	fig, err := FrontFigure(panels, opt)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return fig.Save(path)
}

// NonDominated returns, for each series, the number of distinct points of
// its front as FrontFigure's panel titles count them: points closer than tol
// (pareto.DefaultTolerance if 0) in both axes, normalised over every
// series' points, are one.
func NonDominated(panels []Series, tol float64) []int {
	if tol == 0 {
		tol = pareto.DefaultTolerance
	}
	var sets [][]pareto.Point
	for _, s := range panels {
		sets = append(sets, s.distinctBy())
	}
	norm := pareto.NewNormalizer(sets...)
	out := make([]int, len(panels))
	for k, s := range panels {
		out[k] = pareto.Distinct(s.distinctBy(), s.front(), norm, tol)
	}
	return out
}

// distinctBy are the points whose distinct non-dominated ones are counted:
// the deciding ones.
func (s Series) distinctBy() []pareto.Point {
	if s.Decide != nil {
		return s.Decide
	}
	return s.Points
}

// panelEnv is what every panel of a figure shares.
type panelEnv struct {
	norm  pareto.Normalizer // of every panel's points: for distinct counts
	tol   float64
	floor float64 // of a log Y axis; 0 for a linear one
}

// Markers of degenerate candidates: a cross for a constant predictor, an
// open triangle for one that predicts one class, an open square for one no
// better than the constant predictor, dark enough to show on the grey
// cloud and unlike the front's magenta.
var flagStyles = map[Flag]draw.GlyphStyle{
	Collapsed:   {Color: color.NRGBA{R: 200, G: 100, B: 0, A: 255}, Radius: 3 * pt, Shape: draw.CrossGlyph{}},
	SingleClass: {Color: color.NRGBA{R: 0, G: 120, B: 140, A: 255}, Radius: 3.2 * pt, Shape: draw.TriangleGlyph{}},
	NoBetter:    {Color: color.NRGBA{R: 120, G: 60, B: 160, A: 255}, Radius: 3 * pt, Shape: draw.SquareGlyph{}},
}

// frontPanel draws one series and returns the panel and its layers (for
// the shared legend).
func frontPanel(s Series, opt FrontOptions, env panelEnv) (*plot.Plot, *plotter.Scatter, *plotter.Scatter, *plotter.Line, map[Flag]*plotter.Scatter, error) {
	idx := s.front()
	fp := distinctSorted(s.Points, idx)
	title := fmt.Sprintf("%s\nn = %d, non-dominated = %d", s.Name, len(s.Points), pareto.Distinct(s.distinctBy(), idx, env.norm, env.tol))
	p := newPanel(title, opt.XLabel, opt.YLabel)
	p.Add(gridLines())
	show := s.Points
	if env.floor > 0 {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{floor: env.floor}
		show = make([]pareto.Point, len(s.Points))
		for i, q := range s.Points {
			show[i] = pareto.Point{X: q.X, Y: math.Max(q.Y, env.floor)}
		}
		for i, q := range fp {
			fp[i].Y = math.Max(q.Y, env.floor)
		}
	}
	fail := func(err error) (*plot.Plot, *plotter.Scatter, *plotter.Scatter, *plotter.Line, map[Flag]*plotter.Scatter, error) {
		return nil, nil, nil, nil, nil, fmt.Errorf("front figure: series %q: %w", s.Name, err)
	}

	all, err := plotter.NewScatter(xys(show))
	if err != nil {
		return fail(err)
	}
	all.GlyphStyle = draw.GlyphStyle{Color: candidateColor(len(s.Points)), Radius: 1.6 * pt, Shape: draw.CircleGlyph{}}

	stairs, err := plotter.NewLine(xys(staircase(fp)))
	if err != nil {
		return fail(err)
	}
	stairs.LineStyle = draw.LineStyle{
		Color:  frontColor,
		Width:  1.5 * pt,
		Dashes: []vg.Length{5 * pt, 3 * pt},
	}

	front, err := plotter.NewScatter(xys(fp))
	if err != nil {
		return fail(err)
	}
	front.GlyphStyle = draw.GlyphStyle{Color: frontColor, Radius: 1.5 * pt, Shape: draw.CircleGlyph{}}

	p.Add(all, front, stairs) // the staircase on top: it is what the eye should follow
	marks := map[Flag]*plotter.Scatter{}
	for _, f := range flagOrder {
		var pts []pareto.Point
		for i, fl := range s.Flags {
			// One marker per point, its first flag's: a constant predictor
			// is drawn as one even if it also predicts one class (it nearly
			// always does).
			if fl.top() == f {
				pts = append(pts, show[i])
			}
		}
		if len(pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(xys(pts))
		if err != nil {
			return fail(err)
		}
		sc.GlyphStyle = flagStyles[f]
		p.Add(sc)
		marks[f] = sc
	}
	return p, all, front, stairs, marks, nil
}

// distinctSorted returns the points at idx sorted by X (then Y), with exact
// duplicates dropped: duplicates are one point of the front.
func distinctSorted(pts []pareto.Point, idx []int) []pareto.Point {
	out := make([]pareto.Point, 0, len(idx))
	for _, i := range idx {
		out = append(out, pts[i])
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].X != out[j].X {
			return out[i].X < out[j].X
		}
		return out[i].Y < out[j].Y
	})
	k := 0
	for i, p := range out {
		if i == 0 || p != out[k-1] {
			out[k] = p
			k++
		}
	}
	return out[:k]
}

// staircase returns the boundary of the region dominated by a front sorted
// by increasing X (and so decreasing Y): from each point a horizontal
// segment to the next point's X, then a vertical one down to that point.
func staircase(front []pareto.Point) []pareto.Point {
	if len(front) == 0 {
		return nil
	}
	out := make([]pareto.Point, 0, 2*len(front)-1)
	out = append(out, front[0])
	for _, p := range front[1:] {
		out = append(out, pareto.Point{X: p.X, Y: out[len(out)-1].Y}, p)
	}
	return out
}

// margin is the fraction of an axis's data span left free at each end, so
// that the outermost points, markers and all, stand clear of the axes.
const margin = 0.04

// fitLinear fits a linear axis with about n labels to its data range:
// margin beyond the largest value, and the axis starting at the label at
// or below the smallest value (snapAxis) where that leaves at least
// margin, else margin below the smallest value, so that the axis never
// grows by most of a step to reach a label. A range of non-negative
// values is not taken below 0: risks and unfairness are never negative,
// and negative labels would suggest they could be.
func fitLinear(a *plot.Axis, n int) {
	span := a.Max - a.Min
	if !finite(span) || span < 0 {
		return
	}
	m := span * margin
	if m == 0 {
		m = math.Max(math.Abs(a.Max)*margin, margin)
	}
	lo := a.Min
	a.Max += m
	snapAxis(a, n)
	if lo-a.Min < m {
		a.Min = lo - m
		if lo >= 0 && a.Min < 0 {
			a.Min = 0
		}
	}
}

// padLog returns the top of a log axis from floor up to max, raised by
// margin of the decades it spans.
func padLog(floor, max float64) float64 {
	if !(max > floor) {
		return floor * 10
	}
	return max * math.Pow(max/floor, margin)
}

// logFloor returns the floor of a log axis over sets (see
// FrontOptions.LogY), or false when no value is positive.
func logFloor(sets [][]pareto.Point) (float64, bool) {
	maxY, minPos, zeros := 0.0, math.Inf(1), false
	for _, s := range sets {
		for _, p := range s {
			maxY = math.Max(maxY, p.Y)
			if p.Y > 0 {
				minPos = math.Min(minPos, p.Y)
			} else {
				zeros = true
			}
		}
	}
	if !(maxY > 0) {
		return 0, false
	}
	pow := func(v float64) float64 { return math.Pow(10, math.Floor(math.Log10(v)+1e-9)) }
	floor := pow(minPos)
	if zeros && floor >= minPos*(1-1e-9) {
		floor /= 10 // keep the zeros apart from the smallest value
	}
	return math.Max(floor, pow(maxY*1e-5)), true
}

// shareAxes gives every panel the union of their axis ranges.
func shareAxes(plots []*plot.Plot) {
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, p := range plots {
		xmin, xmax = math.Min(xmin, p.X.Min), math.Max(xmax, p.X.Max)
		ymin, ymax = math.Min(ymin, p.Y.Min), math.Max(ymax, p.Y.Max)
	}
	for _, p := range plots {
		p.X.Min, p.X.Max = xmin, xmax
		p.Y.Min, p.Y.Max = ymin, ymax
	}
}

// figureSize returns the figure's size: the given one, or the default
// panel size times the grid (plus room for title and legend).
func figureSize(cells [][]*plot.Plot, w, h, panelW, panelH vg.Length) (vg.Length, vg.Length) {
	if w <= 0 {
		w = panelW * vg.Length(len(cells[0]))
	}
	if h <= 0 {
		h = panelH*vg.Length(len(cells)) + 0.5*vg.Inch
	}
	return w, h
}

// gridLines returns light grid lines behind the data.
func gridLines() *plotter.Grid {
	g := plotter.NewGrid()
	g.Vertical.Color = color.Gray{Y: 225}
	g.Horizontal.Color = color.Gray{Y: 225}
	g.Vertical.Width = 0.5 * pt
	g.Horizontal.Width = 0.5 * pt
	return g
}

// xys converts points for plotter.
func xys(pts []pareto.Point) plotter.XYs {
	out := make(plotter.XYs, len(pts))
	for i, p := range pts {
		out[i] = plotter.XY{X: p.X, Y: p.Y}
	}
	return out
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
