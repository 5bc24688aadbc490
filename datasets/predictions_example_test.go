package datasets_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/fpareto/fp/datasets"
)

// Read a file of predictions with text labels and groups: "yes" is coded 1,
// and of "F" and "M" the later one.
func ExampleReadPredictions() {
	dir, err := os.MkdirTemp("", "fp-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "preds.csv")
	text := "id,score,approved,sex\n1,0.8,yes,F\n2,0.3,no,M\n3,0.6,yes,M\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		log.Fatal(err)
	}
	pr, err := datasets.ReadPredictions(path, datasets.PredictionColumns{Score: "score", Label: "approved", Group: "sex"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("p:", pr.P, "y:", pr.Y, "a:", pr.A)
	fmt.Print(pr.CodingNote())
	// Output:
	// p: [0.8 0.3 0.6] y: [1 0 1] a: [0 1 1]
	// label: "yes" coded as 1, "no" as 0
	// group: "M" coded as 1, "F" as 0
}
