package layers_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/fpareto/fp/layers"
	"github.com/fpareto/fp/model"
	G "gorgonia.org/gorgonia"
)

// Build a seeded 3×4 network on two inputs, once with dropout masks and once
// without (evaluation), and read the evaluation logits of a batch of three
// rows: they are the plain numeric forward pass of the same parameters.
func ExampleBuild() {
	p := model.Init(model.Arch{Layers: 3, Hidden: 4}, 2, rand.New(rand.NewPCG(1, 1)))
	g := G.NewGraph()
	x, _ := layers.Input(g, []float64{1, 0, 0, 1, -1, 2}, "X", 3, 2)
	m1, _ := layers.NewMask(g, 3, 4, "mask1")
	m2, _ := layers.NewMask(g, 3, 4, "mask2")
	model.FillMask(rand.New(rand.NewPCG(2, 2)), m1.Data, 0.5)
	model.FillMask(rand.New(rand.NewPCG(3, 3)), m2.Data, 0.5)

	mlp, train, err := layers.Build(g, x, p, []*G.Node{m1.Node, m2.Node})
	if err != nil {
		panic(err)
	}
	eval, err := mlp.Forward(x, nil)
	if err != nil {
		panic(err)
	}
	var logits G.Value
	G.Read(eval.Logit, &logits)
	vm := G.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		panic(err)
	}
	want := make([]float64, 3)
	p.Forward([]float64{1, 0, 0, 1, -1, 2}, 3, want)
	fmt.Println("hidden layers:", len(train.Hidden), "parameters:", len(mlp.Params()))
	fmt.Printf("graph   %.6f\n", logits.Data())
	fmt.Printf("numeric %.6f\n", want)
	// Output:
	// hidden layers: 2 parameters: 6
	// graph   [-0.495873 -0.474316 -0.455851]
	// numeric [-0.495873 -0.474316 -0.455851]
}
