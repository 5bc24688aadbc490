package experiments_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/graph/scalarizations"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/train"
	G "gorgonia.org/gorgonia"
)

// A whole sweep (Algorithm 1) with a penalty of one's own: the squared gap
// between the groups' mean predicted probabilities, read through the two
// per-row input columns it declares. It is standardized and scalarized like
// the built-in penalties, and its name goes into the records. Its version
// ("1") enters the sweep's digest: change it whenever the penalty's code
// changes, or a rerun into the same folder resumes from the old records.
func ExampleRunner_customPenalty() {
	inputs := []train.Input{penalties.Group1Mean, penalties.Group0Mean}
	meanGap := penalties.NewPenalty("mean-gap", "1", inputs, func(net penalties.Net, b penalties.BatchNodes) (*G.Node, error) {
		g1, g0 := b.Columns[penalties.Group1Mean.Name], b.Columns[penalties.Group0Mean.Name]
		p := G.Must(G.Sigmoid(net.Logit))
		return G.Square(G.Must(G.Sub(G.Must(G.Mul(g1, p)), G.Must(G.Mul(g0, p)))))
	})

	cfg := experiments.DefaultConfig() // COMPAS, Chebyshev, graph engine
	cfg.CustomPenalty = meanGap
	cfg.Splits, cfg.Lambdas, cfg.Epochs, cfg.PropensityEpochs = 1, "0,0.5,1", 5, 5

	out, _ := os.MkdirTemp("", "fp-example")
	defer os.RemoveAll(out)
	r, err := experiments.NewRunner(cfg, out, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	sum, err := r.Run(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	recs, _ := records.Read(filepath.Join(out, "records.jsonl"))
	fmt.Printf("%d candidates trained, %d failed\n", sum.Trained, sum.Failed)
	for _, rec := range recs {
		fmt.Printf("%s %s λ=%g\n", rec.Method, rec.Penalty, rec.Lambda)
	}
	// Unordered output:
	// 3 candidates trained, 0 failed
	// cheb mean-gap λ=0
	// cheb mean-gap λ=1
	// cheb mean-gap λ=0.5
}

// A whole sweep with a scalarization of one's own: (1−λ)R̃² + λŨ², graph
// code from the standardized risk, the standardized penalty and λ, with its
// numeric twin (the value and its derivatives with respect to R̃ and Ũ,
// which the plateau schedule and held-out stopping read). The method is its
// name, and its version ("1") enters the sweep's digest. Only the graph
// engine trains it: the handwritten engine refuses it before any data is
// read.
func ExampleRunner_customScalarization() {
	squares := scalarizations.New("squares", "1",
		func(rt, ut, lambda *G.Node) (*G.Node, error) {
			w := G.Must(G.Sub(G.NewConstant(1.0), lambda)) // 1 − λ
			return G.Add(G.Must(G.Mul(w, G.Must(G.Square(rt)))), G.Must(G.Mul(lambda, G.Must(G.Square(ut)))))
		},
		func(rt, ut, l float64) (v, dRt, dUt float64) {
			return (1-l)*rt*rt + l*ut*ut, 2 * (1 - l) * rt, 2 * l * ut
		})

	cfg := experiments.DefaultConfig() // COMPAS, ato-penultimate, graph engine
	cfg.CustomScalarization, cfg.Method = squares, squares.Name()
	cfg.Splits, cfg.Lambdas, cfg.Epochs, cfg.PropensityEpochs = 1, "0,0.5,1", 5, 5

	out, _ := os.MkdirTemp("", "fp-example")
	defer os.RemoveAll(out)
	r, err := experiments.NewRunner(cfg, out, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	sum, err := r.Run(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	recs, _ := records.Read(filepath.Join(out, "records.jsonl"))
	fmt.Printf("%d candidates trained, %d failed\n", sum.Trained, sum.Failed)
	for _, rec := range recs {
		fmt.Printf("%s %s λ=%g\n", rec.Method, rec.Penalty, rec.Lambda)
	}

	cfg.Engine = "backprop"
	_, err = experiments.NewRunner(cfg, out+"-backprop", nil)
	fmt.Println(err)
	// Unordered output:
	// 3 candidates trained, 0 failed
	// squares ato-penultimate λ=0
	// squares ato-penultimate λ=1
	// squares ato-penultimate λ=0.5
	// config: engine: the backprop engine cannot train the scalarization "squares": it trains only the built-in risk (bce), penalties (ato-penultimate, ato-all, ato-penultimate-normalized, ato-output, dp-mean, eo-mean, dp-mv, eo-mv, dp-rate, eo-rate) and scalarizations (cheb, linear, cheb-aug); use the graph engine
}
