// Package archtest keeps the package map of docs/architecture.md true: its
// test fails when a package imports what the map says it must not.
package archtest
