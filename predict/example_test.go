package predict_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/predict"
)

// A network that reads a numeric column and a categorical one scores raw
// rows, copying an id column.
func ExampleRun() {
	schema := &datasets.Schema{
		Columns: []datasets.SourceColumn{
			{Name: "age", Kind: datasets.KindNumeric},
			{Name: "colour", Kind: datasets.KindCategorical, Levels: []string{"blue", "red"}},
		},
		Target: "y", TargetPositive: "1", Sensitive: "g", SensitivePositive: "f",
	}
	p := &model.Params{Arch: model.Arch{Layers: 2, Hidden: 1}, Dim: 3,
		W: [][]float64{{2, 1, 0}, {1}}, B: [][]float64{{0}, {-1}}}
	f := model.NewFile(p, schema.Features(), []float64{40, 0, 0}, []float64{10, 1, 1})
	f.Schema = schema

	rows := "id,colour,age\n7,red,50\n8,blue,20\n"
	if _, err := predict.Run(f, strings.NewReader(rows), "rows.csv", os.Stdout,
		predict.Options{Keep: []string{"id"}, Threshold: 0.5, Logit: true}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// id,score,label,logit
	// 7,0.7310585786300049,1,1
	// 8,0.2689414213699951,0,-1
}
