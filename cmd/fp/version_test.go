package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
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
		if got := versionOf(tc.bi, tc.ok, tc.stamp); got != tc.want {
			t.Errorf("%s: versionOf = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// The Makefile's -X flag names the variable fp reads: a binary built with it
// and without VCS stamping reports the stamp from --version.
func TestMakefileStamp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fp")
	}
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`-X (\S+)=\$\(STAMP\)`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("the Makefile's build has no -X …=$(STAMP) flag")
	}
	bin := filepath.Join(t.TempDir(), "fp")
	build := exec.Command("go", "build", "-buildvcs=false", "-ldflags", "-X "+string(m[1])+"=v9.9.9-stamp", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != "fp version v9.9.9-stamp" {
		t.Errorf("--version printed %q, want the stamp", got)
	}
}
