package model

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Files written before the raw schema and the card still load and predict.
func TestLoadReadsFormatV1(t *testing.T) {
	const v1 = `{"format":"fp-network/1","arch":"2x1","dim":2,"features":["a","b"],
		"mean":[1,0],"sd":[2,0],"weights":[[1,1],[2]],"biases":[[0],[0.5]]}`
	path := filepath.Join(t.TempDir(), "net.json")
	if err := os.WriteFile(path, []byte(v1), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Schema != nil || f.Card != nil {
		t.Errorf("v1 file has a schema or card")
	}
	p, err := f.Predict([]float64{5, 9}, 1)
	if err != nil {
		t.Fatal(err)
	}
	// (5−1)/2 = 2, b standardizes to 0; hidden relu(2) = 2; logit 2·2 + 0.5.
	if want := Sigmoid(4.5); math.Abs(p[0]-want) > 1e-15 {
		t.Errorf("p = %v, want %v", p[0], want)
	}
	bad := strings.Replace(v1, "fp-network/1", "fp-network/9", 1)
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "fp-network/9") {
		t.Errorf("unknown format: err = %v", err)
	}
}
