package runfolder_test

import (
	"math"
	"testing"

	"github.com/fpareto/fp/runfolder"
)

// committedRows are n deterministic standardized rows of dim inputs: the
// first all zeros, the others spread over ±2.
func committedRows(n, dim int) []float64 {
	x := make([]float64, n*dim)
	for i := 1; i < n; i++ {
		for j := range dim {
			x[i*dim+j] = 2 * math.Sin(float64(3*i+j*j+1))
		}
	}
	return x
}

// The propensity models committed under results/ still load and give the
// scores they gave when they were written: bit for bit the stored outputs
// (want), which are within 1e-15 of a forward pass of the stored weights
// computed independently with numpy (numpy): h = relu(x·W + b) per hidden
// layer, z = h·W + b, then softmax(z/T) floored at 1e-6 and renormalised
// (R groups) or sigmoid(z/T) clipped to [1e-6, 1 − 1e-6] (two groups).
func TestCommittedPropensityModelsPredictAsStored(t *testing.T) {
	for _, tc := range []struct {
		name        string
		dir         string
		split       int
		groups      bool
		want, numpy []float64
	}{
		{
			name: "four groups", dir: "../results/compas-race4/groups/cheb-ato-penultimate", split: 0, groups: true,
			want: []float64{
				0.4095026946855696, 0.33219137604611415, 0.13474544190266216, 0.12356048736565425,
				0.7764233622260881, 0.1795733896536432, 0.03036285771752471, 0.013640390402744047,
				0.28488711915783343, 0.55677340519332996, 0.094298888798109951, 0.064040586850726625,
				0.76387462504778991, 0.18943419830193095, 0.028170812053383711, 0.01852036459689551,
			},
			numpy: []float64{
				0.40950269468556955, 0.3321913760461141, 0.13474544190266216, 0.12356048736565425,
				0.7764233622260882, 0.17957338965364317, 0.030362857717524713, 0.013640390402744057,
				0.2848871191578335, 0.55677340519333, 0.09429888879810996, 0.06404058685072665,
				0.7638746250477898, 0.189434198301931, 0.028170812053383718, 0.018520364596895537,
			},
		},
		{
			name: "two groups", dir: "../results/adult-sex/shards/cheb-ato-output", split: 1,
			want:  []float64{0.57840427361640301, 0.9178345584207408, 0.87971486797252407, 0.97975938064151158},
			numpy: []float64{0.578404273616403, 0.9178345584207407, 0.8797148679725243, 0.9797593806415116},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []float64
			if tc.groups {
				pm, _, err := runfolder.ReadPropensityGroups(tc.dir, tc.split)
				if err != nil {
					t.Fatal(err)
				}
				got = pm.Predict(committedRows(4, pm.Net.Dim), 4)
			} else {
				pm, err := runfolder.ReadPropensity(tc.dir, tc.split)
				if err != nil {
					t.Fatal(err)
				}
				got = pm.Predict(committedRows(4, pm.Net.Dim), 4)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d propensities, want %d", len(got), len(tc.want))
			}
			for i, v := range got {
				if v != tc.want[i] {
					t.Errorf("propensity %d = %.17g, stored model gave %.17g", i, v, tc.want[i])
				}
				if math.Abs(v-tc.numpy[i]) > 1e-15 {
					t.Errorf("propensity %d = %.17g, numpy %.17g", i, v, tc.numpy[i])
				}
			}
		})
	}
}
