// Package archtest keeps the package map of docs/architecture.md true: its
// test fails when a package imports what the map says it must not, or when
// code or docs cite a section of docs/method.md that does not exist.
package archtest
