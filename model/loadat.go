package model

import "fmt"

// LoadAt reads the network file at path as the plain network a command
// scores with: a λ-conditioned file folded at lambda, a plain file as it
// is. haveLambda says whether a λ was given (fp's --lambda): a conditioned
// file without one, or one with a plain file, is refused in one line that
// names the flags --model and --lambda.
func LoadAt(path string, lambda float64, haveLambda bool) (*File, error) {
	f, err := Load(path)
	if err != nil {
		return nil, err
	}
	if !f.IsConditioned() {
		if haveLambda {
			at := ""
			if f.Card != nil {
				at = fmt.Sprintf(", trained at λ = %g", f.Card.Lambda)
			}
			return nil, fmt.Errorf("--lambda %g: --model %s is a plain network (%s%s), not a λ-conditioned one (%s): leave --lambda out",
				lambda, path, f.Format, at, FileFormatConditioned)
		}
		return f, nil
	}
	if !haveLambda {
		return nil, fmt.Errorf("--model %s is a λ-conditioned network (%s), which scores rows only at a given λ: give --lambda L with L in [0, 1] (fp pick names a candidate's λ)",
			path, f.Format)
	}
	if !(lambda >= 0 && lambda <= 1) {
		return nil, fmt.Errorf("--lambda %g: want a value in [0, 1]", lambda)
	}
	at, err := f.At(lambda)
	if err != nil {
		return nil, fmt.Errorf("--model %s at --lambda %g: %w", path, lambda, err)
	}
	return at, nil
}
