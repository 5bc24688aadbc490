package fairness

import "fmt"

// Every function of the package takes the sensitive groups as integer
// labels z, for two groups and for R alike; these turn a 0/1 attribute
// (and its propensity scores) into them.

// BinaryGroups converts a 0/1 attribute a to the group labels z_i = a_i
// that every function of the package takes: two groups are the special
// case R = 2. A value other than 0 or 1 is an error naming the first such
// example.
func BinaryGroups(a []float64) ([]int, error) {
	z := make([]int, len(a))
	for i, v := range a {
		switch v {
		case 1:
			z[i] = 1
		case 0:
		default:
			return nil, fmt.Errorf("example %d: group %v, want 0 or 1", i, v)
		}
	}
	return z, nil
}

// Binary is the two-group case of a 0/1 attribute a with the propensity
// scores e = P(a = 1 | x): its group labels (BinaryGroups) and, when e is
// not nil, the overlap weights of e (OverlapWeights: 1 − e in group 1, e in
// group 0; nil without e), as Evaluate and the other functions take them.
func Binary(a, e []float64) (z []int, w []float64, err error) {
	if z, err = BinaryGroups(a); err != nil {
		return nil, nil, err
	}
	if e == nil {
		return z, nil, nil
	}
	w = make([]float64, len(z))
	if err := OverlapWeights(e, 2, z, w); err != nil {
		return nil, nil, err
	}
	return z, w, nil
}
