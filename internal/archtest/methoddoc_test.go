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

// methodDoc is the method's index; its pages are the .md files of
// methodDir. Code and docs cite the method's sections as "docs/method.md §N":
// each section number is a heading of exactly one page, and the index links
// every numbered heading on its page.
const (
	methodDoc = "docs/method.md"
	methodDir = "docs/method"
)

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

// methodPages returns the method's pages relative to root, in name order.
func methodPages(t *testing.T) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(root, methodDir, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	var pages []string
	for _, n := range names {
		rel, err := filepath.Rel(root, n)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, filepath.ToSlash(rel))
	}
	slices.Sort(pages)
	return pages
}

// methodHeadings returns each numbered heading of the method's index and
// pages: its number, the page that holds it and its text.
func methodHeadings(t *testing.T) []methodHeading {
	t.Helper()
	var hs []methodHeading
	for _, page := range append([]string{methodDoc}, methodPages(t)...) {
		f, err := os.Open(filepath.Join(root, page))
		if err != nil {
			t.Fatalf("the method document: %v", err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		fence := false
		for sc.Scan() {
			line := sc.Text()
			if fenceLine.MatchString(line) {
				fence = !fence
			}
			if fence {
				continue
			}
			if m := headingNumber.FindStringSubmatch(line); m != nil {
				hs = append(hs, methodHeading{number: m[1], page: page, text: strings.TrimLeft(line, "# ")})
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", page, err)
		}
	}
	return hs
}

type methodHeading struct{ number, page, text string }

// methodSections returns the section numbers the method's pages have; a
// number that heads two sections fails the test, as a citation of it would
// be ambiguous.
func methodSections(t *testing.T) map[string]bool {
	t.Helper()
	secs := map[string]bool{}
	where := map[string]string{}
	for _, h := range methodHeadings(t) {
		if p, ok := where[h.number]; ok {
			t.Errorf("section %s heads both %s and %s: a number names one section", h.number, p, h.page)
		}
		where[h.number] = h.page
		secs[h.number] = true
	}
	return secs
}

// TestMethodIndexLinksEverySection checks that docs/method.md, which the
// citations name, links every numbered section on the page that holds it,
// so that "docs/method.md §N" leads to §N in one step.
func TestMethodIndexLinksEverySection(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, methodDoc))
	if err != nil {
		t.Fatal(err)
	}
	index := string(b)
	pages := methodPages(t)
	if len(pages) == 0 {
		t.Fatalf("%s has no pages", methodDir)
	}
	for _, h := range methodHeadings(t) {
		if h.page == methodDoc {
			continue
		}
		rel, _ := strings.CutPrefix(h.page, "docs/")
		if link := "](" + rel + "#" + githubSlug(h.text) + ")"; !strings.Contains(index, link) {
			t.Errorf("%s does not link §%s (%s): want a link to %s#%s", methodDoc, h.number, h.page, rel, githubSlug(h.text))
		}
	}
}

// TestMethodSectionsAreFixed checks that the method's pages keep the
// sections 1–9 that code, docs and records have cited from the start.
func TestMethodSectionsAreFixed(t *testing.T) {
	secs := methodSections(t)
	for _, n := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"} {
		if !secs[n] {
			t.Errorf("the method (%s, %s) has no section %s: sections 1–9 keep their numbers", methodDoc, methodDir, n)
		}
	}
}

// citation matches a reference to a section of the method document,
// "method.md §5" or "method.md §5.4", and, within the method's index and
// pages, a bare "§5.4".
var (
	citation     = regexp.MustCompile(`method\.md §(\d+(?:\.\d+)*)`)
	bareCitation = regexp.MustCompile(`§(\d+(?:\.\d+)*)`)
)

// TestMethodCitationsResolve checks that every file cites the method by
// sections that exist on one of its pages, and that none cites the former
// specification, which is not part of the repository.
func TestMethodCitationsResolve(t *testing.T) {
	secs := methodSections(t)
	pages := append([]string{methodDoc}, methodPages(t)...)
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
			if slices.Contains(pages, name) {
				re = bareCitation
			}
			for _, m := range re.FindAllStringSubmatch(line, -1) {
				// "§3.2" needs section 3.2; trailing punctuation such as
				// "§3." is not part of the number.
				if n := strings.TrimSuffix(m[1], "."); !secs[n] {
					t.Errorf("%s:%d cites §%s, which no page of the method (%s, %s) has", name, i+1, n, methodDoc, methodDir)
				}
			}
		}
	}
}
