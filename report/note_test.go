package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/records"
)

// A front figure's note is drawn under its title, in the warning colour,
// with room for its line; a figure without one has neither.
func TestFrontNote(t *testing.T) {
	const note = "ATO unreliable on 2 of 2 splits: poor overlap"
	var svgs [2]string
	var heights [2]float64
	for i, n := range []string{"", note} {
		fig, err := FrontFigure(threeSeries()[:1], FrontOptions{Title: "ATO against test risk", Note: n})
		if err != nil {
			t.Fatal(err)
		}
		_, h := fig.Size()
		heights[i] = float64(h)
		var b bytes.Buffer
		if err := fig.Render(&b, "svg"); err != nil {
			t.Fatal(err)
		}
		svgs[i] = b.String()
	}
	// gonum's SVG writes each glyph run as text; the colour is the note's.
	if strings.Contains(svgs[0], "#AA0000") || !strings.Contains(svgs[1], "#AA0000") {
		t.Errorf("note colour drawn: without a note %v, with one %v", strings.Contains(svgs[0], "#AA0000"), strings.Contains(svgs[1], "#AA0000"))
	}
	if heights[1] <= heights[0] {
		t.Errorf("height with a note %v, without %v: want room for its line", heights[1], heights[0])
	}
}

// SaveRecordsFront passes the note on to the figure.
func TestRecordsFrontNote(t *testing.T) {
	recs := []records.Record{{Dataset: "x.csv", Method: "cheb", Penalty: "ato-all", Risk: 0.6, ATO: 0.1, Config: "c", Status: records.StatusOK},
		{Dataset: "x.csv", Method: "cheb", Penalty: "ato-all", Risk: 0.5, ATO: 0.2, Config: "c", Status: records.StatusOK}}
	dir := t.TempDir()
	for _, n := range []string{"", "a note"} {
		path := filepath.Join(dir, "front.svg")
		if _, err := SaveRecordsFront(path, recs, RecordsFront{Metric: "ato", By: records.Grouping{"method"}, Note: n}); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.Contains(b, []byte("#AA0000")); got != (n != "") {
			t.Errorf("note %q: drawn %v", n, got)
		}
	}
}
