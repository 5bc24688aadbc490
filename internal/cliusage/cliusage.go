package cliusage

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/internal/shellword"
	"github.com/fpareto/fp/internal/suggest"
)

// Hint says, for a command that takes no arguments, which flag a stray
// argument was probably meant for (Flag, without dashes) and what that
// flag names (What): urfave/cli stops reading flags at the first argument,
// so "fp train myrun --epochs 1" would otherwise run without --out.
type Hint struct{ Flag, What string }

// Strict makes cmd (named path, e.g. "fp train") and its subcommands refuse
// arguments to a command that takes none, a mistyped flag and a missing
// required flag, each in one line. hints holds the Hint of each command
// path that has one.
func Strict(path string, cmd *cli.Command, hints map[string]Hint) {
	for _, sub := range cmd.Subcommands {
		Strict(path+" "+sub.Name, sub, hints)
	}
	cmd.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
		return NewError(path, cmd, describeFlagError(err, cmd.Flags))
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
	hint, hasHint := hints[path]
	before := cmd.Before
	cmd.Before = func(c *cli.Context) error {
		if !takesArgs {
			if err := noArgs(c, path, hint, hasHint); err != nil {
				return err
			}
		}
		for _, name := range required {
			if !c.IsSet(name) {
				return NewError(path, cmd, fmt.Sprintf("--%s is required", name))
			}
		}
		if before != nil {
			return before(c)
		}
		return nil
	}
}

// StrictApp gives the app's own flags the same one-line usage errors.
func StrictApp(app *cli.App) {
	app.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
		return &Error{Msg: describeFlagError(err, app.Flags), Usage: "usage: fp COMMAND [flags]; fp --help lists the commands"}
	}
}

// Error is a command line that cannot be read: Msg is one line, and the
// program prints Usage, the command's usage line, after it (not the whole
// help).
type Error struct{ Msg, Usage string }

func (e *Error) Error() string { return e.Msg }

// NewError is msg for the command at path with its usage line.
func NewError(path string, cmd *cli.Command, msg string) error {
	return &Error{Msg: strings.TrimPrefix(path, "fp ") + ": " + msg, Usage: usageLine(path, cmd)}
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

// NoArgs refuses the arguments of the command at path when it takes none,
// naming them and saying that the flags after them were not read.
func NoArgs(c *cli.Context, path string) error { return noArgs(c, path, Hint{}, false) }

func noArgs(c *cli.Context, path string, hint Hint, hasHint bool) error {
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
	if hasHint && !c.IsSet(hint.Flag) {
		msg += fmt.Sprintf("; %s is --%s %s", hint.What, hint.Flag, shellword.Quote(args[0]))
	} else {
		msg += "; " + path + " takes flags only (" + path + " --help lists them)"
	}
	return errors.New(strings.TrimPrefix(path, "fp ") + ": " + msg)
}

// notDefined matches the flag package's error for an unknown flag.
var notDefined = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)

// singleDash matches the flag package's "-name" in its other errors.
var singleDash = regexp.MustCompile(`(^|[ :])-([A-Za-z][\w-]*)`)

// describeFlagError rewrites a flag-parsing error with flags written with
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
	if best := suggest.Nearest(name, names); best != "" {
		return "; did you mean --" + best + "?"
	}
	return ""
}

// ArgsAndFlags returns the positional arguments of c after applying the
// command's flags that follow them: urfave/cli stops reading flags at the
// first argument, yet "fp front DIR --json" is the natural way to type a
// command over files. Everything after "--" is an argument.
func ArgsAndFlags(c *cli.Context) ([]string, error) {
	var args []string
	in := c.Args().Slice()
	for i := 0; i < len(in); i++ {
		a := in[i]
		if a == "--" {
			args = append(args, in[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			args = append(args, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		var flag cli.Flag
		for _, f := range c.Command.Flags {
			if slices.Contains(f.Names(), name) {
				flag = f
			}
		}
		if flag == nil {
			return nil, &Error{Msg: "unknown flag --" + name + suggestFlag(name, c.Command.Flags), Usage: usageLine(c.Command.HelpName, c.Command)}
		}
		if _, isBool := flag.(*cli.BoolFlag); isBool {
			if !hasValue {
				value = "true"
			}
		} else if !hasValue {
			if i+1 == len(in) {
				return nil, &Error{Msg: "flag needs an argument: " + a, Usage: usageLine(c.Command.HelpName, c.Command)}
			}
			i++
			value = in[i]
		}
		// Said as the flag package says it of a flag before the arguments.
		if err := c.Set(name, value); err != nil {
			return nil, &Error{Msg: fmt.Sprintf("invalid value %q for flag --%s: %v", value, name, err), Usage: usageLine(c.Command.HelpName, c.Command)}
		}
	}
	return args, nil
}

// HideZeroDefaults makes help show a flag's default once, and only a true
// one: urfave/cli appends the zero value, which for fp's flags means "not
// set" (the usage then says what applies) rather than 0 or false. It sets
// urfave/cli's FlagStringer, for every command of the program.
func HideZeroDefaults() {
	stringer := cli.FlagStringer
	cli.FlagStringer = func(f cli.Flag) string {
		s := stringer(f)
		if df, ok := f.(cli.DocGenerationFlag); ok {
			switch d := df.GetDefaultText(); d {
			case "0", "false":
				s = strings.Replace(s, " (default: "+d+")", "", 1)
			}
		}
		return s
	}
}

// UnknownCommand is the action of an app whose first argument names no
// command: it says so and suggests the nearest command, else lists them;
// with no argument it shows the help.
func UnknownCommand(c *cli.Context) error {
	if c.NArg() == 0 {
		return cli.ShowAppHelp(c)
	}
	name := c.Args().First()
	var names []string
	for _, cmd := range c.App.VisibleCommands() {
		if cmd.Name != "help" {
			names = append(names, cmd.Name)
		}
	}
	if best := suggest.Nearest(name, names); best != "" {
		return fmt.Errorf("unknown command %q: did you mean %s? (%s help lists the commands)", name, best, c.App.Name)
	}
	return fmt.Errorf("unknown command %q: the commands are %s", name, strings.Join(names, ", "))
}

// NoSubcommand refuses the arguments of the command at path, which takes a
// subcommand or none: an argument near a subcommand's name is taken for a
// misspelling of it, any other as an argument the command does not take
// (NoArgs). It returns nil without arguments.
func NoSubcommand(c *cli.Context, path string) error {
	if c.NArg() == 0 {
		return nil
	}
	var names []string
	for _, sub := range c.Command.Subcommands {
		names = append(names, sub.Name)
	}
	if best := suggest.Nearest(c.Args().First(), names); best != "" {
		return fmt.Errorf("%s: unknown subcommand %q: did you mean %s? (%s --help)", strings.TrimPrefix(path, "fp "), c.Args().First(), best, path)
	}
	return NoArgs(c, path)
}
