package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/urfave/cli/v2"
	"gopkg.in/yaml.v3"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/runfolder"
)

// A --config file of fp train holds one setting per key. A key is a flag's
// name without the dashes (epochs, propensity-epochs) or a key of the
// config.json a run writes (propensity_epochs; csv is --data, adv_epochs
// --adv-rounds, adv_beta_scale --beta-scale); both come from
// runfolder.Settings, so that a new setting needs no edit here. Flags given
// on the command line win over the file.
//
// Keys config.json writes that are not settings (derivedKeys) are checked
// rather than set: coding must be what the data codes, and a custom term's
// name or version (library use only) must be empty.
//
// A file that holds every key config.json always writes (method, splits,
// seed, …) is read as a run's config.json: a key it leaves out has the value
// its absence means there (lockstep false, val_fraction 0, …), not the flag's
// default, so that `fp train --config RUN/config.json` repeats RUN's
// configuration.

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

// configEntry is one key of a config file.
type configEntry struct {
	key   string
	line  int      // 0 where the format gives none
	kind  string   // "" for a single value, else "list", "table" or "null"
	value string   // a single value's text
	items []string // a list's values, when every one is a single value
	table map[string]configEntry
}

// configKeys maps every key a config file of a command with flags may hold
// to the flag it sets: the flags' names and, for fp train, the config.json
// keys of runfolder.Settings.
func configKeys(flags []cli.Flag) map[string]string {
	keys := map[string]string{}
	for _, f := range flags {
		for _, n := range f.Names() {
			if n != "config" && n != "help" && n != "h" {
				keys[n] = f.Names()[0]
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

// maxConfigBytes bounds a config file's size, and maxConfigAliases the YAML
// aliases it may hold: a file of settings needs neither many bytes nor
// many aliases.
const (
	maxConfigBytes   = 1 << 20
	maxConfigAliases = 100
)

// readConfigFile parses a YAML (.yaml, .yml; .json, which YAML reads too) or
// TOML (.toml) file into its top-level entries, in order.
func readConfigFile(path string) ([]configEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxConfigBytes {
		return nil, fmt.Errorf("larger than %d bytes: not a file of settings", maxConfigBytes)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml", ".json":
		return yamlEntries(b)
	case ".toml":
		return tomlEntries(b)
	}
	return nil, fmt.Errorf("want a .yaml, .yml, .toml or .json file")
}

func yamlEntries(b []byte) ([]configEntry, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, nil // an empty file sets nothing
	}
	if n := countAliases(&doc); n > maxConfigAliases {
		return nil, fmt.Errorf("%d aliases, more than %d: not a file of settings", n, maxConfigAliases)
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: want one key: value per line, got %s", root.Line, yamlKind(root))
	}
	return yamlMapping(root)
}

func yamlMapping(n *yaml.Node) ([]configEntry, error) {
	var out []configEntry
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("line %d: a key must be a name, got %s", k.Line, yamlKind(k))
		}
		if v.Kind == yaml.AliasNode {
			v = v.Alias
		}
		e := configEntry{key: k.Value, line: k.Line}
		switch {
		case v.Kind == yaml.ScalarNode && v.Tag == "!!null":
			e.kind = "null"
		case v.Kind == yaml.ScalarNode:
			e.value = v.Value
		case v.Kind == yaml.SequenceNode:
			e.kind = "list"
			e.items = []string{}
			for _, it := range v.Content {
				if it.Kind != yaml.ScalarNode || it.Tag == "!!null" {
					e.items = nil
					break
				}
				e.items = append(e.items, it.Value)
			}
		case v.Kind == yaml.MappingNode:
			e.kind = "table"
			sub, err := yamlMapping(v)
			if err != nil {
				return nil, err
			}
			e.table = map[string]configEntry{}
			for _, s := range sub {
				e.table[s.key] = s
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// countAliases counts the alias nodes under n, without following them.
func countAliases(n *yaml.Node) int {
	c := 0
	if n.Kind == yaml.AliasNode {
		c++
	}
	for _, sub := range n.Content {
		c += countAliases(sub)
	}
	return c
}

func yamlKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a table"
	}
	return "a single value"
}

func tomlEntries(b []byte) ([]configEntry, error) {
	var m map[string]any
	md, err := toml.Decode(string(b), &m)
	if err != nil {
		return nil, err
	}
	var out []configEntry
	for _, k := range md.Keys() {
		if len(k) != 1 {
			continue // inside a table: read with the table
		}
		out = append(out, tomlEntry(k[0], m[k[0]]))
	}
	return out, nil
}

func tomlEntry(key string, v any) configEntry {
	e := configEntry{key: key}
	switch v := v.(type) {
	case string:
		e.value = v
	case int64:
		e.value = strconv.FormatInt(v, 10)
	case float64:
		e.value = strconv.FormatFloat(v, 'g', -1, 64)
	case bool:
		e.value = strconv.FormatBool(v)
	case map[string]any:
		e.kind, e.table = "table", map[string]configEntry{}
		for k, sub := range v {
			e.table[k] = tomlEntry(k, sub)
		}
	case []any:
		e.kind = "list"
		e.items = []string{}
		for _, it := range v {
			str, ok := it.(string)
			if !ok {
				e.items = nil
				break
			}
			e.items = append(e.items, str)
		}
	case []map[string]any:
		e.kind = "list"
	default:
		e.value = fmt.Sprint(v) // a date: the flag's parser refuses it
	}
	return e
}

// applyConfigFile sets the flags of c that the command line left unset from
// the --config file at path, and returns the file's coding table (nil when
// it has none) for checkCoding. Every refusal is one line naming the file,
// the line where the format gives one, and the key.
func applyConfigFile(c *cli.Context, path string) (*experiments.Coding, error) {
	entries, err := readConfigFile(path)
	if err != nil {
		return nil, fmt.Errorf("--config %s: %w", path, err)
	}
	keys := configKeys(c.Command.Flags)
	where := func(e configEntry) string {
		if e.line > 0 {
			return fmt.Sprintf("--config %s:%d", path, e.line)
		}
		return "--config " + path
	}
	var coding *experiments.Coding
	present := map[string]bool{}
	byFlag := map[string]string{}
	type setting struct{ key, flag, value, where string }
	var sets []setting
	for _, e := range entries {
		if present[e.key] {
			return nil, fmt.Errorf("%s: key %q given twice", where(e), e.key)
		}
		present[e.key] = true
		if _, derived := derivedKeys[e.key]; derived {
			if e.key == "coding" {
				if coding, err = codingTable(e); err != nil {
					return nil, fmt.Errorf("%s: %w", where(e), err)
				}
				continue
			}
			if e.key == "data_id" {
				if e.kind != "" || e.value == "" {
					return nil, fmt.Errorf("%s: data_id: want %s", where(e), derivedKeys[e.key])
				}
				if c.App.Metadata == nil {
					c.App.Metadata = map[string]any{}
				}
				c.App.Metadata[dataIDMeta] = e.value
				continue
			}
			if e.kind != "" || e.value != "" {
				return nil, fmt.Errorf("%s: %s %q: want %s", where(e), e.key, e.value, derivedKeys[e.key])
			}
			continue
		}
		flag, ok := keys[e.key]
		if !ok {
			return nil, fmt.Errorf("%s: unknown key %q%s", where(e), e.key, suggestKey(e.key, keys))
		}
		if other, dup := byFlag[flag]; dup {
			return nil, fmt.Errorf("%s: keys %q and %q both set --%s", where(e), other, e.key, flag)
		}
		byFlag[flag] = e.key
		if e.kind == "list" && isListFlag(flag) && e.items != nil {
			e.kind, e.value = "", strings.Join(e.items, ",")
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
		sets = append(sets, setting{e.key, flag, e.value, where(e)})
	}
	if isRunConfig(present) {
		// What config.json leaves out has its zero value there.
		always := alwaysWritten()
		for _, s := range runfolder.Settings {
			flag, ok := keys[s.Key]
			if slices.Contains(always, s.Key) || present[s.Key] || !ok || s.Key == "dataset" {
				continue // dataset is left out when csv names the data
			}
			sets = append(sets, setting{s.Key, flag, zeroText(s), "--config " + path})
		}
	}
	for _, s := range sets {
		if c.IsSet(s.flag) {
			continue // the command line wins
		}
		if err := c.Set(s.flag, s.value); err != nil {
			return nil, fmt.Errorf("%s: %s: %q is not a valid value of --%s (%v)", s.where, s.key, s.value, s.flag, err)
		}
	}
	return coding, nil
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
func codingTable(e configEntry) (*experiments.Coding, error) {
	if e.kind != "table" {
		return nil, fmt.Errorf("coding: want a table with %s", strings.Join(codingKeys, ", "))
	}
	var vals [4]string
	for k, sub := range e.table {
		i := slices.Index(codingKeys, k)
		if i < 0 {
			known := map[string]string{}
			for _, ck := range codingKeys {
				known[ck] = ck
			}
			return nil, fmt.Errorf("coding: unknown key %q%s", k, suggestKey(k, known))
		}
		if sub.kind != "" {
			return nil, fmt.Errorf("coding: %s: want a single value", k)
		}
		vals[i] = sub.value
	}
	for _, k := range codingKeys {
		if _, ok := e.table[k]; !ok {
			return nil, fmt.Errorf("coding: %s is missing", k)
		}
	}
	return &experiments.Coding{Target: vals[0], TargetPositive: vals[1], Sensitive: vals[2], SensitivePositive: vals[3]}, nil
}

// suggestKey returns "; did you mean K?" for the key of keys nearest to key,
// or where the keys are listed.
func suggestKey(key string, keys map[string]string) string {
	if best := nearest(key, slices.Sorted(maps.Keys(keys))); best != "" {
		return fmt.Sprintf("; did you mean %s?", best)
	}
	return "; a key is a flag's name without -- (fp train --help lists them) or a key of a run's config.json"
}

// dataIDMeta is the App.Metadata key of a config file's data_id.
const dataIDMeta = "config-data-id"

// checkCoding refuses a config file's coding (when want is not nil) or
// data_id (when wantID is not "") that is not what the data gives: the raw
// target and sensitive values coded 1 and the rows' identity follow from
// the data and the other settings, so a value that differs means the file
// describes other data.
func checkCoding(want *experiments.Coding, wantID string, cfg experiments.Config, path string) error {
	d, err := experiments.LoadDataset(cfg)
	if err != nil {
		return err
	}
	if wantID != "" && wantID != d.ID {
		return fmt.Errorf("--config %s: data_id %s is not the identity of these rows (%s): the file describes other rows, or other target or sensitive values; "+
			"remove data_id from the file to train on these", path, wantID, d.ID)
	}
	if want == nil {
		return nil
	}
	got := experiments.Coding{Target: d.Target, TargetPositive: d.LabelPositive, Sensitive: d.Sensitive, SensitivePositive: d.GroupPositive}
	if got != *want {
		return fmt.Errorf("--config %s: coding says y = 1 means %s = %q and a = 1 means %s = %q, but the data codes %s = %q and %s = %q; "+
			"remove coding from the file or give the settings that code the data so",
			path, want.Target, want.TargetPositive, want.Sensitive, want.SensitivePositive,
			got.Target, got.TargetPositive, got.Sensitive, got.SensitivePositive)
	}
	return nil
}
