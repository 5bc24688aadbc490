package shellword

import "strings"

// plain are the characters that need no quoting in any POSIX shell word.
const plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:,=+@%"

// Quote returns s as one shell word: s itself when every character is
// plain, else s in single quotes, each single quote within written '\”.
// The empty string becomes ”.
func Quote(s string) string {
	if s != "" && strings.Trim(s, plain) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
