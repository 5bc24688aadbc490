package choose

import (
	"reflect"
	"slices"
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

// MetricOf takes dp_ratio for --min-ratio and refuses another metric
// given with it, or an unknown metric.
func TestMetricOf(t *testing.T) {
	for _, tc := range []struct {
		metric string
		set    []string
		want   string
		err    string
	}{
		{"ato", nil, "ato", ""},
		{"ato", []string{"min-ratio"}, "dp-ratio", ""},
		{"dp-ratio", []string{"min-ratio", "metric"}, "dp-ratio", ""},
		{"dp", []string{"min-ratio", "metric"}, "", "--min-ratio is a requirement on dp_ratio"},
		{"colour", []string{"metric"}, "", `--metric "colour": want one of`},
	} {
		got, err := MetricOf(tc.metric, func(f string) bool { return slices.Contains(tc.set, f) })
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("MetricOf(%q, %v) = %q, %v; want %q, %q", tc.metric, tc.set, got, err, tc.want, tc.err)
		}
	}
}
