package model_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/model"
)

// LoadAt folds a λ-conditioned file at the λ given and takes a plain file
// as it is; a conditioned file without λ, a plain one with λ and a λ
// outside [0, 1] are refused in one line naming the flag to change.
func TestLoadAt(t *testing.T) {
	dir := t.TempDir()
	cond := filepath.Join(dir, "cond.json")
	f := model.NewConditionedFile(conditioned(3), []string{"a", "b", "c"}, []float64{1, 2, 3}, []float64{2, 0, 0.5})
	f.Card = &model.Card{Dataset: "d", Method: "cheb", Conditioned: true}
	if err := model.Save(cond, f); err != nil {
		t.Fatal(err)
	}
	at, err := f.At(0.25)
	if err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain.json")
	if err := model.Save(plain, at); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path       string
		lambda     float64
		haveLambda bool
		want       string // "" for no error
	}{
		{cond, 0.25, true, ""},
		{plain, 0, false, ""},
		{cond, 0, false, "give --lambda L"},
		{plain, 0.5, true, "is a plain network"},
		{cond, 1.5, true, "--lambda 1.5: want a value in [0, 1]"},
		{filepath.Join(dir, "none.json"), 0, false, "none.json"},
	} {
		g, err := model.LoadAt(tc.path, tc.lambda, tc.haveLambda)
		if tc.want == "" {
			if err != nil || g.IsConditioned() {
				t.Errorf("%s at %g: %v", tc.path, tc.lambda, err)
			} else if tc.haveLambda && g.Card.Lambda != tc.lambda {
				t.Errorf("%s at %g: card λ %g", tc.path, tc.lambda, g.Card.Lambda)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s at %g (%v): err = %v, want one line with %q", tc.path, tc.lambda, tc.haveLambda, err, tc.want)
		}
	}
}
