package cliusage

import (
	"errors"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// run runs an app with one command made strict, its flags --out, --json
// and --level, and returns the error and the arguments the command read.
func run(t *testing.T, argsUsage string, args ...string) ([]string, error) {
	t.Helper()
	var got []string
	cmd := &cli.Command{Name: "front", ArgsUsage: argsUsage,
		Flags: []cli.Flag{&cli.StringFlag{Name: "out"}, &cli.BoolFlag{Name: "json"}, &cli.Float64Flag{Name: "level"}},
		Action: func(c *cli.Context) error {
			var err error
			got, err = ArgsAndFlags(c)
			return err
		}}
	Strict("fp front", cmd, map[string]Hint{"fp front": {Flag: "out", What: "the output folder"}})
	app := &cli.App{Name: "fp", Commands: []*cli.Command{cmd}, Action: UnknownCommand, ExitErrHandler: func(*cli.Context, error) {}}
	StrictApp(app)
	err := app.Run(append([]string{"fp"}, args...))
	return got, err
}

// Each way a command line goes wrong ends in one line that says what to
// type; flags after the arguments are read.
func TestStrict(t *testing.T) {
	for _, tc := range []struct {
		argsUsage string
		args      []string
		want      string // "" for no error
		usage     bool   // a *Error with a usage line
	}{
		{"DIR", []string{"front", "a", "--json", "b", "--", "--c"}, "", false},
		{"DIR", []string{"front", "a", "--jsn"}, "unknown flag --jsn; did you mean --json?", true},
		{"DIR", []string{"front", "--outt", "x"}, "front: unknown flag --outt; did you mean --out?", true},
		{"DIR", []string{"front", "a", "--out"}, "flag needs an argument: --out", true},
		// A bad value reads the same before the arguments as after them.
		{"DIR", []string{"front", "--level", "abc", "a"}, `invalid value "abc" for flag --level: parse error`, true},
		{"DIR", []string{"front", "a", "--level", "abc"}, `invalid value "abc" for flag --level: parse error`, true},
		{"DIR", []string{"front", "a", "--level=abc"}, `invalid value "abc" for flag --level: parse error`, true},
		{"", []string{"front", "myrun", "--json"}, `front: unexpected argument "myrun" (flags after it were not read); the output folder is --out myrun`, false},
		{"", []string{"front", "--out", "o", "x", "y"}, `front: unexpected arguments "x", "y"; fp front takes flags only`, false},
		{"", []string{"frnt"}, `unknown command "frnt": did you mean front? (fp help lists the commands)`, false},
		{"", []string{"zzz"}, `unknown command "zzz": the commands are front`, false},
	} {
		got, err := run(t, tc.argsUsage, tc.args...)
		if tc.want == "" {
			if err != nil || strings.Join(got, " ") != "a b --c" {
				t.Errorf("%q: err %v, args %q", tc.args, err, got)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: err %v, want %q", tc.args, err, tc.want)
			continue
		}
		var ue *Error
		if isUsage := errors.As(err, &ue); isUsage != tc.usage || isUsage && !strings.HasPrefix(ue.Usage, "usage: fp front") {
			t.Errorf("%q: usage error %v (%+v), want %v", tc.args, isUsage, ue, tc.usage)
		}
	}
}
