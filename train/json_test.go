package train

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/fpareto/fp/optim"
)

// A member's state before its first batch (extremes ±Inf, a scheduler
// that never stepped) is written to JSON, which has no infinity, and read
// back the same; seen values round-trip exactly.
func TestStateJSONWithoutInfinities(t *testing.T) {
	fresh := optim.NewPlateau(optim.DefaultPlateau)
	stepped := *fresh
	stepped.Best, stepped.Bad = 0.6931471805599453, 3
	for _, m := range []MemberState{
		{Result: Result{RMin: math.Inf(1), RMax: math.Inf(-1), UMin: math.Inf(1), UMax: math.Inf(-1)}, Plateau: fresh},
		{Result: Result{RMin: 0.1, RMax: 0.9, UMin: 1e-300, UMax: 3, Steps: 7, Kept: 2}, Plateau: &stepped},
	} {
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var got MemberState
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Result, m.Result) || !reflect.DeepEqual(*got.Plateau, *m.Plateau) {
			t.Errorf("%s read back as %+v %+v", b, got.Result, *got.Plateau)
		}
	}
}
