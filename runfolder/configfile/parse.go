package configfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"gopkg.in/yaml.v3"
)

// MaxBytes bounds a config file's size, MaxAliases the YAML aliases it may
// hold, and maxNodes the values its parsed form may expand to, aliases
// followed: a file of settings needs none of them large, and the bounds
// keep a hostile file (/dev/zero, an alias bomb) from exhausting memory or
// the stack.
const (
	MaxBytes   = 1 << 20
	MaxAliases = 100
	maxNodes   = 100000
)

// maxDepth bounds the nesting of a file's values, aliases followed: a
// settings file nests two deep (coding's table), and a self-referring YAML
// alias nests without end.
const maxDepth = 16

// entry is one key of a config file.
type entry struct {
	key   string
	line  int      // 0 where the format gives none
	kind  string   // "" for a single value, else "list", "table" or "null"
	value string   // a single value's text
	items []string // a list's values, when every one is a single value
	table []entry  // a table's entries, in order
}

// readFile parses a YAML (.yaml, .yml), JSON (.json) or TOML (.toml) file
// into its top-level entries, in order.
func readFile(path string) ([]entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxBytes {
		return nil, fmt.Errorf("larger than %d bytes: not a file of settings", MaxBytes)
	}
	return parse(strings.ToLower(filepath.Ext(path)), b)
}

// parse reads b in the format of the file extension ext.
func parse(ext string, b []byte) ([]entry, error) {
	var entries []entry
	var err error
	switch ext {
	case ".yaml", ".yml":
		entries, err = yamlEntries(b)
	case ".json":
		entries, err = jsonEntries(b)
	case ".toml":
		entries, err = tomlEntries(b)
	default:
		return nil, fmt.Errorf("want a .yaml, .yml, .toml or .json file")
	}
	if err != nil {
		// The parsers quote the text they stopped at, newlines and control
		// characters included: escaped, the error stays one line.
		return nil, oneLine{err}
	}
	return entries, nil
}

func yamlEntries(b []byte) ([]entry, error) {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var doc yaml.Node
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return nil, nil // an empty file sets nothing
	} else if err != nil {
		return nil, err
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, fmt.Errorf("line %d: a second YAML document; a config file holds one (remove the line ---)", docLine(&next))
	} else if !errors.Is(err, io.EOF) {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	if n := countAliases(&doc); n > MaxAliases {
		return nil, fmt.Errorf("%d aliases, more than %d: not a file of settings", n, MaxAliases)
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: want one key: value per line, got %s", root.Line, yamlKind(root))
	}
	budget := maxNodes
	return yamlMapping(root, &budget, 0)
}

// docLine is the line where a document starts: its first node's, or the
// document's own.
func docLine(doc *yaml.Node) int {
	if len(doc.Content) > 0 {
		return doc.Content[0].Line
	}
	return doc.Line
}

// errTooManyNodes refuses a file whose aliases expand beyond maxNodes.
var errTooManyNodes = fmt.Errorf("its aliases expand to more than %d values: not a file of settings", maxNodes)

// yamlMapping reads a mapping's entries, nested depth deep, following
// aliases; every node it visits, an alias's target each time it is
// followed, spends one of budget.
func yamlMapping(n *yaml.Node, budget *int, depth int) ([]entry, error) {
	var out []entry
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("line %d: a key must be a name, got %s", k.Line, yamlKind(k))
		}
		e, err := yamlEntry(k.Value, k.Line, v, budget, depth)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

func yamlEntry(key string, line int, v *yaml.Node, budget *int, depth int) (entry, error) {
	for v.Kind == yaml.AliasNode {
		if *budget--; *budget < 0 {
			return entry{}, errTooManyNodes
		}
		v = v.Alias
	}
	if *budget -= 1 + len(v.Content); *budget < 0 {
		return entry{}, errTooManyNodes
	}
	e := entry{key: key, line: line}
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
				e.items = nil // a list of lists, tables or aliases is refused as a list
				break
			}
			e.items = append(e.items, it.Value)
		}
	case v.Kind == yaml.MappingNode:
		if depth >= maxDepth {
			return entry{}, fmt.Errorf("line %d: values nested more than %d deep: not a file of settings", line, maxDepth)
		}
		e.kind = "table"
		sub, err := yamlMapping(v, budget, depth+1)
		if err != nil {
			return entry{}, err
		}
		e.table = sub
	}
	return e, nil
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

// jsonEntries reads a JSON object with encoding/json's tokenizer, so that
// the order of its keys, their lines and a key given twice are seen; a
// number keeps its text as written.
func jsonEntries(b []byte) ([]entry, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil // an empty file sets nothing
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, jsonError(b, dec, err)
	}
	if tok != json.Delim('{') {
		return nil, fmt.Errorf("line 1: want a JSON object of settings, {\"key\": value, …}")
	}
	budget := maxNodes
	e, err := jsonObject(b, dec, &budget, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("line %d: more after the object of settings; a config file holds one", lineAt(b, dec.InputOffset()))
	}
	return e.table, nil
}

// jsonObject reads the rest of an object whose '{' dec has read.
func jsonObject(b []byte, dec *json.Decoder, budget *int, depth int) (entry, error) {
	e := entry{kind: "table", table: []entry{}}
	for dec.More() {
		line := lineAt(b, dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return entry{}, jsonError(b, dec, err)
		}
		v, err := jsonValue(b, dec, budget, depth)
		if err != nil {
			return entry{}, err
		}
		v.key, v.line = tok.(string), line
		e.table = append(e.table, v)
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return entry{}, jsonError(b, dec, err)
	}
	return e, nil
}

// jsonValue reads the next value: a single value, a list or an object.
func jsonValue(b []byte, dec *json.Decoder, budget *int, depth int) (entry, error) {
	if *budget--; *budget < 0 {
		return entry{}, fmt.Errorf("more than %d values: not a file of settings", maxNodes)
	}
	tok, err := dec.Token()
	if err != nil {
		return entry{}, jsonError(b, dec, err)
	}
	switch t := tok.(type) {
	case nil:
		return entry{kind: "null"}, nil
	case string:
		return entry{value: t}, nil
	case json.Number:
		return entry{value: t.String()}, nil
	case bool:
		return entry{value: strconv.FormatBool(t)}, nil
	case json.Delim:
		if depth >= maxDepth {
			return entry{}, fmt.Errorf("line %d: values nested more than %d deep: not a file of settings", lineAt(b, dec.InputOffset()), maxDepth)
		}
		if t == '{' {
			return jsonObject(b, dec, budget, depth+1)
		}
		// t == '[': json.Decoder yields only matched delimiters.
		e := entry{kind: "list", items: []string{}}
		for dec.More() {
			it, err := jsonValue(b, dec, budget, depth+1)
			if err != nil {
				return entry{}, err
			}
			if it.kind != "" {
				e.items = nil // a list of lists, tables or nulls is refused as a list
			} else if e.items != nil {
				e.items = append(e.items, it.value)
			}
		}
		if _, err := dec.Token(); err != nil { // the closing ']'
			return entry{}, jsonError(b, dec, err)
		}
		return e, nil
	}
	return entry{}, fmt.Errorf("line %d: unexpected %v", lineAt(b, dec.InputOffset()), tok)
}

// jsonError gives a JSON syntax error the line it is on.
func jsonError(b []byte, dec *json.Decoder, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("line %d: %v", lineAt(b, se.Offset), err)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("line %d: the file ends inside the object of settings", lineAt(b, int64(len(b))))
	}
	return fmt.Errorf("line %d: %v", lineAt(b, dec.InputOffset()), err)
}

// lineAt is the line of the first byte at or after off that is not
// white space or a comma: where the next token starts.
func lineAt(b []byte, off int64) int {
	off = min(max(off, 0), int64(len(b)))
	for off < int64(len(b)) && strings.IndexByte(" \t\r\n,:", b[off]) >= 0 {
		off++
	}
	return 1 + bytes.Count(b[:off], []byte("\n"))
}

func tomlEntries(b []byte) ([]entry, error) {
	var m map[string]any
	md, err := toml.Decode(string(b), &m)
	if err != nil {
		return nil, err
	}
	// The keys of each table, in the order of the file: md.Keys lists
	// every key, nested ones with their table's path.
	// (An array of tables lists its key once per table.)
	children, seen := map[string][]string{}, map[string]bool{}
	// A dotted key (propensity.epochs = 7) lists only its full path: each
	// part is made a key of the table before it.
	for _, k := range md.Keys() {
		parent := ""
		for _, part := range k {
			if path := parent + "\x00" + part; !seen[path] {
				seen[path] = true
				children[parent] = append(children[parent], part)
			}
			parent += "\x00" + part
		}
	}
	return tomlTable(m, children, "").table, nil
}

// tomlTable is the entry of the table t at path (its keys, each after a
// NUL byte; "" for the file).
func tomlTable(t map[string]any, children map[string][]string, path string) entry {
	e := entry{kind: "table", table: []entry{}}
	for _, k := range children[path] {
		if v, ok := t[k]; ok {
			e.table = append(e.table, tomlEntry(k, v, children, path+"\x00"+k))
		}
	}
	return e
}

// tomlEntry is the entry of key (at path) with the decoded value v.
func tomlEntry(key string, v any, children map[string][]string, path string) entry {
	e := entry{key: key}
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
		e.kind, e.table = "table", tomlTable(v, children, path).table
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
