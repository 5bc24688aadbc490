package predict

import (
	"os"
	"path/filepath"

	"github.com/fpareto/fp/model"
)

// RunFile scores the rows of the file data with f, as Run, into the file
// out. It writes to a temporary file beside out and renames it into place
// only when every row was scored, so a failure leaves no partial output
// and an older out untouched.
func RunFile(f *model.File, data, out string, opt Options) (int, error) {
	in, err := os.Open(data)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	tmp, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".tmp*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name())
	n, err := Run(f, in, data, tmp, opt)
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
