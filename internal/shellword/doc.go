// Package shellword quotes a word (a path, a column name) for a POSIX
// shell, so that the commands fp prints can be pasted as written.
package shellword
