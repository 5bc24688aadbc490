package main

import (
	"github.com/fpareto/fp/internal/shellword"

	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/xrash/smetrics"
)

// argHints says, for a command that takes no arguments, which flag a stray
// argument was probably meant for: urfave/cli stops reading flags at the
// first argument, so "fp train myrun --epochs 1" would otherwise train the
// default sweep into the default folder.
var argHints = map[string]struct{ flag, what string }{
	"fp train":   {"out", "the output folder"},
	"fp predict": {"data", "the file to score"},
	"fp audit":   {"data", "the predictions file"},
	"fp export":  {"model", "the network file"},
	"fp bench":   {"dataset", "the dataset"},
}

// strict makes cmd (named path, e.g. "fp train") and its subcommands refuse
// what urfave/cli would otherwise pass over or answer with the whole help:
// arguments to a command that takes none, a mistyped flag (one line with
// the nearest flag and one usage line, on stderr), a missing required flag.
func strict(path string, cmd *cli.Command) {
	for _, sub := range cmd.Subcommands {
		strict(path+" "+sub.Name, sub)
	}
	cmd.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
		return newUsageError(path, cmd, describeFlagError(err, cmd.Flags))
	}
	// urfave/cli answers a missing required flag with the whole help; the
	// check below says which flag in one line instead.
	var required []string
	for _, f := range cmd.Flags {
		if sf, ok := f.(*cli.StringFlag); ok && sf.Required {
			sf.Required = false
			if !strings.Contains(sf.Usage, "(required)") {
				sf.Usage += " (required)"
			}
			required = append(required, sf.Name)
		}
	}
	takesArgs := cmd.ArgsUsage != "" || len(cmd.Subcommands) > 0
	before := cmd.Before
	cmd.Before = func(c *cli.Context) error {
		if !takesArgs {
			if err := noArgs(c, path); err != nil {
				return err
			}
		}
		for _, name := range required {
			if !c.IsSet(name) {
				return newUsageError(path, cmd, fmt.Sprintf("--%s is required", name))
			}
		}
		if before != nil {
			return before(c)
		}
		return nil
	}
}

// strictApp gives the app's own flags the same one-line usage errors.
func strictApp(app *cli.App) {
	app.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
		return &usageError{msg: describeFlagError(err, app.Flags), usage: "usage: fp COMMAND [flags]; fp --help lists the commands"}
	}
}

// usageError is a command line fp cannot read: the error is one line, and
// main prints the command's usage line after it (not the whole help).
type usageError struct{ msg, usage string }

func (e *usageError) Error() string { return e.msg }

// newUsageError is msg for the command at path with its usage line.
func newUsageError(path string, cmd *cli.Command, msg string) error {
	return &usageError{msg: strings.TrimPrefix(path, "fp ") + ": " + msg, usage: usageLine(path, cmd)}
}

// usageLine is the command's synopsis in one line and where the rest is.
func usageLine(path string, cmd *cli.Command) string {
	if cmd.UsageText != "" {
		return "usage: " + cmd.UsageText + "; " + path + " --help lists the flags"
	}
	u := "usage: " + path + " [flags]"
	if cmd.ArgsUsage != "" {
		u += " " + cmd.ArgsUsage
	}
	return u + "; " + path + " --help lists the flags"
}

// noArgs refuses the arguments of a command that takes none, naming them
// and saying that the flags after them were not read.
func noArgs(c *cli.Context, path string) error {
	args := c.Args().Slice()
	if len(args) == 0 || args[0] == "help" || args[0] == "h" {
		return nil // urfave/cli's help subcommand: "fp train help"
	}
	var stray []string
	flagsAfter := false
	for _, a := range args {
		if strings.HasPrefix(a, "-") && a != "-" {
			flagsAfter = true
			break
		}
		stray = append(stray, fmt.Sprintf("%q", a))
	}
	msg := "unexpected argument " + stray[0]
	if len(stray) > 1 {
		msg = "unexpected arguments " + strings.Join(stray, ", ")
	}
	if flagsAfter {
		msg += " (flags after it were not read)"
	}
	if hint, ok := argHints[path]; ok && !c.IsSet(hint.flag) {
		msg += fmt.Sprintf("; %s is --%s %s", hint.what, hint.flag, shellword.Quote(args[0]))
	} else {
		msg += "; " + path + " takes flags only (" + path + " --help lists them)"
	}
	return errors.New(strings.TrimPrefix(path, "fp ") + ": " + msg)
}

// notDefined matches the flag package's error for an unknown flag.
var notDefined = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)

// singleDash matches the flag package's "-name" in its other errors.
var singleDash = regexp.MustCompile(`(^|[ :])-([A-Za-z][\w-]*)`)

// describeFlagError rewrites a flag-parsing error in fp's terms: flags with
// two dashes, and for an unknown flag the nearest one of flags.
func describeFlagError(err error, flags []cli.Flag) string {
	msg := err.Error()
	if m := notDefined.FindStringSubmatch(msg); m != nil {
		return "unknown flag --" + m[1] + suggestFlag(m[1], flags)
	}
	return singleDash.ReplaceAllString(msg, "$1--$2")
}

// suggestFlag returns "; did you mean --X?" for the flag of flags nearest to
// name, or "" when none is near.
func suggestFlag(name string, flags []cli.Flag) string {
	var names []string
	for _, f := range flags {
		names = append(names, f.Names()...)
	}
	if best := nearest(name, names); best != "" {
		return "; did you mean --" + best + "?"
	}
	return ""
}

// nearest returns the candidate closest to name by Jaro–Winkler similarity,
// or "" when none is similar enough to be a likely misspelling.
func nearest(name string, candidates []string) string {
	best, score := "", 0.0
	for _, c := range candidates {
		if s := smetrics.JaroWinkler(name, c, 0.7, 4); s > score || (s == score && len(c) < len(best)) {
			best, score = c, s
		}
	}
	if score < 0.75 {
		return ""
	}
	return best
}
