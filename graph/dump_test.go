package graph

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

func TestDumpProgram(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	arch := model.Arch{Layers: 3, Hidden: 4}
	spec := train.Spec{Arch: arch, Dim: 5, BatchSize: 10, Dropout: 0.2, Init: model.Init(arch, 5, rng),
		Objective: scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.3,
			Std: scalarize.Standardizer{RMin: 0.3, RMax: 0.9, UMin: 0, UMax: 1}},
		Penalty: fairness.ATOPenultimate}
	tr, err := New(spec)
	if err != nil {
		t.Fatal(err)
	}
	prog := reflect.ValueOf(tr.trainVM).MethodByName("Prog").Call(nil)[0].Interface()
	fmt.Printf("%v\n", prog)
}
