package htmlreport_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/report/htmlreport"
	"github.com/fpareto/fp/runfolder"
)

// The page of a run folder: Build assembles the view model (here of three
// candidates, one of them a constant predictor), Render writes the page.
func Example() {
	dir, _ := os.MkdirTemp("", "fp-report")
	defer os.RemoveAll(dir)
	w, _ := records.Open(filepath.Join(dir, "records.jsonl"))
	for i, m := range []struct{ risk, ato float64 }{{0.60, 0.010}, {0.62, 0.004}, {0.72, 0}} {
		w.Append(&records.Record{Dataset: "compas", Sensitive: "race", Method: "cheb", Penalty: "ato-penultimate",
			Lambda: float64(i) / 2, Risk: m.risk, ATO: m.ato, TrainSeconds: 2, Collapsed: m.ato == 0,
			Status: records.StatusOK, Config: "abc"})
	}
	w.Close()
	cfg := experiments.DefaultConfig()
	cfg.Epochs = 100
	b, _ := json.Marshal(cfg) // as fp train stores it
	os.WriteFile(filepath.Join(dir, runfolder.ConfigFile), b, 0o644)

	// fp train's defaults let the page name the settings that differ.
	defaults := experiments.CommandDefaults()
	p, err := htmlreport.Build([]string{dir}, htmlreport.Options{Title: "COMPAS", Defaults: &defaults})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := p.Summary
	fmt.Printf("%s: %d trained, %d collapsed, %.0f s\n", s.Datasets[0], s.Done, s.Collapsed, s.TrainSeconds)
	fmt.Println("on the ATO front:", len(p.Data.Candidates[0].Front) > 0, len(p.Data.Candidates[1].Front) > 0)
	fmt.Println(p.Runs[0].Command == "fp train --epochs 100 --out "+dir)
	var page bytes.Buffer
	fmt.Println(htmlreport.Render(&page, p))
	// Output:
	// compas (race): 3 trained, 1 collapsed, 6 s
	// on the ATO front: true true
	// true
	// <nil>
}
