package main

import (
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/choose"
)

// pickRules are the requirement flags of fp pick (and fp report, which
// marks the network fp pick would return) and the rule each sets.
var pickRules = []struct {
	flag  string
	kind  choose.Kind
	usage string
}{
	{"max-unfairness", choose.MaxUnfairness, "highest acceptable value of --metric"},
	{"max-risk", choose.MaxRisk, "highest acceptable risk"},
	{"min-accuracy", choose.MinAccuracy, "lowest acceptable accuracy"},
	{"min-ratio", choose.MinRatio, "lowest acceptable dp_ratio (smallest over largest selection rate; 0.8 is the four-fifths rule); implies --metric dp-ratio"},
	{"knee", choose.Knee, "the front's point of highest trade-off"},
}

// ruleFlags are the requirement flags, with usage adapted by usage (nil
// keeps fp pick's).
func ruleFlags(usage func(flag, text string) string) []cli.Flag {
	var out []cli.Flag
	for _, r := range pickRules {
		text := r.usage
		if usage != nil {
			text = usage(r.flag, text)
		}
		if r.kind == choose.Knee {
			out = append(out, &cli.BoolFlag{Name: r.flag, Usage: text})
		} else {
			out = append(out, &cli.Float64Flag{Name: r.flag, Usage: text})
		}
	}
	return out
}

// rulesOf returns the rules of the requirement flags set on c and the
// flags as typed (e.g. "--max-risk 0.62"), in the order of pickRules.
func rulesOf(c *cli.Context) (rules []choose.Rule, flags []string) {
	for _, r := range pickRules {
		if !c.IsSet(r.flag) {
			continue
		}
		if r.kind == choose.Knee {
			rules, flags = append(rules, choose.Rule{Kind: r.kind}), append(flags, "--"+r.flag)
			continue
		}
		b := c.Float64(r.flag)
		rules = append(rules, choose.Rule{Kind: r.kind, Bound: b})
		flags = append(flags, "--"+r.flag+" "+strconv.FormatFloat(b, 'g', -1, 64))
	}
	return rules, flags
}

// ruleNames lists the requirement flags for messages.
const ruleNames = "--max-unfairness, --max-risk, --min-accuracy, --min-ratio, --knee"
