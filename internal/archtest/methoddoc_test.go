package archtest

import (
	"bufio"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// root is the module root, seen from this package's folder (go test runs
// a package's tests in its own folder).
const root = "../.."

// methodDoc is the document that states the method; code and docs cite its
// sections as "docs/method.md §N".
const methodDoc = "docs/method.md"

// sourceFiles lists the module's .go and .md files relative to root: the
// files git tracks when the module is a git checkout (so that a user's
// untracked notes never fail the test), else every such file outside
// hidden folders.
func sourceFiles(t *testing.T) []string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z", "--", "*.go", "*.md")
	cmd.Dir = root
	if out, err := cmd.Output(); err == nil && len(out) > 0 {
		return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	}
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".md")) {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("list the module's files: %v", err)
	}
	return files
}

// headingNumber matches a numbered heading of the method document:
// "## 3. Objectives" or "### 3.4 Standardization".
var headingNumber = regexp.MustCompile(`^#{2,6} (\d+(?:\.\d+)*)\.? `)

// methodSections returns the section numbers the method document has.
func methodSections(t *testing.T) map[string]bool {
	t.Helper()
	f, err := os.Open(filepath.Join(root, methodDoc))
	if err != nil {
		t.Fatalf("the method document: %v", err)
	}
	defer f.Close()
	secs := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := headingNumber.FindStringSubmatch(sc.Text()); m != nil {
			secs[m[1]] = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", methodDoc, err)
	}
	return secs
}

// TestMethodSectionsAreFixed checks that the method document keeps the
// sections 1–9 that code, docs and records have cited from the start.
func TestMethodSectionsAreFixed(t *testing.T) {
	secs := methodSections(t)
	for _, n := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"} {
		if !secs[n] {
			t.Errorf("%s has no section %s: sections 1–9 keep their numbers", methodDoc, n)
		}
	}
}

// citation matches a reference to a section of the method document,
// "method.md §5" or "method.md §5.4", and, within the method document
// itself, a bare "§5.4".
var (
	citation     = regexp.MustCompile(`method\.md §(\d+(?:\.\d+)*)`)
	bareCitation = regexp.MustCompile(`§(\d+(?:\.\d+)*)`)
)

// TestMethodCitationsResolve checks that every file cites the method by
// sections of docs/method.md that exist, and that none cites the former
// specification, which is not part of the repository.
func TestMethodCitationsResolve(t *testing.T) {
	secs := methodSections(t)
	// Built from parts so that this file does not match itself.
	former := "SPEC" + " §"
	files := sourceFiles(t)
	if !slices.Contains(files, methodDoc) {
		t.Fatalf("%s is missing from the module's files", methodDoc)
	}
	for _, name := range files {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, former) {
				t.Errorf("%s:%d cites %q, which is not in the repository: cite %s §N", name, i+1, former+"N", methodDoc)
			}
			re := citation
			if name == methodDoc {
				re = bareCitation
			}
			for _, m := range re.FindAllStringSubmatch(line, -1) {
				// "§3.2" needs section 3.2; trailing punctuation such as
				// "§3." is not part of the number.
				if n := strings.TrimSuffix(m[1], "."); !secs[n] {
					t.Errorf("%s:%d cites §%s, which %s does not have", name, i+1, n, methodDoc)
				}
			}
		}
	}
}
