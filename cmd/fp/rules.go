package main

import (
	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/choose"
)

// ruleFlags are the requirement flags of fp pick (choose.RuleFlags),
// with usage adapted by usage (nil keeps fp pick's).
func ruleFlags(usage func(flag, text string) string) []cli.Flag {
	var out []cli.Flag
	for _, r := range choose.RuleFlags {
		text := r.Usage
		if usage != nil {
			text = usage(r.Flag, text)
		}
		if r.Kind == choose.Knee {
			out = append(out, &cli.BoolFlag{Name: r.Flag, Usage: text})
		} else {
			out = append(out, &cli.Float64Flag{Name: r.Flag, Usage: text})
		}
	}
	return out
}
