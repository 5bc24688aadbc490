// Package experimentstest trains small sweeps into run folders for the tests
// of the code that reads them (intervals, reports, the sweep's own outputs),
// so that each test states the configuration it needs and not the steps of
// a run. It is for tests only: nothing outside a _test.go file imports it.
package experimentstest
