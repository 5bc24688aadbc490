package main

import (
	"encoding/json"
	"io"
)

// jsonFlag is the --json flag every command has.
const jsonFlag = "json"

// writeJSON prints v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
