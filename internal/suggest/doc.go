// Package suggest finds, for a name that matches nothing (a mistyped flag,
// key or subcommand), the known name it was most likely meant to be.
package suggest
