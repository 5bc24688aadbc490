package runfolder

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// An Input is a path a command reads: a flag's value (Flag "--data") or a
// positional argument (Flag "").
type Input struct{ Flag, Path string }

func (in Input) String() string {
	if in.Flag == "" {
		return "the input " + in.Path
	}
	return in.Flag + " " + in.Path
}

// Inputs returns the positional arguments paths as inputs.
func Inputs(paths []string) []Input {
	out := make([]Input, len(paths))
	for i, p := range paths {
		out[i] = Input{Path: p}
	}
	return out
}

// CheckOut refuses, in one line, an output path out (of command cmd, given
// with flag) that would overwrite one of the command's inputs or a file a
// run folder keeps (KeptAt): its records and their locks,
// configuration, invocation log, stored networks (networks/**.json) or
// per-split files (splits/**.json: propensity models, standardization
// constants). Every command that writes a file checks its output with it
// before reading anything; fp train --out, which resumes the folder it
// names, is the one exception. Paths are compared after resolving symbolic
// links, and an existing output is compared with the inputs by file
// identity too, which catches hard links. An empty out (standard output)
// passes.
func CheckOut(cmd, flag, out string, inputs ...Input) error {
	if out == "" {
		return nil
	}
	refuse := func(format string, a ...any) error {
		return fmt.Errorf("%s: %s %s %s: write it elsewhere", cmd, flag, out, fmt.Sprintf(format, a...))
	}
	rout, err := resolve(out)
	if err != nil {
		return fmt.Errorf("%s: %s %s: %w", cmd, flag, out, err)
	}
	resolved := make([]string, len(inputs))
	for i, in := range inputs {
		if in.Path == "" {
			continue
		}
		if resolved[i], err = resolve(in.Path); err != nil {
			return fmt.Errorf("%s: %s: %w", cmd, in, err)
		}
		if resolved[i] == rout {
			return refuse("is %s: the output would replace it", in)
		}
	}
	if IsRecordsName(filepath.Base(rout)) {
		return refuse("is named as a records file, which fp would read as records")
	}
	if run, what := KeptAt(rout); what != "" {
		return refuse("is %s of the run in %s: the output would replace it", what, run)
	}
	outInfo, err := os.Stat(rout)
	if err != nil {
		return nil // a new file replaces nothing
	}
	// Hard links to an input, or to the records and configuration of an
	// input run folder.
	for i, in := range inputs {
		if resolved[i] == "" {
			continue
		}
		same := []string{resolved[i]}
		if st, err := os.Stat(resolved[i]); err == nil && st.IsDir() {
			same = ReadFiles(resolved[i])
		}
		for _, p := range same {
			if st, err := os.Stat(p); err == nil && os.SameFile(st, outInfo) {
				what := in.String()
				if p != resolved[i] {
					what = p
				}
				return refuse("is the same file as %s (a link to it): the output would replace it", what)
			}
		}
	}
	return nil
}

// resolve returns the absolute path of p with symbolic links resolved; the
// part of it that does not exist yet is kept as written.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var rest []string
	for dir := abs; ; dir = filepath.Dir(dir) {
		r, err := filepath.EvalSymlinks(dir)
		if err == nil {
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if parent := filepath.Dir(dir); parent == dir {
			return abs, nil
		}
		rest = append([]string{filepath.Base(dir)}, rest...)
	}
}
