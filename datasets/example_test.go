package datasets_test

import (
	"errors"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/fpareto/fp/datasets"
)

// Load a built-in dataset, draw a stratified split and standardize it with
// the training rows' statistics.
func Example() {
	d, err := datasets.Load("compas", datasets.Options{})
	if err != nil {
		log.Fatal(err)
	}
	// The generator for split m would be seeded from (seed, m).
	split, err := d.Split(datasets.SplitOptions{TrainFraction: 0.5}, rand.New(rand.NewPCG(1, 0)))
	if err != nil {
		log.Fatal(err)
	}
	std := datasets.FitStandardizer(d, split.Train)
	trainX := std.Apply(d, split.Train) // row-major len(split.Train)×d.Dim
	testX := std.Apply(d, split.Test)
	trainY, trainA := d.Subset(split.Train)

	var mean float64 // of the first column over the training rows: 0 after standardizing
	for r := range split.Train {
		mean += trainX[r*d.Dim] / float64(len(split.Train))
	}
	s := d.Stats()
	fmt.Printf("%s: %d rows, dim %d; y=1: %s=%s; a=1: %s=%s\n", d.Name, d.N, d.Dim, d.Target, d.LabelPositive, d.Sensitive, d.GroupPositive)
	fmt.Printf("P(y=1) %.3f, P(a=1) %.3f, P(y=1|a=0) %.3f, P(y=1|a=1) %.3f\n", s.PY, s.PA, s.PYA0, s.PYA1)
	fmt.Printf("train %d rows (%d labels, %d groups), test %d rows (%d values)\n",
		len(split.Train), len(trainY), len(trainA), len(split.Test), len(testX))
	fmt.Printf("%s: train mean %.1f, SD %.1f; standardized mean 0: %v\n", d.Columns[0], std.Mean[0], std.SD[0], math.Abs(mean) < 1e-9)
	// Output:
	// compas: 6172 rows, dim 12; y=1: two_year_recid=1; a=1: race=African-American
	// P(y=1) 0.455, P(a=1) 0.514, P(y=1|a=0) 0.383, P(y=1|a=1) 0.523
	// train 3086 rows (3086 labels, 3086 groups), test 3086 rows (37032 values)
	// age: train mean 34.4, SD 11.7; standardized mean 0: true
}

// LoadCSV reads any CSV file with a header row; every column other than the
// target and the sensitive one is a feature.
func ExampleLoadCSV() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "loans.csv")
	text := "income,region,repaid,gender\n" +
		"52000,north,yes,f\n" +
		"31000,south,no,m\n" +
		",south,yes,m\n" +
		"47000,east,no,f\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		log.Fatal(err)
	}
	d, err := datasets.LoadCSV(path, datasets.CSVOptions{Target: "repaid", Sensitive: "gender", DropMissing: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.Name, d.N, "rows,", d.Dropped, "dropped")
	fmt.Println(d.Columns)
	fmt.Printf("y=1: %s=%s, a=1: %s=%s\n", d.Target, d.LabelPositive, d.Sensitive, d.GroupPositive)
	fmt.Println(d.X[:d.Dim], d.Y, d.A)

	_, err = datasets.LoadCSV(path, datasets.CSVOptions{Target: "repaid", Sensitive: "gender"})
	var pe *datasets.ParseError // without DropMissing, the empty cell is an error
	if errors.As(err, &pe) {
		fmt.Printf("line %d, column %d (%s): %v\n", pe.Line, pe.Column, pe.Name, pe.Err)
	}
	// Output:
	// loans.csv 3 rows, 1 dropped
	// [income region=east region=north region=south]
	// y=1: repaid=yes, a=1: gender=m
	// [52000 0 1 0] [1 0 0] [0 1 0]
	// line 4, column 1 (income): empty cell: expected a value (--drop-missing drops rows with empty cells)
}
