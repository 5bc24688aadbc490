package model

import (
	"runtime/debug"
	"testing"
)

func TestVersionOf(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abc"}, {Key: "vcs.modified", Value: "true"}}
	devel := debug.Module{Version: "(devel)"}
	for _, tc := range []struct {
		name  string
		bi    *debug.BuildInfo
		ok    bool
		stamp string
		want  string
	}{
		{"no build info", nil, false, "", "(devel)"},
		{"no build info, stamped", nil, false, "v0.3-2-gabc1234", "v0.3-2-gabc1234"},
		{"no VCS information", &debug.BuildInfo{Main: devel}, true, "", "(devel)"},
		{"no VCS information, stamped", &debug.BuildInfo{Main: devel}, true, "abc1234-dirty", "abc1234-dirty"},
		{"VCS information", &debug.BuildInfo{Main: devel, Settings: vcs}, true, "", "(devel) (commit 0123abc, modified)"},
		{"VCS information, stamped", &debug.BuildInfo{Main: devel, Settings: vcs}, true, "abc1234", "abc1234 (commit 0123abc, modified)"},
		{"module version", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, true, "abc1234", "v1.2.0"},
	} {
		if got := commandVersionOf(tc.bi, tc.ok, tc.stamp); got != tc.want {
			t.Errorf("%s: commandVersionOf = %q, want %q", tc.name, got, tc.want)
		}
	}
}
