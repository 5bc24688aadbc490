package experiments

import "syscall"

// addressSpaceLeft is the address space RLIMIT_AS leaves the process: the
// limit less the address space in use (VmSize), which the Go runtime's
// reservations make far larger than the memory in use.
func addressSpaceLeft() (float64, bool) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur >= 1<<62 {
		return 0, false
	}
	kb, ok := procField("/proc/self/status", "VmSize:")
	if !ok {
		return float64(r.Cur), true
	}
	return max(float64(r.Cur)-kb*1024, 0), true
}
