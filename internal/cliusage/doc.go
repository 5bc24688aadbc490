// Package cliusage makes a urfave/cli command refuse, in one line, what the
// library would otherwise pass over or answer with the whole help:
// arguments to a command that takes none, a mistyped flag (with the nearest
// flag and one usage line), a missing required flag.
package cliusage
