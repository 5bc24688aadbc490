package experimentstest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// Run trains the sweep c into the run folder dir, as fp train does, and
// fails t if the runner cannot start or the sweep stops with an error.
func Run(t testing.TB, c experiments.Config, dir string) {
	t.Helper()
	r, err := experiments.NewRunner(c, dir, nil)
	if err != nil {
		t.Fatalf("training into %s: %v", dir, err)
	}
	_, err = r.Run(context.Background())
	if cerr := r.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatalf("training into %s: %v", dir, err)
	}
}

// Train runs the sweep c into dir (Run) and returns the records of the
// candidates that trained successfully, in the order they were written. It
// fails t when the records file cannot be read or when no candidate
// succeeded; a test that needs more of them checks their number itself.
func Train(t testing.TB, c experiments.Config, dir string) []records.Record {
	t.Helper()
	Run(t, c, dir)
	path := filepath.Join(dir, runfolder.RecordsFile(c.Shard))
	all, err := records.Read(path)
	if err != nil {
		t.Fatalf("reading the records of %s: %v", dir, err)
	}
	ok, failed := records.Succeeded(all)
	if len(ok) == 0 {
		t.Fatalf("%s: none of %d candidates trained successfully (%d failed)", path, len(all), failed)
	}
	return ok
}
