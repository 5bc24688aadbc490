// Package fuzzcheck holds the properties every fuzz target of fp checks,
// whatever it parses: an input of at most MaxInput bytes is read without a
// panic, within MaxTime and without allocating more than MaxAlloc bytes,
// and a refusal is one line of text. The fuzz targets live beside the
// readers they exercise (datasets, records, model); this package only
// keeps the bounds in one place, so that they hold alike for all of them.
package fuzzcheck
