// Package archtest keeps the package map of docs/architecture.md true: its
// test fails when a package imports what the map says it must not, or when
// code or docs cite a section of docs/method.md that does not exist. It also
// keeps the documentation navigable: every relative link of a Markdown page
// names a file (and heading) that exists, and no hand-written page outgrows
// its size cap.
package archtest
