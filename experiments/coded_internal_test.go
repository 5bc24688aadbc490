package experiments

import (
	"bytes"
	"context"
	"encoding/csv"
	"slices"
	"strconv"
	"testing"

	"github.com/fpareto/fp/runfolder"
)

// fp datasets export --coded (runfolder.LoadRunPart, RunPart.WriteCSV)
// writes each part of a split as the trainer feeds it to
// the networks: the matrix, labels and groups prepare gives for training,
// test and selection rows, in the same order, each under its row index.
func TestCodedExportIsWhatTheNetworksSee(t *testing.T) {
	for _, tc := range []struct {
		name    string
		dataset string
		exclude []string
		sel     float64
	}{
		{"binary with selection rows", "compas", nil, 0.5},
		{"four groups, a column left out", "compas-race4", []string{"sex"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := DefaultConfig()
			c.Dataset, c.Exclude = tc.dataset, tc.exclude
			c.Splits, c.Lambdas, c.Engine, c.PropensityEpochs = 2, "0,1", "backprop", 1
			c.ValFraction, c.SelectFraction = 0, tc.sel
			dir := t.TempDir()
			r, err := NewRunner(c, dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			const m = 1
			sd, err := r.prepare(context.Background(), m, make(chan struct{}, 1))
			if err != nil {
				t.Fatal(err)
			}
			sp, err := splitOf(r.cfg, r.data, m)
			if err != nil {
				t.Fatal(err)
			}
			groups := func(a []float64, z []int) []float64 {
				if z == nil {
					return a
				}
				g := make([]float64, len(z))
				for k, v := range z {
					g[k] = float64(v)
				}
				return g
			}
			type part struct {
				name    string
				rows    []int
				x, y, a []float64
			}
			parts := []part{
				{"train", sp.Train, sd.train.X, sd.train.Y, sd.train.A},
				{"test", sp.Test, sd.testX, sd.testY, groups(sd.testA, sd.testZ)},
			}
			if tc.sel > 0 {
				parts = append(parts, part{"selection", sp.Selection, sd.sel.x, sd.sel.y, groups(sd.sel.a, sd.sel.z)})
			}
			for _, p := range parts {
				rp, err := runfolder.LoadRunPart(dir, m, p.name, r.data)
				if err != nil {
					t.Fatal(err)
				}
				var b bytes.Buffer
				if _, err := rp.WriteCSV(&b, r.data, true); err != nil {
					t.Fatal(err)
				}
				recs, err := csv.NewReader(&b).ReadAll()
				if err != nil {
					t.Fatal(err)
				}
				dim := r.data.Dim
				if slices.Contains(recs[0], "sex=Male") == (tc.exclude != nil) || len(recs[0]) != dim+3 {
					t.Fatalf("%s: header %q", p.name, recs[0])
				}
				if len(recs)-1 != len(p.rows) || len(p.x) != len(p.rows)*dim {
					t.Fatalf("%s: %d rows written, the trainer has %d", p.name, len(recs)-1, len(p.rows))
				}
				for k, i := range p.rows {
					got := make([]float64, len(recs[1+k]))
					for j, f := range recs[1+k] {
						if got[j], err = strconv.ParseFloat(f, 64); err != nil {
							t.Fatal(err)
						}
					}
					if got[0] != float64(i) || !slices.Equal(got[1:1+dim], p.x[k*dim:(k+1)*dim]) ||
						got[1+dim] != p.y[k] || got[2+dim] != p.a[k] {
						t.Fatalf("%s row %d: written %v, the trainer's row %d is %v, y %v, a %v",
							p.name, k, got, i, p.x[k*dim:(k+1)*dim], p.y[k], p.a[k])
					}
				}
			}
		})
	}
}
