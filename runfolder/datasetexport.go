package runfolder

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/model"
)

// DatasetExport is what fp datasets export writes: the rows of the
// built-in dataset Name, or only those of Part (test, selection or train)
// of split Split of the run in Run, raw or, with Coded, as the split's
// networks see them.
type DatasetExport struct {
	Name    string
	Options datasets.Options
	Run     string // "" for every row
	Split   int
	Part    string
	Coded   bool
}

// Write writes the export as a CSV file to out, whole or not at all, and
// returns the line that says what it wrote and the dataset's notes on its
// groups. It refuses an out that is a folder, a file a run keeps, or a file
// the data is read from. Every error starts "datasets export: ".
func (e DatasetExport) Write(out string) (summary string, notes []string, err error) {
	if err := e.checkOut(out); err != nil {
		return "", nil, err
	}
	fail := func(err error) (string, []string, error) { return "", nil, fmt.Errorf("datasets export: %w", err) }
	d, err := datasets.Load(e.Name, e.Options)
	if err != nil {
		return fail(err)
	}
	var b bytes.Buffer
	var n int
	what := e.Name
	if e.Run != "" {
		part, err := LoadRunPart(e.Run, e.Split, e.Part, d)
		if err != nil {
			return fail(err)
		}
		what = fmt.Sprintf("%s (the %s rows of split %d of %s)", e.Name, e.Part, e.Split, e.Run)
		n, err = part.WriteCSV(&b, d, e.Coded)
		if err != nil {
			return fail(err)
		}
	} else if n, err = d.WriteCSVRows(&b, nil); err != nil {
		return fail(err)
	}
	if e.Coded {
		what += ", coded"
	}
	if err := model.WriteFileAtomic(out, b.Bytes()); err != nil {
		return fail(err)
	}
	if d.Levels != nil {
		groups := "the groups " + quoted(d.Levels)
		if e.Coded {
			groups = "the index 0, 1, … of the groups " + quoted(d.Levels)
		}
		return fmt.Sprintf("wrote %d rows of %s to %s (%s: 1 means %q; %s: %s)",
			n, what, out, d.Target, d.LabelPositive, d.Sensitive, groups), d.GroupNotes, nil
	}
	return fmt.Sprintf("wrote %d rows of %s to %s (%s: 1 means %q; %s: 1 means %q, 0 any other value)",
		n, what, out, d.Target, d.LabelPositive, d.Sensitive, d.GroupPositive), d.GroupNotes, nil
}

// checkOut refuses an output path that is a folder, a file of a run
// folder, or one of the original files the dataset is read from.
func (e DatasetExport) checkOut(out string) error {
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		return fmt.Errorf("datasets export: --out %s is a folder; want a file name such as %s.csv", out, e.Name)
	}
	// Nor a file of a run folder (records, networks, configuration).
	if err := CheckOut("datasets export", "--out", out); err != nil {
		return err
	}
	if e.Options.DataDir == "" {
		return nil
	}
	for _, in := range []string{datasets.OriginalFile(e.Name), "adult.test"} {
		if in == "" {
			continue
		}
		if sameFile(out, filepath.Join(e.Options.DataDir, in)) {
			return fmt.Errorf("datasets export: --out %s is the file the data is read from; write elsewhere", out)
		}
	}
	return nil
}

// sameFile reports whether a and b name one existing file.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// quoted lists values, each quoted, separated by commas.
func quoted(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}
