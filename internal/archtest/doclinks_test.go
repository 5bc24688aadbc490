package archtest

import (
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// fenceLine opens or closes a fenced code block.
var fenceLine = regexp.MustCompile("^ {0,3}(```|~~~)")

// markdownHeading is an ATX heading: its text is group 2.
var markdownHeading = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)

// inlineLink is a Markdown link or image, [text](target) or
// ![alt](target "title"); the text may hold one level of brackets.
var inlineLink = regexp.MustCompile(`!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)`)

// codeSpan is inline code, whose brackets are not links.
var codeSpan = regexp.MustCompile("`[^`]*`")

// githubSlug is the anchor GitHub gives a heading: its text lower-cased,
// every character that is not a letter, mark, digit, space, hyphen or
// underscore removed, spaces turned into hyphens. Links and code marks are
// read as their text.
func githubSlug(heading string) string {
	heading = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`).ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsNumber(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// markdownLines returns the lines of a Markdown file that are prose: those
// outside fenced code blocks.
func markdownLines(text string) []string {
	var out []string
	fence := false
	for _, line := range strings.Split(text, "\n") {
		if fenceLine.MatchString(line) {
			fence = !fence
			out = append(out, "")
			continue
		}
		if fence {
			out = append(out, "")
			continue
		}
		out = append(out, line)
	}
	return out
}

// anchors returns the anchors of a Markdown file's headings, numbered as
// GitHub numbers repeated ones ("x", "x-1", "x-2").
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, line := range markdownLines(text) {
		m := markdownHeading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		s := githubSlug(m[2])
		if n, ok := seen[s]; ok {
			seen[s] = n + 1
			out[s+"-"+strconv.Itoa(n+1)] = true
			continue
		}
		seen[s] = 0
		out[s] = true
	}
	return out
}

// TestDocLinksResolve checks that every relative link of every Markdown file
// (README.md, docs/, results/, …) names a file or folder that exists, and,
// for a link into a Markdown file, a heading that file has.
func TestDocLinksResolve(t *testing.T) {
	texts := map[string]string{}
	read := func(name string) (string, bool) {
		if s, ok := texts[name]; ok {
			return s, true
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			return "", false
		}
		texts[name] = string(b)
		return string(b), true
	}
	n := 0
	for _, name := range sourceFiles(t) {
		if !strings.HasSuffix(name, ".md") {
			continue
		}
		text, ok := read(name)
		if !ok {
			t.Fatalf("%s: cannot read it", name)
		}
		for i, line := range markdownLines(text) {
			line = codeSpan.ReplaceAllString(line, "")
			for _, m := range inlineLink.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				n++
				file, frag, _ := strings.Cut(target, "#")
				if p, err := url.PathUnescape(file); err == nil {
					file = p
				}
				if f, err := url.PathUnescape(frag); err == nil {
					frag = f
				}
				dest := name
				if file != "" {
					if strings.HasPrefix(file, "/") {
						dest = path.Clean(strings.TrimPrefix(file, "/"))
					} else {
						dest = path.Join(path.Dir(name), file)
					}
				}
				if strings.HasPrefix(dest, "../") {
					t.Errorf("%s:%d: link %q leaves the repository", name, i+1, target)
					continue
				}
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(dest))); err != nil {
					t.Errorf("%s:%d: link %q: %s does not exist", name, i+1, target, dest)
					continue
				}
				if frag == "" || !strings.HasSuffix(dest, ".md") {
					continue
				}
				destText, ok := read(dest)
				if !ok {
					t.Errorf("%s:%d: link %q: cannot read %s", name, i+1, target, dest)
					continue
				}
				if !anchors(destText)[frag] {
					t.Errorf("%s:%d: link %q: %s has no heading #%s", name, i+1, target, dest, frag)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no relative links found: the link pattern is broken")
	}
}

// generatedDocs are written by a program (make docs) and have no size cap.
var generatedDocs = map[string]bool{"docs/cli.md": true}

// TestDocPagesStayReadable checks the size of the hand-written pages: the
// README at most 20 KiB, every other page of docs/ and results/ at most
// 30 KiB. A page past its cap is split by topic, not trimmed.
func TestDocPagesStayReadable(t *testing.T) {
	for _, name := range sourceFiles(t) {
		if !strings.HasSuffix(name, ".md") || generatedDocs[name] {
			continue
		}
		limit := 0
		switch {
		case name == "README.md":
			limit = 20 << 10
		case strings.HasPrefix(name, "docs/"), strings.HasPrefix(name, "results/"):
			limit = 30 << 10
		default:
			continue
		}
		fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > int64(limit) {
			t.Errorf("%s is %d bytes, over its %d: split it by topic and link the parts", name, fi.Size(), limit)
		}
	}
}

func TestGithubSlug(t *testing.T) {
	for in, want := range map[string]string{
		"8.4 Hypervolume and share":                           "84-hypervolume-and-share",
		"12. The λ-conditioned network":                       "12-the-λ-conditioned-network",
		"`fp train`":                                          "fp-train",
		"Lockstep: a split's candidates at once":              "lockstep-a-splits-candidates-at-once",
		"Decision metrics: fp and Fairlearn on the same rows": "decision-metrics-fp-and-fairlearn-on-the-same-rows",
		"1.1 UCI Adult (`adult-sex`, `adult-race`)":           "11-uci-adult-adult-sex-adult-race",
		"Reproducing *The Fairness-Accuracy Pareto Front*":    "reproducing-the-fairness-accuracy-pareto-front",
		"fp — the fairness–accuracy Pareto front":             "fp--the-fairnessaccuracy-pareto-front",
		"adv_version and [a link](x.md)":                      "adv_version-and-a-link",
	} {
		if got := githubSlug(in); got != want {
			t.Errorf("githubSlug(%q) = %q, want %q", in, got, want)
		}
	}
}
