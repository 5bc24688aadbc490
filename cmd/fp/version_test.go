package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

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
