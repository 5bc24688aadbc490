package predict

import (
	"context"
	"os"
	"path/filepath"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/model"
)

// RunFile scores the rows of the file data with f into the file out, as
// RunTo; out is a Parquet file when its name ends in .parquet, else a CSV.
// It writes to a temporary file beside out and renames it into place
// only when every row was scored, so a failure leaves no partial output
// and an older out untouched.
func RunFile(f *model.File, data, out string, opt Options) (int, error) {
	return RunFileContext(context.Background(), f, data, out, opt)
}

// RunFileContext is RunFile, stopped when ctx is done (an interrupt): it
// then removes its temporary file, leaves out as it was and returns
// ctx's error.
func RunFileContext(ctx context.Context, f *model.File, data, out string, opt Options) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if f.Schema == nil {
		return 0, ErrNoSchema
	}
	src, err := datasets.OpenRows(data, f.Schema.Dataset)
	if err != nil {
		return 0, err
	}
	defer src.Close()
	// Closing the input ends the next read, even one waiting on a pipe.
	defer context.AfterFunc(ctx, func() { src.Close() })()
	opt.Parquet = datasets.IsParquet(out)
	tmp, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".tmp*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name())
	n, err := Score(f, src, tmp, opt)
	if cerr := ctx.Err(); cerr != nil {
		err = cerr
	}
	if err == nil {
		err = tmp.Chmod(0o644) // CreateTemp makes it 0600; scores are meant to be shared
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return n, err
	}
	return n, os.Rename(tmp.Name(), out)
}
