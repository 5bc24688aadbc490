package enginebench_test

import (
	"context"
	"fmt"

	"github.com/fpareto/fp/enginebench"
)

// Time 20 training steps of each engine on COMPAS.
func ExampleRun() {
	res, err := enginebench.Run(context.Background(), enginebench.Config{Dataset: "compas", Steps: 20, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res {
		fmt.Printf("%s: %d steps of a %s network, batch %d, allocation-free: %v\n",
			r.Engine, r.Steps, r.Arch, r.Batch, r.AllocsPerStep == 0)
	}
	// Output:
	// graph: 20 steps of a 4x4 network, batch 150, allocation-free: false
	// backprop: 20 steps of a 4x4 network, batch 150, allocation-free: true
}
