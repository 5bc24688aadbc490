package runfolder

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fpareto/fp/records"
)

// This file is the one rule of which files hold records: every reader of
// records (the resumed run, fp status, the commands that read sweeps, the
// reports and figures) lists them here. Names are read from the folder
// (os.ReadDir), never matched as a pattern, so that a folder named
// runs/a[1] or runs/a\b reads as any other.

// OwnRecordsFiles lists the records files of the run folder dir itself
// (every regular file named *.jsonl: one per shard), sorted: the files a
// resumed run and fp status read. Those of its subfolders are not the
// run's. A folder that does not exist has none.
func OwnRecordsFiles(dir string) ([]string, error) {
	files, _, err := recordsIn(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return files, err
}

// RecordsFiles lists the records files path stands for: path itself when
// it is a file; for a folder, its records files and those of its immediate
// subfolders (shards run apart and copied in, one folder each), sorted by
// path. A folder without any is an error.
func RecordsFiles(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read records: %w", err)
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	files, subs, err := recordsIn(path)
	if err != nil {
		return nil, fmt.Errorf("read records in %s: %w", path, err)
	}
	for _, sub := range subs {
		more, _, err := recordsIn(sub)
		if err != nil {
			return nil, fmt.Errorf("read records in %s: %w", path, err)
		}
		files = append(files, more...)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("read records: no *%s file in %s or its subdirectories", records.Ext, path)
	}
	slices.Sort(files)
	return files, nil
}

// recordsIn lists the records files of dir, sorted, and its subfolders.
// A symbolic link counts as what it points to.
func recordsIn(dir string) (files, subs []string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		mode := e.Type()
		if mode&fs.ModeSymlink != 0 {
			st, err := os.Stat(p)
			if err != nil {
				continue // a dangling link holds nothing
			}
			mode = st.Mode().Type()
		}
		switch {
		case mode.IsDir():
			subs = append(subs, p)
		case mode.IsRegular() && strings.HasSuffix(e.Name(), records.Ext):
			files = append(files, p)
		}
	}
	return files, subs, nil
}

// ReadAll reads the records of every path, in order. A path is a records
// file or a folder, which stands for its records files (RecordsFiles).
//
// The records of one folder must all belong to one sweep configuration
// (Record.Config): a folder mixing several is an error, so that sweeps are
// not mixed by accident. Files named separately may come from different
// configurations; that is how sweeps are compared.
//
// A torn last line of a file is skipped and reported among the warnings (as
// a *records.TornLineError); any other problem is an error naming the file
// (and line). Failed records are returned too; see records.Succeeded. Each
// record's Source is the path it was read through and its File the records
// file it was read from.
func ReadAll(paths []string) (recs []records.Record, warnings []error, err error) {
	if len(paths) == 0 {
		return nil, nil, errors.New("read records: no file or directory given")
	}
	for _, p := range paths {
		files, err := RecordsFiles(p)
		if err != nil {
			return nil, nil, err
		}
		first := len(recs)
		for _, f := range files {
			rs, err := readFile(f)
			var torn *records.TornLineError
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
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			if err := sameConfig(p, recs[first:]); err != nil {
				return nil, nil, err
			}
		}
	}
	return recs, warnings, nil
}

// ReadRecords reads the records files of the run folder dir itself
// (OwnRecordsFiles), as a resumed run does. A torn last line (a crash
// during an append) is dropped: that candidate is simply trained again.
func ReadRecords(dir string) ([]records.Record, error) {
	files, err := OwnRecordsFiles(dir)
	if err != nil {
		return nil, err
	}
	var all []records.Record
	for _, f := range files {
		recs, err := readFile(f)
		var torn *records.TornLineError
		if err != nil && !errors.As(err, &torn) {
			return nil, err
		}
		all = append(all, recs...)
	}
	return all, nil
}

// readFile is records.Read with each record's File set.
func readFile(path string) ([]records.Record, error) {
	recs, err := records.Read(path)
	for i := range recs {
		recs[i].File = path
	}
	return recs, err
}

// sameConfig checks that the records read from dir share one configuration.
func sameConfig(dir string, recs []records.Record) error {
	for i := 1; i < len(recs); i++ {
		if recs[i].Config != recs[0].Config {
			return fmt.Errorf("records in %s mix sweep configurations %q (%s) and %q (%s): "+
				"name the files of each sweep separately to compare them",
				dir, recs[0].Config, recs[0].Key(), recs[i].Config, recs[i].Key())
		}
	}
	return nil
}

// Sweeps are the records of the files and sweep folders a command was
// given, read once (ReadAll) for every part of the command: its table, its
// candidates and its overlap lines see the same files.
type Sweeps struct {
	Paths    []string
	All      []records.Record // every record read, failed candidates too
	OK       []records.Record // the candidates that trained successfully
	Failed   int              // the failed candidates, left out of OK
	Warnings []error          // torn last lines, skipped
}

// ReadSweeps reads the records of paths (files or sweep folders); no
// successful candidate at all is an error.
func ReadSweeps(paths []string) (*Sweeps, error) {
	all, warnings, err := ReadAll(paths)
	if err != nil {
		return nil, err
	}
	ok, failed := records.Succeeded(all)
	s := &Sweeps{Paths: paths, All: all, OK: ok, Failed: failed, Warnings: warnings}
	if len(ok) == 0 {
		return s, fmt.Errorf("no successful candidate in %s", strings.Join(paths, ", "))
	}
	return s, nil
}
