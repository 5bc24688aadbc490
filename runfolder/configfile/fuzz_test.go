package configfile

import (
	"testing"

	"github.com/fpareto/fp/internal/fuzzcheck"
)

// formats are the extensions FuzzConfigFile reads its input as, chosen by
// the input's first argument.
var formats = []string{".yaml", ".json", ".toml"}

// FuzzConfigFile reads any text as a YAML, JSON or TOML config file, under
// the bounds of fuzzcheck: it must end in a File or a one-line error,
// without a panic or a hang, and within a bounded allocation however its
// aliases or nesting multiply.
func FuzzConfigFile(f *testing.F) {
	for _, seed := range []struct {
		format byte
		text   string
	}{
		{0, "epochs: 3\nlambdas: \"0,1\"\nexclude: [a, b]\n"},
		{0, "a: &a {x: *a}\n"},
		{0, aliasBomb(9)},
		{0, "epochs: 1\n---\nepochs: 2\n"},
		{0, "coding:\n  target: y\n  target_positive: \"1\"\n  sensitive: a\n  sensitive_positive: b\n"},
		{1, `{"epochs": 3, "lambdas": "0,1", "exclude": ["a"], "coding": {"target": "y"}}`},
		{1, `{"epochs": 3, "epochs": 4}`},
		{1, `{"propensity_epochs": 3, "propensity-epochs": 4, "lockstep": false, "val_fraction": 0.2}`},
		{2, "epochs = 3\npropensity.epochs = 7\n[coding]\ntarget = \"y\"\n"},
		{2, "[[x]]\na = 1\n[[x]]\nb = [1, [2]]\n"},
	} {
		f.Add(seed.format, []byte(seed.text))
	}
	keys := trainKeys()
	f.Fuzz(func(t *testing.T, format byte, text []byte) {
		if len(text) > MaxBytes {
			return // readFile refuses it before parsing
		}
		ext := formats[int(format)%len(formats)]
		fuzzcheck.Run(t, len(text), func() error {
			entries, err := parse(ext, text)
			if err != nil {
				return err
			}
			_, err = build("f"+ext, entries, keys)
			return err
		})
	})
}
