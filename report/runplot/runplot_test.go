package runplot_test

import (
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
		runplot.Front{Metric: "eo", By: "method"}, &warn)
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
		o    runplot.Front
		want string
	}{
		{runplot.Front{Metric: "auc", By: "method"}, `"auc"`},
		{runplot.Front{Metric: "eo", By: "colour"}, "colour"},
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
