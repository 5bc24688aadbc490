package model_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/internal/fuzzcheck"
	"github.com/fpareto/fp/model"
)

// FuzzNetworkFile reads a network file as fp predict, fp export and fp
// audit do (Load), under the bounds of fuzzcheck, and uses what Load
// accepts as they use it: a λ-conditioned network folded at λ, the scorer
// on one row, Predict, and the schema's encoder on a row of the columns
// it names. Load promises that a file it accepts can be used so: no
// panic, and errors of one line.
func FuzzNetworkFile(f *testing.F) {
	rng := rand.New(rand.NewPCG(1, 2))
	plain := model.NewFile(model.Init(model.Arch{Layers: 2, Hidden: 3}, 3, rng), []string{"x", "c=b", "c=c"},
		[]float64{1, 0.5, 0.5}, []float64{2, 0.5, 0})
	plain.Schema = &datasets.Schema{Columns: []datasets.SourceColumn{{Name: "x", Kind: datasets.KindNumeric},
		{Name: "c", Kind: datasets.KindCategorical, Levels: []string{"a", "b", "c"}, Dropped: "a"}},
		Target: "y", TargetPositive: "1", Sensitive: "g", SensitivePositive: "f"}
	plain.Card = &model.Card{Dataset: "d.csv", Method: "cheb", Split: 1, Lambda: 0.5}
	cond := model.NewConditionedFile(conditioned(3), []string{"a", "b", "c"}, []float64{1, 2, 3}, []float64{2, 0, 0.5})
	bare := model.NewFile(model.Init(model.Arch{Layers: 3, Hidden: 2}, 2, rng), nil, nil, nil)
	bare.Format = model.FileFormatV1
	for _, nf := range []*model.File{plain, cond, bare} {
		b, err := json.Marshal(nf)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		// Damaged copies: a member deleted, as a hand edit would.
		for _, member := range []string{"sd", "mean", "weights", "biases", "features", "schema", "film", "dim", "arch"} {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(b, &m); err != nil {
				f.Fatal(err)
			}
			if _, ok := m[member]; ok {
				delete(m, member)
				d, _ := json.Marshal(m)
				f.Add(d)
			}
		}
	}
	for _, s := range []string{
		`{"format":"fp-network/2","arch":"2x1","dim":1,"weights":[[1],[1]],"biases":[[0],[0]],"mean":[0],"sd":[1]}`,
		`{"format":"fp-network/2","arch":"2x1","dim":1,"weights":[[1],[1]],"biases":[[0],[0]],"mean":[0]}`,
		`{"format":"fp-network/2","arch":"2x1","dim":1,"weights":[[1e308],[1e308]],"biases":[[1e308],[0]]}`,
		`{"format":"fp-network/2","arch":"2x1","dim":-1,"weights":[[],[1]],"biases":[[0],[0]]}`,
		`{"format":"fp-network/2","arch":"2x1","dim":4611686018427387904,"weights":[[],[1]],"biases":[[0],[0]]}`,
		`{"format":"fp-network/2","arch":"100000000000x1","dim":1}`,
		`{"format":"fp-network/2","arch":"2x4611686018427387904","dim":4,"weights":[[],[]],"biases":[[],[0]]}`,
		`{"format":"fp-network/2","arch":"2x1","dim":1,"weights":[[1],[1]],"biases":[[0],[0]],"schema":{"columns":[{"name":"x","kind":"categorical"}]}}`,
		`{"format":"fp-network/3","arch":"2x1","dim":1,"weights":[[1],[1]],"biases":[[0],[0]],"film":{"width":-1}}`,
		`{"format":"fp-network/3","arch":"2x1","dim":1,"weights":[[1],[1]],"biases":[[0],[0]]}`,
		`{"format":"fp-network/9"}`,
		`{"format":"fp-network/2","arch":"\u001b[2J"}`,
		`[]`, `null`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	path := filepath.Join(f.TempDir(), "net.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcheck.Run(t, len(data), func() error {
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			nf, err := model.Load(path)
			if err != nil {
				return err
			}
			if nf.IsConditioned() {
				for _, lambda := range []float64{0, 0.5, 1} {
					if _, err := nf.At(lambda); err != nil {
						t.Fatalf("Load accepts the file, At(%g) refuses it: %v", lambda, err)
					}
				}
				if nf, err = nf.At(0.5); err != nil {
					return err
				}
			}
			sc, err := nf.NewScorer()
			if err != nil {
				t.Fatalf("Load accepts the file, NewScorer refuses it: %v", err)
			}
			row := make([]float64, sc.Dim())
			for j := range row {
				row[j] = float64(j%3) - 1
			}
			sc.Logit(row)
			if _, err := nf.Predict(row, 1); err != nil {
				t.Fatalf("Load accepts the file, Predict refuses it: %v", err)
			}
			if nf.Schema == nil {
				return nil
			}
			// A CSV of the schema's columns, one row of values it knows.
			var names, vals []string
			for _, c := range nf.Schema.Columns {
				names = append(names, csvField(c.Name))
				v := "1"
				if c.Kind == datasets.KindCategorical {
					v = csvField(c.Levels[len(c.Levels)-1])
				}
				vals = append(vals, v)
			}
			src, err := datasets.NewRowReader(strings.NewReader(strings.Join(names, ",")+"\n"+strings.Join(vals, ",")+"\n"), "rows.csv", "")
			if err != nil {
				return err
			}
			enc, err := nf.Schema.NewEncoder(src)
			if err != nil {
				return err
			}
			if enc.Dim() != sc.Dim() { // fp predict's refusal
				return fmt.Errorf("network file: the schema encodes %d inputs, the network takes %d", enc.Dim(), sc.Dim())
			}
			fields, err := src.Next()
			if err != nil {
				return err
			}
			x := make([]float64, enc.Dim())
			if err := enc.Encode(fields, src.Pos(), x); err != nil {
				return err
			}
			sc.Logit(x)
			return nil
		})
	})
}

// csvField quotes s as a CSV field.
func csvField(s string) string {
	var b bytes.Buffer
	b.WriteByte('"')
	b.WriteString(strings.ReplaceAll(s, `"`, `""`))
	b.WriteByte('"')
	return b.String()
}
