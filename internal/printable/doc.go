// Package printable escapes the control characters of text that comes
// from data files (column names, values) before it reaches a terminal, so
// that a name holding an escape sequence is shown, not obeyed.
package printable
