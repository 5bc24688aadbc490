package backprop_test

import (
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/fpareto/fp/backprop"
)

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_THREAD, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkCPU(b *testing.B) {
	for _, p := range benchShapes {
		b.Run(p.name, func(b *testing.B) {
			var c0 time.Duration
			n := 0
			b.Run("x", func(b *testing.B) {
				b.ReportAllocs()
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				c0 = cpuNow()
				benchStepNoReport(b, backprop.Engine{}, p)
				n = b.N
				b.ReportMetric(float64((cpuNow()-c0).Nanoseconds())/float64(n), "cpu-ns/op")
			})
		})
	}
}
