package configfile

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/internal/printable"
	"github.com/fpareto/fp/internal/suggest"
	"github.com/fpareto/fp/runfolder"
)

// Setting is one flag a config file sets: Flag (without the dashes) to
// Value, from Key at Where ("--config FILE", with ":LINE" where the format
// gives one).
type Setting struct{ Key, Flag, Value, Where string }

// File is what a config file says: the flags it sets, in the order of the
// file (for a run's config.json, followed by the settings it leaves at
// their zero), and the coding and data_id it holds, to be checked against
// the data (Check).
type File struct {
	Path   string
	Sets   []Setting
	Coding *runfolder.Coding // nil when the file has none
	DataID string            // "" when the file has none
}

// derivedKeys are the keys of config.json that follow from the other
// settings or from library code, with what a config file may say of them.
var derivedKeys = map[string]string{
	"coding":          "the raw values coded 1, as config.json records them; checked against the data",
	"data_id":         "the identity of the rows, as config.json records it; checked against the data",
	"penalty_version": "it empty (a custom penalty is library code; fp train trains the built-in penalties)",
	"risk":            "it empty (a custom risk is library code; fp train trains the built-in risk)",
	"risk_version":    "it empty (a custom risk is library code; fp train trains the built-in risk)",
	// A custom scalarization's name is the method, which fp train refuses
	// unless it is a built-in.
	"scalarization_version": "it empty (a custom scalarization is library code; fp train trains the built-in scalarizations)",
}

// codingKeys are the keys of a config file's coding table.
var codingKeys = []string{"target", "target_positive", "sensitive", "sensitive_positive"}

// Keys maps every key a config file may hold to the flag it sets, given
// the names of a command's flags (each flag's names, its own first): the
// flags' names and, for a flag of a setting, the setting's config.json key.
// The flags config and help set nothing.
func Keys(flags [][]string) map[string]string {
	keys := map[string]string{}
	for _, names := range flags {
		for _, n := range names {
			if n != "config" && n != "help" && n != "h" {
				keys[n] = names[0]
			}
		}
	}
	for _, s := range runfolder.Settings {
		if _, ok := keys[s.Flag]; ok {
			keys[s.Key] = s.Flag
		}
	}
	return keys
}

// isListFlag reports whether the flag takes a list in a config file
// (config.json writes them as lists): its values are joined with commas, as
// on the command line.
func isListFlag(flag string) bool {
	for _, s := range runfolder.Settings {
		if s.Flag == flag {
			return s.List
		}
	}
	return false
}

// alwaysWritten are the keys config.json writes whatever their value.
func alwaysWritten() []string {
	b, err := json.Marshal(runfolder.Config{})
	if err != nil {
		panic(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		panic(err)
	}
	return slices.Sorted(maps.Keys(m))
}

// Read reads the config file at path, whose keys set the flags keys maps
// them to (Keys). Every refusal is one line that starts with "--config
// PATH" (and the line, where the format gives one) and names the key.
func Read(path string, keys map[string]string) (*File, error) {
	entries, err := readFile(path)
	if err != nil {
		return nil, oneLine{fmt.Errorf("--config %s: %w", path, err)} // the path escaped too
	}
	return build(path, entries, keys)
}

// Apply sets, through set, every setting of the file whose flag isSet says
// the command line left unset (the command line wins); a value the flag
// refuses is an error naming the file's line and key.
func (f *File) Apply(isSet func(flag string) bool, set func(flag, value string) error) error {
	for _, s := range f.Sets {
		if isSet(s.Flag) {
			continue
		}
		if err := set(s.Flag, s.Value); err != nil {
			return fmt.Errorf("%s: %s: %q is not a valid value of --%s (%v)", s.Where, s.Key, s.Value, s.Flag, err)
		}
	}
	return nil
}

// oneLine is an error whose text has its control characters escaped
// (internal/printable), keeping what it wraps.
type oneLine struct{ err error }

func (e oneLine) Error() string { return printable.String(e.err.Error()) }
func (e oneLine) Unwrap() error { return e.err }

// build reads the entries of the file at path.
func build(path string, entries []entry, keys map[string]string) (*File, error) {
	where := func(e entry) string {
		if e.line > 0 {
			return fmt.Sprintf("--config %s:%d", path, e.line)
		}
		return "--config " + path
	}
	f := &File{Path: path}
	present := map[string]bool{}
	byFlag := map[string]string{}
	for _, e := range entries {
		if present[e.key] {
			return nil, fmt.Errorf("%s: key %q given twice", where(e), e.key)
		}
		present[e.key] = true
		if _, derived := derivedKeys[e.key]; derived {
			if err := f.derived(e); err != nil {
				return nil, fmt.Errorf("%s: %w", where(e), err)
			}
			continue
		}
		flag, ok := keys[e.key]
		if !ok {
			name := e.key
			if e.kind == "table" && len(e.table) > 0 {
				name += "." + e.table[0].key // TOML's dotted key, or YAML's nested one
			}
			return nil, fmt.Errorf("%s: unknown key %q%s", where(e), name, suggestKey(name, keys))
		}
		if other, dup := byFlag[flag]; dup {
			return nil, fmt.Errorf("%s: keys %q and %q both set --%s", where(e), other, e.key, flag)
		}
		byFlag[flag] = e.key
		if e.kind == "list" && isListFlag(flag) && e.items != nil {
			e.kind, e.value = "", runfolder.FormatList(e.items) // as the flag reads it back
		}
		switch e.kind {
		case "null":
			return nil, fmt.Errorf("%s: key %q has no value", where(e), e.key)
		case "list", "table":
			msg := fmt.Sprintf("%s: key %q holds a %s; want a single value", where(e), e.key, e.kind)
			if flag == "lambdas" {
				msg += ` (a λ list is one string: lambdas: "0,0.01,0.1,1")`
			}
			return nil, fmt.Errorf("%s", msg)
		}
		f.Sets = append(f.Sets, Setting{e.key, flag, e.value, where(e)})
	}
	if isRunConfig(present) {
		// What config.json leaves out has its zero value there.
		always := alwaysWritten()
		for _, s := range runfolder.Settings {
			flag, ok := keys[s.Key]
			if slices.Contains(always, s.Key) || present[s.Key] || !ok || s.Key == "dataset" {
				continue // dataset is left out when csv names the data
			}
			f.Sets = append(f.Sets, Setting{s.Key, flag, zeroText(s), "--config " + path})
		}
	}
	return f, nil
}

// derived reads a key of derivedKeys.
func (f *File) derived(e entry) error {
	switch e.key {
	case "coding":
		c, err := codingTable(e)
		f.Coding = c
		return err
	case "data_id":
		if e.kind != "" || e.value == "" {
			return fmt.Errorf("data_id: want %s", derivedKeys[e.key])
		}
		f.DataID = e.value
		return nil
	}
	if e.kind != "" || e.value != "" {
		return fmt.Errorf("%s %q: want %s", e.key, e.value, derivedKeys[e.key])
	}
	return nil
}

// isRunConfig reports whether the keys present are those of a run's
// config.json: every key it always writes.
func isRunConfig(present map[string]bool) bool {
	for _, k := range alwaysWritten() {
		if !present[k] {
			return false
		}
	}
	return true
}

// zeroText is the setting's zero as a flag's value.
func zeroText(s runfolder.Setting) string {
	switch s.Value(&runfolder.Config{}).(type) {
	case bool:
		return "false"
	case int, uint64, float64:
		return "0"
	}
	return ""
}

// codingTable reads a config file's coding table.
func codingTable(e entry) (*runfolder.Coding, error) {
	if e.kind != "table" {
		return nil, fmt.Errorf("coding: want a table with %s", strings.Join(codingKeys, ", "))
	}
	var vals [4]string
	seen := map[string]bool{}
	for _, sub := range e.table {
		i := slices.Index(codingKeys, sub.key)
		if i < 0 {
			known := map[string]string{}
			for _, ck := range codingKeys {
				known[ck] = ck
			}
			return nil, fmt.Errorf("coding: unknown key %q%s", sub.key, suggestKey(sub.key, known))
		}
		if seen[sub.key] {
			return nil, fmt.Errorf("coding: key %q given twice", sub.key)
		}
		seen[sub.key] = true
		if sub.kind != "" {
			return nil, fmt.Errorf("coding: %s: want a single value", sub.key)
		}
		vals[i] = sub.value
	}
	for _, k := range codingKeys {
		if !seen[k] {
			return nil, fmt.Errorf("coding: %s is missing", k)
		}
	}
	return &runfolder.Coding{Target: vals[0], TargetPositive: vals[1], Sensitive: vals[2], SensitivePositive: vals[3]}, nil
}

// suggestKey returns "; did you mean K?" for the key of keys nearest to key,
// or where the keys are listed.
func suggestKey(key string, keys map[string]string) string {
	if best := suggest.Nearest(key, slices.Sorted(maps.Keys(keys))); best != "" {
		return fmt.Sprintf("; did you mean %s?", best)
	}
	return "; a key is a flag's name without -- (fp train --help lists them) or a key of a run's config.json"
}

// Check refuses a file's coding or data_id that is not what the data d
// gives: the raw target and sensitive values coded 1 and the rows' identity
// follow from the data and the other settings, so a value that differs
// means the file describes other data. It checks nothing for a file with
// neither (NeedsCheck).
func (f *File) Check(d *datasets.Dataset) error {
	if f.DataID != "" && f.DataID != d.ID {
		return fmt.Errorf("data_id %s is not the identity of these rows (%s): the file describes other rows, or other target or sensitive values; "+
			"remove data_id from the file to train on these", f.DataID, d.ID)
	}
	if f.Coding == nil {
		return nil
	}
	want := *f.Coding
	got := runfolder.Coding{Target: d.Target, TargetPositive: d.LabelPositive, Sensitive: d.Sensitive, SensitivePositive: d.GroupPositive}
	if got != want {
		return fmt.Errorf("coding says y = 1 means %s = %q and a = 1 means %s = %q, but the data codes %s = %q and %s = %q; "+
			"remove coding from the file or give the settings that code the data so",
			want.Target, want.TargetPositive, want.Sensitive, want.SensitivePositive,
			got.Target, got.TargetPositive, got.Sensitive, got.SensitivePositive)
	}
	return nil
}

// NeedsCheck reports whether the file holds a coding or data_id for Check.
func (f *File) NeedsCheck() bool { return f.Coding != nil || f.DataID != "" }

// CheckData checks the file's coding and data_id (Check) against the data
// the configuration c names, which it loads only when the file holds
// either. An error loading the data passes as it is; a refusal starts with
// "--config PATH".
func (f *File) CheckData(c runfolder.Config) error {
	if !f.NeedsCheck() {
		return nil
	}
	d, err := runfolder.LoadDataset(c)
	if err != nil {
		return err
	}
	if err := f.Check(d); err != nil {
		return fmt.Errorf("--config %s: %w", f.Path, err)
	}
	return nil
}
