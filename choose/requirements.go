package choose

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fpareto/fp/records"
)

// RuleFlag is a requirement flag of fp pick (and fp report, which marks
// the network fp pick would return): the flag's name, the kind of rule it
// sets and what it asks for. A Knee requirement is a switch; every other
// takes its bound.
type RuleFlag struct {
	Flag  string
	Kind  Kind
	Usage string
}

// RuleFlags are the requirement flags, in the order they are listed.
var RuleFlags = []RuleFlag{
	{"max-unfairness", MaxUnfairness, "highest acceptable value of --metric"},
	{"max-risk", MaxRisk, "highest acceptable risk"},
	{"min-accuracy", MinAccuracy, "lowest acceptable accuracy"},
	{"min-ratio", MinRatio, "lowest acceptable dp_ratio (smallest over largest selection rate; 0.8 is the four-fifths rule); implies --metric dp-ratio"},
	{"knee", Knee, "the front's point of highest trade-off"},
}

// RuleFlagNames lists the requirement flags for messages.
const RuleFlagNames = "--max-unfairness, --max-risk, --min-accuracy, --min-ratio, --knee"

// RulesOf returns the rules of the requirement flags set (isSet), with the
// bounds value gives, and the flags as typed (e.g. "--max-risk 0.62"), in
// the order of RuleFlags.
func RulesOf(isSet func(flag string) bool, value func(flag string) float64) (rules []Rule, flags []string) {
	for _, r := range RuleFlags {
		if !isSet(r.Flag) {
			continue
		}
		if r.Kind == Knee {
			rules, flags = append(rules, Rule{Kind: r.Kind}), append(flags, "--"+r.Flag)
			continue
		}
		b := value(r.Flag)
		rules = append(rules, Rule{Kind: r.Kind, Bound: b})
		flags = append(flags, "--"+r.Flag+" "+strconv.FormatFloat(b, 'g', -1, 64))
	}
	return rules, flags
}

// MetricOf is the metric a pick decides on: metric (--metric, given
// or not), except that --min-ratio, set, asks for dp_ratio and refuses
// another metric given.
func MetricOf(metric string, isSet func(flag string) bool) (string, error) {
	if isSet("min-ratio") {
		if isSet("metric") && metric != records.MetricDPRatio {
			return "", fmt.Errorf("--min-ratio is a requirement on dp_ratio; drop --metric %s or give --metric %s", metric, records.MetricDPRatio)
		}
		metric = records.MetricDPRatio
	}
	if !slices.Contains(records.Metrics, metric) {
		return "", fmt.Errorf("--metric %q: want one of %s", metric, strings.Join(records.Metrics, ", "))
	}
	return metric, nil
}
