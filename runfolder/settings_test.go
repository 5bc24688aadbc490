package runfolder

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// Every setting's Key is the JSON key of the field its Field returns, and no
// two settings share a field, a key or a flag: a mistyped key or field fails
// here rather than reading or writing a silent zero.
func TestSettingsMatchConfigFields(t *testing.T) {
	var c Config
	base := uintptr(unsafe.Pointer(&c))
	tagAt := map[uintptr]string{}
	ct := reflect.TypeFor[Config]()
	for i := range ct.NumField() {
		f := ct.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		tagAt[f.Offset] = name
	}
	seen := map[string]bool{}
	for _, s := range Settings {
		p := reflect.ValueOf(s.Field(&c))
		if p.Kind() != reflect.Pointer {
			t.Fatalf("%s: Field returns a %s, want a pointer", s.Flag, p.Kind())
		}
		off := p.Pointer() - base
		if got := tagAt[off]; got != s.Key {
			t.Errorf("setting --%s: key %q, but its field's JSON key is %q", s.Flag, s.Key, got)
		}
		for _, k := range []string{"flag " + s.Flag, "key " + s.Key, "field " + tagAt[off]} {
			if seen[k] {
				t.Errorf("setting --%s: %s is another setting's too", s.Flag, k)
			}
			seen[k] = true
		}
		if s.Flag == "" || strings.ContainsAny(s.Flag, "_ ") || s.Category == "" || s.Usage == "" {
			t.Errorf("setting %+v: want a flag with dashes, a category and a usage", s)
		}
		if s.Default != nil && reflect.TypeOf(s.Default) != p.Elem().Type() {
			t.Errorf("setting --%s: a default of type %T for a field of type %s", s.Flag, s.Default, p.Elem().Type())
		}
		if s.List != (p.Elem().Kind() == reflect.Slice) {
			t.Errorf("setting --%s: List %v for a field of type %s", s.Flag, s.List, p.Elem().Type())
		}
	}
	// The fields that are not settings follow from the others or from
	// library code.
	derived := []string{"coding", "data_id", "penalty_version", "risk", "risk_version", "scalarization_version"}
	for off, key := range tagAt {
		if !seen["field "+key] && !slices.Contains(derived, key) {
			t.Errorf("config.json key %q (offset %d) is neither a setting nor derived", key, off)
		}
	}
}
