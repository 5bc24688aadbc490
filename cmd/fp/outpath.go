package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// An input is a path a command reads: a flag's value (flag "--data") or a
// positional argument (flag "").
type input struct{ flag, path string }

func (in input) String() string {
	if in.flag == "" {
		return "the input " + in.path
	}
	return in.flag + " " + in.path
}

// inputs returns the positional arguments paths as inputs.
func inputs(paths []string) []input {
	out := make([]input, len(paths))
	for i, p := range paths {
		out[i] = input{path: p}
	}
	return out
}

// recordsName matches the names of records files and their locks.
var recordsName = regexp.MustCompile(`^records(-shard-\d+-of-\d+)?\.jsonl(\.lock)?$`)

// checkOut refuses, in one line, an output path out (of command cmd, given
// with flag) that would overwrite one of the command's inputs or a file of
// a run folder: its records and their locks, configuration, invocation
// log, stored networks (networks/**.json) or per-split files
// (splits/**.json: propensity models, standardization constants). Every
// command that writes a file checks its output with it before reading
// anything; fp train --out, which resumes the folder it names, is the one
// exception. Paths are compared after resolving symbolic links, and an
// existing output is compared with the inputs by file identity too, which
// catches hard links. An empty out (standard output) passes.
func checkOut(cmd, flag, out string, inputs ...input) error {
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
		if in.path == "" {
			continue
		}
		if resolved[i], err = resolve(in.path); err != nil {
			return fmt.Errorf("%s: %s: %w", cmd, in, err)
		}
		if resolved[i] == rout {
			return refuse("is %s: the output would replace it", in)
		}
	}
	if recordsName.MatchString(filepath.Base(rout)) {
		return refuse("is named as a records file, which fp would read as records")
	}
	if run, rel, ok := inRunFolder(rout); ok {
		if what := runFile(rel); what != "" {
			return refuse("is %s of the run in %s: the output would replace it", what, run)
		}
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
			files, _ := filepath.Glob(filepath.Join(resolved[i], "*.jsonl"))
			same = append(files, filepath.Join(resolved[i], "config.json"))
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

// runFile says what the path rel (slash-separated, relative to a run
// folder) holds, "" for a file fp does not keep there (a figure or a page
// beside the records, an ONNX export beside its network).
func runFile(rel string) string {
	top, _, nested := strings.Cut(rel, "/")
	json := strings.HasSuffix(rel, ".json")
	switch {
	case nested && top == "networks" && json:
		return "a stored network"
	case nested && top == "splits" && json:
		return "a per-split file (propensity model, standardization, overlap)"
	case rel == "networks" || rel == "splits":
		return "a folder"
	case rel == "config.json":
		return "the configuration"
	case rel == "runs.log":
		return "the invocation log"
	case strings.HasSuffix(rel, ".jsonl") || strings.HasSuffix(rel, ".jsonl.lock"):
		return "a records file"
	}
	return ""
}

// inRunFolder returns the run folder that holds path (the nearest folder
// above it with a config.json and records, a runs.log, networks/ or
// splits/ beside it) and path relative to it.
func inRunFolder(path string) (run, rel string, ok bool) {
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		if isRunFolder(dir) {
			rel, err := filepath.Rel(dir, path)
			return dir, filepath.ToSlash(rel), err == nil
		}
		if parent := filepath.Dir(dir); parent == dir {
			return "", "", false
		}
	}
}

func isRunFolder(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, "config.json")); err != nil {
		return false
	}
	for _, p := range []string{"runs.log", "networks", "splits"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			return true
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	return len(files) > 0
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
