package model

import (
	"runtime/debug"
	"testing"
)

// The version `make build` stamps is reported when the module has no
// version of its own, VCS information or not.
func TestVersionOf(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}
	for _, tc := range []struct {
		name  string
		bi    *debug.BuildInfo
		ok    bool
		stamp string
		want  string
	}{
		{"no build info", nil, false, "", "devel"},
		{"no build info, stamped", nil, false, "v0.3-2-gabc1234", "v0.3-2-gabc1234"},
		{"no VCS information", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "", "devel"},
		{"no VCS information, stamped", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "abc1234-dirty", "abc1234-dirty"},
		{"VCS information", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs}, true, "", "0123456789ab+dirty"},
		{"VCS information, stamped", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs}, true, "abc1234", "abc1234"},
		{"module version", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}, Settings: vcs}, true, "abc1234", "v1.2.0"},
	} {
		if got := versionOf(tc.bi, tc.ok, tc.stamp); got != tc.want {
			t.Errorf("%s: versionOf = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestVersionStamp(t *testing.T) {
	old := stamp
	defer func() { stamp = old }()
	stamp = "v9.9.9-test"
	if got := Version(); got != "v9.9.9-test" {
		t.Errorf("Version() with the stamp set = %q, want the stamp", got)
	}
	if Stamp() != "v9.9.9-test" {
		t.Errorf("Stamp() = %q", Stamp())
	}
}
