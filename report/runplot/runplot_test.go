package runplot_test

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/report/runplot"
)

func writeRecords(t *testing.T, path string, recs []records.Record) {
	t.Helper()
	w, err := records.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for i := range recs {
		if err := w.Append(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDrawFront(t *testing.T) {
	dir := t.TempDir()
	rec := func(method string, risk, ato float64) records.Record {
		return records.Record{Dataset: "compas", Sensitive: "race", Method: method, Penalty: "ato-all", Risk: risk,
			ATO: ato, DP: ato, EO: ato, EOpp: ato, Config: method, Status: records.StatusOK}
	}
	failed := rec("cheb", 0, 0)
	failed.Status = records.StatusFailed
	writeRecords(t, filepath.Join(dir, "b.jsonl"), []records.Record{rec("linear", 0.3, 0.2), rec("linear", 0.4, 0.1)})
	writeRecords(t, filepath.Join(dir, "a.jsonl"), []records.Record{rec("cheb", 0.3, 0.1), rec("cheb", 0.5, 0.3), failed})
	var warn strings.Builder
	// The panels follow the order of the paths.
	res, err := runplot.DrawFront([]string{filepath.Join(dir, "b.jsonl"), filepath.Join(dir, "a.jsonl")},
		runplot.FrontPlot{Metric: "eo", By: "method"}, &warn)
	if err != nil {
		t.Fatal(err)
	}
	if res.Out != filepath.Join(dir, "front-eo.png") || res.Failed != 1 || len(res.Panels) != 2 ||
		res.Panels[0].Name != "linear" || res.Panels[1].NonDominated != 1 {
		t.Errorf("result %+v: want front-eo.png beside the records, linear first, 1 failed left out", res)
	}
	if !strings.Contains(warn.String(), "1 failed candidates left out") {
		t.Errorf("warnings %q: want the failed candidate named", warn.String())
	}
	if _, err := os.Stat(res.Out); err != nil {
		t.Error(err)
	}
	for _, tc := range []struct {
		o    runplot.FrontPlot
		want string
	}{
		{runplot.FrontPlot{Metric: "auc", By: "method"}, `"auc"`},
		{runplot.FrontPlot{Metric: "eo", By: "colour"}, "colour"},
	} {
		if _, err := runplot.DrawFront([]string{dir}, tc.o, &warn); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want one naming %s", tc.o, err, tc.want)
		}
	}
}

func TestDrawDistNeedsTheNetworks(t *testing.T) {
	dir := t.TempDir()
	r := records.Record{Dataset: "compas", Method: "cheb", Penalty: "ato-all", Lambda: 0.5, Risk: 0.3,
		Weights: "networks/none.json", Config: "c", Status: records.StatusOK}
	writeRecords(t, filepath.Join(dir, "records.jsonl"), []records.Record{r})
	_, err := runplot.DrawDist(dir, runplot.Dist{}, &strings.Builder{})
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("err = %v, want one saying the network is missing", err)
	}
}

func TestBeside(t *testing.T) {
	dir := t.TempDir()
	if got := runplot.Beside(dir, "x.png"); got != filepath.Join(dir, "x.png") {
		t.Errorf("folder: %s", got)
	}
	if got := runplot.Beside(filepath.Join(dir, "r.jsonl"), "x.png"); got != filepath.Join(dir, "x.png") {
		t.Errorf("records file: %s", got)
	}
}

func TestRunFront(t *testing.T) {
	dir := t.TempDir()
	rec := func(lambda, risk, eo float64) records.Record {
		return records.Record{Dataset: "compas", Method: "cheb", Penalty: "ato-all", Lambda: lambda, Risk: risk, EO: eo,
			Config: "c", Status: records.StatusOK}
	}
	failed := rec(1, 0, 0)
	failed.Status = records.StatusFailed
	recs := []records.Record{rec(0, 0.3, 0.2), rec(0.5, 0.4, 0.1), failed}
	path, err := runplot.RunFront(dir, recs, "eo", records.DecideTest)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "front-eo.png") {
		t.Errorf("path = %s", path)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	if _, err := runplot.RunFront(dir, recs[2:], "eo", records.DecideTest); err == nil || !strings.Contains(err.Error(), "no trained candidates in "+dir) {
		t.Errorf("only failed records: err = %v", err)
	}
	if _, err := runplot.RunFront(dir, recs, "auc", records.DecideTest); err == nil || !strings.Contains(err.Error(), `"auc"`) {
		t.Errorf("unknown metric: err = %v", err)
	}
}

// Two datasets of one name (a file whose rows changed) are refused even
// grouped by dataset: the panels, named by the dataset, would pool them.
// One dataset under two names is drawn.
func TestDrawFrontKeepsDatasetsApart(t *testing.T) {
	dir := t.TempDir()
	rec := func(name, id string, risk float64) records.Record {
		return records.Record{Dataset: name, Sensitive: "g", DataID: id, Method: "cheb", Penalty: "ato-all", Risk: risk,
			ATO: risk, Config: id + name, Status: records.StatusOK}
	}
	a, b, c := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"), filepath.Join(dir, "c.jsonl")
	writeRecords(t, a, []records.Record{rec("d.csv", "11", 0.3)})
	writeRecords(t, b, []records.Record{rec("d.csv", "22", 0.4)})
	writeRecords(t, c, []records.Record{rec("copy.csv", "11", 0.5)})
	var warn strings.Builder
	out := filepath.Join(dir, "f.png")
	for _, tc := range []struct {
		paths []string
		by    string
		want  string
	}{
		{[]string{a, b}, "method", "2 datasets (d.csv (g) [data_id 11]; d.csv (g) [data_id 22])"},
		{[]string{a, b}, "dataset,method", "two of them named d.csv: grouping by dataset cannot keep them apart"},
		{[]string{a, c}, "method", ""},
		{[]string{a, c}, "dataset,method", ""},
	} {
		_, err := runplot.DrawFront(tc.paths, runplot.FrontPlot{Metric: "ato", By: tc.by, Out: out}, &warn)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%v --by %s: %v, want %q", tc.paths, tc.by, err, tc.want)
		}
	}
}

// The note of a front figure of ATO counts the splits, by run and index,
// whose ATO is unreliable; other metrics and reliable splits get none.
func TestATONote(t *testing.T) {
	rec := func(run string, m int, reliable bool) records.Record {
		return records.Record{Source: run, Split: m, ATOReliable: &reliable}
	}
	recs := []records.Record{rec("a", 0, true), rec("a", 0, true), rec("b", 0, false), rec("b", 1, false), rec("b", 1, false)}
	for _, tc := range []struct {
		recs   []records.Record
		metric string
		want   string
	}{
		{recs, "ato", "ATO unreliable on 2 of 3 splits: poor overlap"},
		{recs, "dp", ""},
		{recs[:2], "ato", ""},
		{[]records.Record{{Split: 0}}, "ato", ""}, // no decision recorded
	} {
		if got := runplot.ATONote(tc.recs, tc.metric); got != tc.want {
			t.Errorf("%d records, %s: note %q, want %q", len(tc.recs), tc.metric, got, tc.want)
		}
	}
}

// fp train's figure carries the note when its splits' ATO is unreliable.
func TestRunFrontNotesUnreliableATO(t *testing.T) {
	for _, reliable := range []bool{true, false} {
		dir := t.TempDir()
		rec := func(lambda, risk, ato float64) records.Record {
			return records.Record{Dataset: "x.csv", Method: "cheb", Penalty: "ato-all", Lambda: lambda, Risk: risk, ATO: ato,
				Config: "c", Status: records.StatusOK, ATOReliable: &reliable}
		}
		path, err := runplot.RunFront(dir, []records.Record{rec(0, 0.3, 0.2), rec(1, 0.4, 0.1)}, "ato", records.DecideTest)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		red := 0
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				if r>>8 > 140 && g>>8 < 40 && bl>>8 < 40 {
					red++
				}
			}
		}
		if (red > 0) == reliable {
			t.Errorf("ATO reliable %v: %d dark red pixels (the note's)", reliable, red)
		}
	}
}
