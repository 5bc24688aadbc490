package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// cliDoc is the command-line reference, generated from the command tree.
var cliDoc = filepath.Join("..", "..", "docs", "cli.md")

var updateCLIDoc = flag.Bool("update", false, "rewrite docs/cli.md from the command tree")

// cliReference writes the reference of every visible command and flag as
// Markdown: a command's usage line and description as --help prints them,
// and one table row per flag with its help line.
func cliReference(app *cli.App) string {
	var b strings.Builder
	b.WriteString("# Command-line reference\n\n")
	b.WriteString("<!-- Generated from fp's command tree by `make docs`: edit the commands in cmd/fp, not this file. -->\n\n")
	b.WriteString("Every command and flag, as `fp COMMAND --help` prints them. What fp is and how the commands fit\n")
	b.WriteString("together: [the README](../README.md); every formula and default behind the flags:\n")
	b.WriteString("[docs/method.md](method.md).\n\n")
	b.WriteString("| command | what it does |\n|---|---|\n")
	var all []struct {
		path string
		cmd  *cli.Command
	}
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Hidden || c.Name == "help" {
				continue
			}
			path := prefix + c.Name
			all = append(all, struct {
				path string
				cmd  *cli.Command
			}{path, c})
			walk(path+" ", c.Subcommands)
		}
	}
	walk("fp ", app.Commands)
	for _, c := range all {
		fmt.Fprintf(&b, "| [%s](#%s) | %s |\n", c.path, strings.ReplaceAll(c.path, " ", "-"), cell(c.cmd.Usage))
	}
	for _, c := range all {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n", c.path, cell(c.cmd.Usage))
		usage := c.cmd.UsageText
		if usage == "" {
			usage = c.path + " [command options]"
			if c.cmd.ArgsUsage != "" {
				usage += " " + c.cmd.ArgsUsage
			}
		}
		fmt.Fprintf(&b, "```text\n%s\n```\n", usage)
		if d := strings.TrimSpace(c.cmd.Description); d != "" {
			fmt.Fprintf(&b, "\n```text\n%s\n```\n", d)
		}
		var subs []string
		for _, s := range c.cmd.Subcommands {
			if !s.Hidden && s.Name != "help" {
				subs = append(subs, fmt.Sprintf("[%s %s](#%s-%s)", c.path, s.Name, strings.ReplaceAll(c.path, " ", "-"), s.Name))
			}
		}
		if len(subs) > 0 {
			fmt.Fprintf(&b, "\nSubcommands: %s.\n", strings.Join(subs, ", "))
		}
		var rows []string
		for _, f := range c.cmd.Flags {
			if slices.Contains(f.Names(), "help") {
				continue
			}
			if vf, ok := f.(cli.VisibleFlag); ok && !vf.IsVisible() {
				continue
			}
			names, text, _ := strings.Cut(cli.FlagStringer(f), "\t")
			rows = append(rows, fmt.Sprintf("| `%s` | %s |", strings.TrimSpace(names), cell(text)))
		}
		if len(rows) > 0 {
			fmt.Fprintf(&b, "\n| flag | meaning |\n|---|---|\n%s\n", strings.Join(rows, "\n"))
		}
	}
	return b.String()
}

// cell makes text safe in a Markdown table cell: one line, and no
// character that Markdown would read as markup.
var cellEscaper = strings.NewReplacer("\\", "\\\\", "|", "\\|", "*", "\\*", "`", "\\`", "<", "&lt;", "\n", " ")

func cell(s string) string { return cellEscaper.Replace(strings.TrimSpace(s)) }

// docs/cli.md is the reference the command tree generates: a changed
// command or flag fails this test until make docs rewrites the file.
func TestCLIReferenceIsCurrent(t *testing.T) {
	want := cliReference(newApp())
	if *updateCLIDoc {
		if err := os.WriteFile(cliDoc, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(cliDoc)
	if err != nil {
		t.Fatalf("%v (make docs writes it)", err)
	}
	if string(got) == want {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(want, "\n")
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("docs/cli.md is out of date with the command tree (make docs rewrites it); first difference at line %d:\n  file:      %q\n  generated: %q", i+1, g, w)
		}
	}
}

// The reference covers every visible command and flag, and shows no help
// flag, which urfave/cli adds to every command once one has run.
func TestCLIReferenceCoversTheCommands(t *testing.T) {
	if _, _, err := runFP(t, "datasets", "--help"); err != nil {
		t.Fatal(err)
	}
	doc := cliReference(newApp())
	for path := range commandPaths() {
		if !strings.Contains(doc, "\n## fp "+path+"\n") {
			t.Errorf("no section for fp %s", path)
		}
	}
	for _, c := range newApp().Commands {
		for _, f := range c.Flags {
			if n := f.Names()[0]; n != "help" && !strings.Contains(doc, "| `--"+n) {
				t.Errorf("fp %s: no row for --%s", c.Name, n)
			}
		}
	}
	if strings.Contains(doc, "`--help") || strings.Contains(doc, "## fp help") || strings.Contains(doc, "## fp datasets help") {
		t.Error("the reference shows urfave/cli's help flag or command")
	}
}
