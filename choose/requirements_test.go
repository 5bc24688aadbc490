package choose

import (
	"reflect"
	"strings"
	"testing"
)

// RulesOf turns the flags set into rules in the order of RuleFlags, and
// RuleFlagNames names every requirement.
func TestRulesOf(t *testing.T) {
	set := map[string]float64{"knee": 0, "max-risk": 0.62, "min-ratio": 0.8}
	rules, flags := RulesOf(func(f string) bool { _, ok := set[f]; return ok }, func(f string) float64 { return set[f] })
	want := []Rule{{Kind: MaxRisk, Bound: 0.62}, {Kind: MinRatio, Bound: 0.8}, {Kind: Knee}}
	if !reflect.DeepEqual(rules, want) || strings.Join(flags, " ") != "--max-risk 0.62 --min-ratio 0.8 --knee" {
		t.Errorf("rules %+v, flags %q", rules, flags)
	}
	for _, r := range RuleFlags {
		if !strings.Contains(RuleFlagNames, "--"+r.Flag) {
			t.Errorf("RuleFlagNames lacks --%s", r.Flag)
		}
	}
}
