//go:build unix

package backprop_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used, user and system. On a
// machine shared with other work it measures a step's cost more steadily
// than the wall clock, which also counts the time the step waits for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
