package records

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Ext is the extension of records files.
const Ext = ".jsonl"

// ReadAll reads the records of every path, in order. A path is either a
// records file or a directory; a directory stands for every *.jsonl file in
// it and in its immediate subdirectories (shards may write one file each),
// in lexical order.
//
// The records of one directory must all belong to one sweep configuration
// (Record.Config): a directory mixing several is an error, so that sweeps
// are not mixed by accident. Files named separately may come from different
// configurations; that is how sweeps are compared.
//
// A torn last line of a file is skipped and reported among the warnings (as
// a *TornLineError); any other problem is an error naming the file (and
// line). Failed records are returned too; see Succeeded. Each record's
// Source is the path it was read through.
func ReadAll(paths []string) (recs []Record, warnings []error, err error) {
	if len(paths) == 0 {
		return nil, nil, errors.New("read records: no file or directory given")
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, nil, fmt.Errorf("read records: %w", err)
		}
		files := []string{p}
		if st.IsDir() {
			if files, err = dirFiles(p); err != nil {
				return nil, nil, err
			}
		}
		first := len(recs)
		for _, f := range files {
			rs, err := Read(f)
			var torn *TornLineError
			if errors.As(err, &torn) {
				warnings = append(warnings, err)
			} else if err != nil {
				return nil, nil, err
			}
			for i := range rs {
				rs[i].Source = p
			}
			recs = append(recs, rs...)
		}
		if st.IsDir() {
			if err := sameConfig(p, recs[first:]); err != nil {
				return nil, nil, err
			}
		}
	}
	return recs, warnings, nil
}

// dirFiles lists the records files of dir and of its immediate
// subdirectories.
func dirFiles(dir string) ([]string, error) {
	top, err := filepath.Glob(filepath.Join(globEscape(dir), "*"+Ext))
	if err != nil {
		return nil, fmt.Errorf("read records in %s: %w", dir, err)
	}
	sub, err := filepath.Glob(filepath.Join(globEscape(dir), "*", "*"+Ext))
	if err != nil {
		return nil, fmt.Errorf("read records in %s: %w", dir, err)
	}
	var files []string
	for _, f := range append(top, sub...) {
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("read records: no *%s file in %s or its subdirectories", Ext, dir)
	}
	slices.Sort(files)
	return files, nil
}

// globEscape quotes the pattern characters of a literal path.
func globEscape(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// sameConfig checks that the records read from dir share one configuration.
func sameConfig(dir string, recs []Record) error {
	for i := 1; i < len(recs); i++ {
		if recs[i].Config != recs[0].Config {
			return fmt.Errorf("records in %s mix sweep configurations %q (%s) and %q (%s): "+
				"name the files of each sweep separately to compare them",
				dir, recs[0].Config, recs[0].Key(), recs[i].Config, recs[i].Key())
		}
	}
	return nil
}

// Succeeded returns the records of candidates that trained to the end and
// the number of failed ones left out.
func Succeeded(recs []Record) (ok []Record, failed int) {
	ok = make([]Record, 0, len(recs))
	for i := range recs {
		if recs[i].OK() {
			ok = append(ok, recs[i])
		} else {
			failed++
		}
	}
	return ok, failed
}
