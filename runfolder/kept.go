package runfolder

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/fpareto/fp/records"
)

// The names fp keeps in a run folder, as the commands that write files
// must not replace them: an output that lands on one would destroy the
// run it belongs to.

// recordsName matches the names of records files and their locks.
var recordsName = regexp.MustCompile(`^records(-shard-\d+-of-\d+)?\.jsonl(\.lock)?$`)

// runningName matches the names of the files that keep a running run's
// invocation line (runningFile), one per shard.
var runningName = regexp.MustCompile(`^running(-shard-\d+-of-\d+)?\.json$`)

// IsRecordsName reports whether name (a base name) is that of the records
// file of a run or of a shard (RecordsFile), or of its lock: a file so
// named, wherever it is, would be read as records once it stands in a run
// folder.
func IsRecordsName(name string) bool {
	return recordsName.MatchString(name)
}

// IsRunFolder reports whether dir is a run folder: a config.json with
// records files, a runs.log, networks/ or splits/ beside it.
func IsRunFolder(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, ConfigFile)); err != nil {
		return false
	}
	for _, p := range []string{InvocationsFile, "networks", "splits"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			return true
		}
	}
	files, _ := OwnRecordsFiles(dir)
	return len(files) > 0
}

// KeptAt says what path is to the run folder that holds it: that folder
// (the nearest one above path that IsRunFolder) and what the folder keeps
// under that name (its records, configuration, invocation log, a stored
// network, a per-split file such as a propensity model, or the folder
// networks/ or splits/ itself). what is "" for a name the folder keeps
// nothing under (a figure or a page beside the records, an ONNX export
// beside its network), and run is "" when no run folder holds path.
func KeptAt(path string) (run, what string) {
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		if IsRunFolder(dir) {
			rel, err := filepath.Rel(dir, path)
			if err != nil {
				return "", ""
			}
			return dir, keptAs(filepath.ToSlash(rel))
		}
		if parent := filepath.Dir(dir); parent == dir {
			return "", ""
		}
	}
}

// keptAs says what the path rel (slash-separated, relative to a run folder)
// holds, "" for a file fp does not keep there.
func keptAs(rel string) string {
	top, _, nested := strings.Cut(rel, "/")
	json := strings.HasSuffix(rel, ".json")
	switch {
	case nested && top == "networks" && json:
		return "a stored network"
	case nested && top == "splits" && json:
		return "a per-split file (propensity model, standardization, overlap)"
	case rel == "networks" || rel == "splits":
		return "a folder"
	case rel == ConfigFile:
		return "the configuration"
	case rel == InvocationsFile:
		return "the invocation log"
	case runningName.MatchString(rel):
		return "the invocation line of a running run (a killed run's, until the next run logs it)"
	case strings.HasSuffix(rel, records.Ext) || strings.HasSuffix(rel, records.Ext+".lock"):
		return "a records file"
	}
	return ""
}

// ReadFiles are the files a command that reads the run folder dir reads as
// the run: its records files (RecordsFiles) and its configuration. An
// output that is one of them under another name (a hard link) would
// replace the run's own.
func ReadFiles(dir string) []string {
	files, _ := RecordsFiles(dir)
	return append(files, filepath.Join(dir, ConfigFile))
}
