package model

import "runtime/debug"

// CommandVersion is what fp --version prints: fp's module version, else
// the version `make build` stamped (Stamp), else "(devel)" for a build
// from a source tree; with the whole commit it was built from when the
// build recorded one. (Version, shorter, is what a network card records.)
func CommandVersion() string {
	info, ok := debug.ReadBuildInfo()
	return commandVersionOf(info, ok, Stamp())
}

func commandVersionOf(info *debug.BuildInfo, ok bool, stamp string) string {
	v := "(devel)"
	if ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		v = info.Main.Version
	} else if stamp != "" {
		v = stamp
	}
	if !ok {
		return v
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch {
		case s.Key == "vcs.revision":
			rev = s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = ", modified"
		}
	}
	if rev != "" {
		v += " (commit " + rev + dirty + ")"
	}
	return v
}
