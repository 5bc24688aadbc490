package experiments_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/fpareto/fp/experiments"
)

// A folder keeps the lockstep mode and the selection share it was made
// with when the configuration leaves them to the sweep (LockstepAuto,
// SelectFractionAuto): the same call resumes it, whatever the defaults
// would give a new folder. Settings given are kept, and a folder made
// otherwise is refused.
func TestResumedFolderKeepsItsModeAndShare(t *testing.T) {
	open := func(c experiments.Config, out string) (experiments.Config, error) {
		t.Helper()
		r, err := experiments.NewRunner(c, out, nil)
		if err != nil {
			return experiments.Config{}, err
		}
		defer r.Close()
		return r.Config(), nil
	}
	auto := tinySelection(experiments.SelectFractionAuto)
	auto.LockstepAuto = true

	// A new folder: lockstep where possible (backprop, a fixed grid) and
	// COMPAS's default share, none.
	got, err := open(auto, filepath.Join(t.TempDir(), "new"))
	if err != nil {
		t.Fatal(err)
	}
	if !got.Lockstep || got.LockstepAuto || got.SelectFraction != 0 {
		t.Errorf("a new folder: lockstep %v (auto %v), share %g; want lockstep and no share", got.Lockstep, got.LockstepAuto, got.SelectFraction)
	}

	// A folder made one network after another with a quarter of the test
	// rows kept for selection.
	out := filepath.Join(t.TempDir(), "run")
	made := tinySelection(0.25)
	if _, err := open(made, out); err != nil {
		t.Fatal(err)
	}
	got, err = open(auto, out)
	if err != nil {
		t.Fatalf("resumed with the defaults: %v", err)
	}
	if got.Lockstep || got.SelectFraction != 0.25 || got.Digest() != mustResolve(t, made).Digest() {
		t.Errorf("resumed: lockstep %v, share %g; want the folder's, one network after another and 0.25", got.Lockstep, got.SelectFraction)
	}
	for name, change := range map[string]func(*experiments.Config){
		"lockstep given":    func(c *experiments.Config) { c.LockstepAuto, c.Lockstep = false, true },
		"share given":       func(c *experiments.Config) { c.SelectFraction = 0.5 },
		"no share, given":   func(c *experiments.Config) { c.SelectFraction = 0 },
		"another sweep too": func(c *experiments.Config) { c.Epochs = 3 },
	} {
		c := auto
		change(&c)
		if _, err := open(c, out); err == nil {
			t.Errorf("%s: the folder made otherwise was not refused", name)
		}
	}

	// Lockstep asked for and left to the sweep at once is refused, naming
	// the field.
	both := auto
	both.Lockstep = true
	var fe *experiments.FieldError
	if err := both.Validate(); !errors.As(err, &fe) || fe.Field != "lockstep" {
		t.Errorf("Lockstep and LockstepAuto: err = %v, want a FieldError for lockstep", err)
	}
}

// mustResolve is c as a runner resolves it for COMPAS's training split.
func mustResolve(t *testing.T, c experiments.Config) experiments.Config {
	t.Helper()
	r, err := experiments.NewRunner(c, filepath.Join(t.TempDir(), "resolve"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return r.Config()
}
