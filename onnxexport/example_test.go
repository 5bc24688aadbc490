package onnxexport_test

import (
	"fmt"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/onnxexport"
)

// The exported graph standardizes its input, runs the layers and gives
// both the logit and the probability.
func ExampleModel() {
	p := &model.Params{Arch: model.Arch{Layers: 2, Hidden: 2}, Dim: 2,
		W: [][]float64{{1, 0, 0, 1}, {1, -1}}, B: [][]float64{{0, 0}, {0}}}
	f := model.NewFile(p, []string{"age", "sex=Male"}, []float64{40, 0.5}, []float64{10, 0.5})
	m, err := onnxexport.Model(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, n := range m.GetGraph().GetNode() {
		fmt.Println(n.GetOpType(), n.GetInput(), "→", n.GetOutput())
	}
	fmt.Println("IR", m.GetIrVersion(), "opset", m.GetOpsetImport()[0].GetVersion())
	// Output:
	// Sub [features mean] → [centred]
	// Div [centred sd] → [scaled]
	// Mul [scaled keep] → [standardized]
	// Gemm [standardized W0 b0] → [z0]
	// Relu [z0] → [h0]
	// Gemm [h0 W1 b1] → [logit]
	// Sigmoid [logit] → [score]
	// IR 8 opset 13
}
