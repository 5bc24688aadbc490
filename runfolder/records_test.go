package runfolder

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fpareto/fp/records"
)

// writeRecords writes one record per λ to path (making its folder), of the
// sweep configuration config, then tail, unterminated (a torn line when
// not "").
func writeRecords(t *testing.T, path, config, tail string, lambdas ...float64) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := records.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lambdas {
		r := records.Record{Method: "cheb", Lambda: l, Config: config, Status: records.StatusOK}
		if err := w.Append(&r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if tail != "" {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(tail)
		f.Close()
	}
}

// One rule for which files hold records, whatever the folder is named:
// a file given is read as it is; a folder stands for its *.jsonl files and
// those of its immediate subfolders (not deeper, not other names), in the
// order of their paths; a torn last line is skipped with a warning; and
// the records of a folder belong to one configuration.
func TestReadAll(t *testing.T) {
	const torn = `{"method":"cheb","lam`
	type file struct {
		path    string // relative to the sweep folder
		config  string
		tail    string
		lambdas []float64
	}
	plain := []file{
		{"records.jsonl", "c", "", []float64{0, 1}},
		{"notes.txt", "c", "", []float64{7}},           // not a records file
		{"cache/old.jsonl.bak", "c", "", []float64{8}}, // nor this
	}
	nested := []file{
		{"records-shard-1-of-2.jsonl", "c", "", []float64{0.5}},
		{"a/records.jsonl", "c", "", []float64{0.25}},
		{"b/records-shard-0-of-2.jsonl", "c", "", []float64{0.75}},
		{"b/deep/records.jsonl", "c", "", []float64{9}}, // two levels down: another sweep's
	}
	for _, tc := range []struct {
		name    string
		folder  string // the sweep folder's name
		files   []file
		arg     string // the path read, relative to the sweep folder ("" for the folder)
		lambdas []float64
		torn    int // warnings of torn lines
		err     string
	}{
		{name: "plain folder", folder: "run", files: plain, lambdas: []float64{0, 1}},
		{name: "brackets", folder: "a[1]", files: plain, lambdas: []float64{0, 1}},
		{name: "brackets, a backslash and a star", folder: `a[1]\b*?`, files: plain, lambdas: []float64{0, 1}},
		{name: "lone bracket", folder: "x]y[", files: plain, lambdas: []float64{0, 1}},
		// Sorted by path: a/, b/, then the folder's own files.
		{name: "nested subfolders", folder: "s[0]", files: nested, lambdas: []float64{0.25, 0.75, 0.5}},
		{name: "records file given", folder: "f[1]", files: nested, arg: "b/records-shard-0-of-2.jsonl", lambdas: []float64{0.75}},
		{name: "a file given need not be named *.jsonl", folder: "g", files: plain, arg: "notes.txt", lambdas: []float64{7}},
		{name: "torn last line", folder: "t[2]", files: []file{{"records.jsonl", "c", torn, []float64{0, 1}}}, lambdas: []float64{0, 1}, torn: 1},
		{name: "torn in a subfolder", folder: "t", files: []file{{"x/records.jsonl", "c", torn, []float64{0.5}}}, lambdas: []float64{0.5}, torn: 1},
		{name: "two configurations in a folder", folder: "m[1]", files: []file{{"a/r.jsonl", "c1", "", []float64{0}}, {"b/r.jsonl", "c2", "", []float64{1}}},
			err: "mix sweep configurations"},
		{name: "no records file", folder: "e[1]", files: []file{{"notes.txt", "c", "", nil}}, err: "no *.jsonl file"},
		{name: "missing", folder: "n[1]", arg: "nope.jsonl", err: "nope.jsonl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), tc.folder)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, f := range tc.files {
				writeRecords(t, filepath.Join(dir, filepath.FromSlash(f.path)), f.config, f.tail, f.lambdas...)
			}
			arg := dir
			if tc.arg != "" {
				arg = filepath.Join(dir, filepath.FromSlash(tc.arg))
			}
			recs, warnings, err := ReadAll([]string{arg})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var lambdas []float64
			for _, r := range recs {
				lambdas = append(lambdas, r.Lambda)
				if r.Source != arg {
					t.Errorf("λ = %g: Source %q, want %q", r.Lambda, r.Source, arg)
				}
				if filepath.Dir(r.File) != dir && filepath.Dir(filepath.Dir(r.File)) != dir {
					t.Errorf("λ = %g: File %q, not in %s or a subfolder", r.Lambda, r.File, dir)
				}
			}
			if !slices.Equal(lambdas, tc.lambdas) {
				t.Errorf("λ of the records read = %v, want %v", lambdas, tc.lambdas)
			}
			var tl *records.TornLineError
			if len(warnings) != tc.torn || (tc.torn > 0 && !errors.As(warnings[0], &tl)) {
				t.Errorf("warnings %v, want %d torn line(s)", warnings, tc.torn)
			}
		})
	}
}

// Separate paths may hold different configurations (that is how sweeps are
// compared); no path at all is an error.
func TestReadAllPaths(t *testing.T) {
	dir := t.TempDir()
	writeRecords(t, filepath.Join(dir, "one", "r.jsonl"), "c1", "", 0)
	writeRecords(t, filepath.Join(dir, "two", "r.jsonl"), "c2", "", 1)
	recs, _, err := ReadAll([]string{filepath.Join(dir, "one"), filepath.Join(dir, "two", "r.jsonl")})
	if err != nil || len(recs) != 2 {
		t.Fatalf("separate sweeps: %d records, %v", len(recs), err)
	}
	if _, _, err := ReadAll(nil); err == nil || !strings.Contains(err.Error(), "no file or directory") {
		t.Errorf("no path: error %v", err)
	}
	bad := filepath.Join(dir, "bad")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, "r.jsonl"), []byte("{}\nnot json\n{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadAll([]string{bad}); err == nil || !strings.Contains(err.Error(), filepath.Join(bad, "r.jsonl")+":2:") {
		t.Errorf("a bad line: error %v, want one naming the file and line", err)
	}
}

// A run's own records files are those at its top, whatever its name; a
// folder not yet made has none. Symbolic links count as what they point
// to.
func TestOwnRecordsFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), `r[1]\x`)
	writeRecords(t, filepath.Join(dir, RecordsFile(Shard{1, 2})), "c", "", 0)
	writeRecords(t, filepath.Join(dir, RecordsFile(Shard{0, 2})), "c", "", 1)
	writeRecords(t, filepath.Join(dir, "sub", "records.jsonl"), "c", "", 2)
	if err := os.Mkdir(filepath.Join(dir, "folder.jsonl"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "sub", "records.jsonl"), filepath.Join(dir, "linked.jsonl")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "gone"), filepath.Join(dir, "dangling.jsonl")); err != nil {
		t.Fatal(err)
	}
	got, err := OwnRecordsFiles(dir)
	want := []string{filepath.Join(dir, "linked.jsonl"), filepath.Join(dir, RecordsFile(Shard{0, 2})), filepath.Join(dir, RecordsFile(Shard{1, 2}))}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("OwnRecordsFiles = %q, %v; want %q", got, err, want)
	}
	if got, err := OwnRecordsFiles(filepath.Join(dir, "none")); got != nil || err != nil {
		t.Errorf("a missing folder: %q, %v; want none", got, err)
	}
}
