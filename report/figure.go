package report

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"io"
	"path/filepath"

	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/fpareto/fp/model"
)

// pt is one typographic point: vg.Length is measured in points.
const pt vg.Length = 1

// DefaultDPI is the resolution of PNG output when none is given.
const DefaultDPI = 150

// Font sizes shared by every figure, chosen so that a figure printed at
// half a page's width stays readable.
const (
	titleSize  = 13 * pt
	panelSize  = 11 * pt
	labelSize  = 10 * pt
	tickSize   = 8.5 * pt
	legendSize = 10 * pt
)

// noteColor is the colour of a figure's note: a dark red, a warning that
// stays legible in print.
var noteColor = color.NRGBA{R: 170, G: 0, B: 0, A: 255}

// Figure is a grid of panels under an optional title and a legend shared
// by all panels. Build one with FrontFigure or Distributions; write it
// with Save or Render.
type Figure struct {
	title  string
	note   string // a line under the title, in the warning colour
	legend []legendEntry
	// panels is row-major; a nil entry leaves its cell empty.
	panels        [][]*plot.Plot
	width, height vg.Length
	dpi           int
}

type legendEntry struct {
	label string
	thumb plot.Thumbnailer
}

// Size returns the figure's width and height.
func (f *Figure) Size() (w, h vg.Length) { return f.width, f.height }

// Draw draws the figure on c: the title and legend in a band at the top,
// then the panels, tiled so that their data areas line up.
func (f *Figure) Draw(c draw.Canvas) {
	if len(f.panels) == 0 {
		return // a zero Figure draws nothing
	}
	const pad = 6 * pt
	top := c.Max.Y - pad
	if f.title != "" {
		sty := textStyle(titleSize)
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
		for _, line := range fitLines(sty, f.title, c.Max.X-c.Min.X-2*pad) {
			c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: top}, line)
			top -= sty.Height(line)
		}
		top -= pad / 2
	}
	if f.note != "" {
		sty := textStyle(legendSize)
		sty.Color = noteColor
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
		c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: top}, f.note)
		top -= sty.Height(f.note) + pad/2
	}
	if len(f.legend) > 0 {
		top -= f.drawLegend(c, top) + pad/2
	}
	body := draw.Crop(c, 0, 0, 0, top-c.Max.Y)
	rows, cols := len(f.panels), len(f.panels[0])
	tiles := draw.Tiles{
		Rows: rows, Cols: cols,
		PadX: 14 * pt, PadY: 12 * pt,
		PadTop: 2 * pt, PadBottom: pad, PadLeft: pad, PadRight: 2 * pad,
	}
	cells := plot.Align(f.panels, tiles, body)
	for j, row := range f.panels {
		for i, p := range row {
			if p != nil {
				p.Draw(cells[j][i])
			}
		}
	}
}

// drawLegend draws the legend in centred rows, as many entries to a row as
// fit the figure's width (a one-panel figure is narrower than the legend of
// a front), the first row's top at y, and returns the legend's height.
func (f *Figure) drawLegend(c draw.Canvas, y vg.Length) vg.Length {
	sty := textStyle(legendSize)
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	const (
		thumbW = 22 * pt
		gap    = 4 * pt
		sep    = 16 * pt
		margin = 6 * pt
	)
	h := sty.Height("Xy")
	width := func(e legendEntry) vg.Length { return thumbW + gap + sty.Width(e.label) }
	avail := c.Max.X - c.Min.X - 2*margin
	var rows [][]legendEntry
	var rowW []vg.Length
	for _, e := range f.legend {
		w := width(e)
		if n := len(rows); n > 0 && rowW[n-1]+sep+w <= avail {
			rows[n-1] = append(rows[n-1], e)
			rowW[n-1] += sep + w
			continue
		}
		rows = append(rows, []legendEntry{e})
		rowW = append(rowW, w)
	}
	for r, row := range rows {
		x := (c.Min.X+c.Max.X)/2 - rowW[r]/2
		mid := y - h/2 - vg.Length(r)*(h+h/3)
		for _, e := range row {
			tc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
				Min: vg.Point{X: x, Y: mid - h/2},
				Max: vg.Point{X: x + thumbW, Y: mid + h/2},
			}}
			e.thumb.Thumbnail(&tc)
			x += thumbW + gap
			c.FillText(sty, vg.Point{X: x, Y: mid}, e.label)
			x += sty.Width(e.label) + sep
		}
	}
	return vg.Length(len(rows))*h + vg.Length(len(rows)-1)*(h/3)
}

// Formats lists the output formats Render and Save accept.
var Formats = []string{"png", "svg", "pdf"}

// Render draws the figure in the given format ("png", "svg" or "pdf")
// and writes it to w.
func (f *Figure) Render(w io.Writer, format string) error {
	if len(f.panels) == 0 || f.width <= 0 || f.height <= 0 {
		return errors.New("render figure: the figure is empty (build it with FrontFigure or Distributions)")
	}
	var cw vg.CanvasWriterTo
	switch strings.ToLower(format) {
	case "png":
		dpi := f.dpi
		if dpi <= 0 {
			dpi = DefaultDPI
		}
		cw = vgimg.PngCanvas{Canvas: vgimg.NewWith(
			vgimg.UseWH(f.width, f.height),
			vgimg.UseDPI(dpi),
			vgimg.UseBackgroundColor(color.White),
		)}
	case "svg":
		cw = vgsvg.New(f.width, f.height)
	case "pdf":
		cw = vgpdf.New(f.width, f.height)
	default:
		return fmt.Errorf("figure format %q: want one of %s", format, strings.Join(Formats, ", "))
	}
	f.Draw(draw.New(cw))
	if _, err := cw.WriteTo(w); err != nil {
		return fmt.Errorf("write %s figure: %w", format, err)
	}
	return nil
}

// Save writes the figure to path in the format named by its extension
// (.png, .svg or .pdf). The file is replaced atomically.
func (f *Figure) Save(path string) error {
	format, err := formatOf(path)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := f.Render(&buf, format); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return model.WriteFileAtomic(path, buf.Bytes())
}

// formatOf returns the output format named by path's extension.
func formatOf(path string) (string, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	for _, f := range Formats {
		if ext == f {
			return f, nil
		}
	}
	return "", fmt.Errorf("figure %s: unknown extension %q: want .png, .svg or .pdf", path, filepath.Ext(path))
}

// textStyle returns the default plain-text style at the given size.
func textStyle(size vg.Length) text.Style {
	return text.Style{
		Color:   color.Black,
		Font:    font.From(plot.DefaultFont, size),
		Handler: plot.DefaultTextHandler,
	}
}

// newPanel returns an empty panel with fp's font sizes and a light grid.
func newPanel(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = panelSize
	p.Title.Padding = 4 * pt
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.X.Label.TextStyle.Font.Size = labelSize
	p.Y.Label.TextStyle.Font.Size = labelSize
	p.X.Tick.Label.Font.Size = tickSize
	p.Y.Tick.Label.Font.Size = tickSize
	p.X.Tick.Marker = niceTicks{n: 6}
	p.Y.Tick.Marker = niceTicks{n: 5}
	p.X.Padding = 3 * pt
	p.Y.Padding = 3 * pt
	p.Legend.TextStyle.Font.Size = legendSize
	return p
}

// grid arranges n panels in rows of cols (cols ≤ 0: a near-square grid,
// at most three across for up to three panels) and returns rows × cols cells.
func grid(n, cols int) (rows, c int) {
	if cols <= 0 {
		switch {
		case n <= 3:
			cols = n
		default:
			cols = 1
			for cols*cols < n {
				cols++
			}
		}
	}
	cols = min(cols, n)
	return (n + cols - 1) / cols, cols
}

// layout places panels row-major in a rows × cols grid.
func layout(panels []*plot.Plot, cols int) [][]*plot.Plot {
	rows, cols := grid(len(panels), cols)
	out := make([][]*plot.Plot, rows)
	for j := range out {
		out[j] = make([]*plot.Plot, cols)
		for i := range out[j] {
			if k := j*cols + i; k < len(panels) {
				out[j][i] = panels[k]
			}
		}
	}
	return out
}

// fitLines breaks text into lines no wider than width in style sty, so
// that a title longer than a one-panel figure is wide wraps instead of
// running off both edges. It breaks after ": " and before " (" where it
// can (keeping "(constant predictors left out)" whole), else between
// words; a single word wider than width is shortened with an ellipsis.
func fitLines(sty text.Style, text string, width vg.Length) []string {
	var lines []string
	for _, para := range strings.Split(text, "\n") {
		lines = append(lines, fill(sty, phrases(para), width, func(p string) []string {
			return fill(sty, strings.SplitAfter(p, " "), width, func(w string) []string {
				return []string{shorten(sty, w, width)}
			})
		})...)
	}
	return lines
}

// fill joins pieces greedily into lines no wider than width, handing a
// piece too wide on its own to split. Spaces at line ends are trimmed.
func fill(sty text.Style, pieces []string, width vg.Length, split func(string) []string) []string {
	var lines []string
	cur := ""
	flush := func() {
		if t := strings.TrimSpace(cur); t != "" {
			lines = append(lines, t)
		}
		cur = ""
	}
	for _, p := range pieces {
		switch {
		case sty.Width(strings.TrimSpace(cur+p)) <= width:
			cur += p
		case sty.Width(strings.TrimSpace(p)) <= width:
			flush()
			cur = p
		default:
			flush()
			parts := split(p)
			lines = append(lines, parts[:len(parts)-1]...)
			cur = parts[len(parts)-1] + " "
		}
	}
	flush()
	return lines
}

// phrases splits s after each ": " and before each " (", the places where
// a figure title reads best broken.
func phrases(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.Index(s, ": ")
		j := strings.Index(s, " (")
		cut := len(s)
		if i >= 0 {
			cut = i + 2
		}
		if j > 0 && j+1 < cut {
			cut = j + 1
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return out
}

// shorten cuts s to fit width, ending it with an ellipsis when cut.
func shorten(sty text.Style, s string, width vg.Length) string {
	s = strings.TrimSpace(s)
	if sty.Width(s) <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && sty.Width(string(r)+"…") > width {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}
