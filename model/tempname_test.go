package model_test

import (
	"testing"

	"github.com/fpareto/fp/model"
)

func TestIsTempName(t *testing.T) {
	for name, want := range map[string]bool{
		".config.json.tmp123":         true,
		".lambda-0.1.json.tmp4294967": true,
		".a.tmp1":                     true,
		"config.json.tmp123":          false, // not hidden
		".config.json.tmp":            false, // no digits
		".config.json.tmpx1":          false,
		".config.json":                false,
		".tmp1":                       false, // no name
		"records.jsonl":               false,
		".keep":                       false,
	} {
		if got := model.IsTempName(name); got != want {
			t.Errorf("IsTempName(%q) = %v, want %v", name, got, want)
		}
	}
}
