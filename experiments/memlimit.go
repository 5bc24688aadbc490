package experiments

import (
	"bufio"
	"math"
	"os"
	"path"
	"strconv"
	"strings"
)

// fallbackMemory is the memory assumed available where the system says
// nothing: generous, so that it refuses only sweeps no workstation holds.
const fallbackMemory = 64 << 30

// memoryLimit is MemoryLimit; tests replace it.
var memoryLimit = MemoryLimit

// MemoryLimit returns the bytes this process may still allocate and what
// sets that bound: the least of the memory the system has available
// (MemAvailable of /proc/meminfo), what the process's control group may
// still use (cgroup v2 memory.max less memory.current, or v1
// memory.limit_in_bytes less memory.usage_in_bytes, at its own level and
// every level above) and the address space its resource limit leaves
// (RLIMIT_AS, as ulimit -v sets it, less the address space in use).
func MemoryLimit() (float64, string) {
	best, by := float64(fallbackMemory), "assumed: the system says nothing"
	take := func(v float64, what string) {
		if v >= 0 && v < best {
			best, by = v, what
		}
	}
	if kb, ok := procField("/proc/meminfo", "MemAvailable:"); ok {
		best, by = kb*1024, "MemAvailable"
	}
	if v, ok := cgroupLeft(); ok {
		take(v, "the control group's memory limit")
	}
	if v, ok := addressSpaceLeft(); ok {
		take(v, "RLIMIT_AS, ulimit -v")
	}
	return best, by
}

// procField reads a "Name: value kB" line of a /proc file, in kB.
func procField(file, name string) (float64, bool) {
	f, err := os.Open(file)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), name); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return float64(kb), err == nil
		}
	}
	return 0, false
}

// cgroupLeft is what the process's control groups still allow: the least,
// over its own group and every group above it, of the limit less the use.
func cgroupLeft() (float64, bool) {
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	left, found := math.Inf(1), false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		var root, limit, usage string
		switch {
		case parts[0] == "0" && parts[1] == "": // v2
			root, limit, usage = "/sys/fs/cgroup", "memory.max", "memory.current"
		case strings.Contains(","+parts[1]+",", ",memory,"): // v1
			root, limit, usage = "/sys/fs/cgroup/memory", "memory.limit_in_bytes", "memory.usage_in_bytes"
		default:
			continue
		}
		// Inside a container the group's path may not exist below root
		// (the container's own group is then root itself): walk up to it.
		for dir := parts[2]; ; dir = path.Dir(dir) {
			l, okL := readBytes(path.Join(root, dir, limit))
			u, okU := readBytes(path.Join(root, dir, usage))
			if okL && okU && l < 1<<60 { // "max" and v1's huge values mean none
				left, found = math.Min(left, math.Max(l-u, 0)), true
			}
			if dir == "/" || dir == "." || dir == "" {
				break
			}
		}
	}
	return left, found
}

// readBytes reads a file holding one number; "max" reads as none.
func readBytes(file string) (float64, bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	return float64(v), err == nil
}
