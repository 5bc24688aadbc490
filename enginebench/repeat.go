package enginebench

import (
	"fmt"
	"slices"
)

// DefaultRepeat is the number of times each figure is measured when the
// configuration gives none: five measurements give a median that one
// disturbed measurement (a GC cycle, another program's burst) cannot move.
const DefaultRepeat = 5

// MaxSpread is the spread, (max − min) / median over the repeats, above
// which a figure is flagged as unreliable: the machine was busy, or the
// measurement too short.
const MaxSpread = 0.2

// Spread summarises repeated measurements of one figure.
type Spread struct {
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// Rel returns (Max − Min) / Median, or 0 for a zero median.
func (s Spread) Rel() float64 {
	if s.Median == 0 {
		return 0
	}
	return (s.Max - s.Min) / s.Median
}

// spreadOf returns the median (the mean of the middle two for an even
// count), minimum and maximum of v, which must not be empty.
func spreadOf(v []float64) Spread {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return Spread{Median: med, Min: s[0], Max: s[n-1]}
}

// repeats returns the number of repeats asked for (0: DefaultRepeat).
func repeats(n int) (int, error) {
	switch {
	case n == 0:
		return DefaultRepeat, nil
	case n < 0:
		return 0, fmt.Errorf("bench: repeat = %d, want ≥ 1 (0: %d)", n, DefaultRepeat)
	}
	return n, nil
}

// Warnings returns one line for each figure of res and sweep whose spread
// over its repeats exceeds MaxSpread, and for each speed-up above its
// number of workers (which only a disturbed one-worker measurement gives).
func Warnings(res []Result, sweep []SweepResult) []string {
	var out []string
	flag := func(what string, s Spread, unit string, repeat int, raise string) {
		if s.Rel() > MaxSpread {
			out = append(out, fmt.Sprintf("%s varied by %.0f%% of its median over %d repeats (%.3g%s–%.3g%s): the machine was busy or the measurement too short; rerun, or raise %s",
				what, 100*s.Rel(), repeat, s.Min, unit, s.Max, unit, raise))
		}
	}
	for _, r := range res {
		flag(fmt.Sprintf("%s %s µs/step", r.Dataset, r.Engine), r.USPerStepSpread, " µs", r.Repeats, "--steps or --repeat")
	}
	for _, r := range sweep {
		const raise = "--networks, --sweep-steps or --repeat"
		flag(fmt.Sprintf("%s %s sweep time on %d workers", r.Dataset, r.Engine, r.Workers), r.SecondsSpread, " s", r.Repeats, raise)
		flag(fmt.Sprintf("%s %s sweep time on 1 worker", r.Dataset, r.Engine), r.OneWorkerSpread, " s", r.Repeats, raise)
		flag(fmt.Sprintf("%s %s speed-up", r.Dataset, r.Engine), r.SpeedupSpread, "×", r.Repeats, raise)
		if r.Speedup > float64(r.Workers)*(1+MaxSpread/2) {
			out = append(out, fmt.Sprintf("%s %s speed-up %.2f× on %d workers is more than %d workers can give: the one-worker runs were slowed by other work; rerun on an idle machine",
				r.Dataset, r.Engine, r.Speedup, r.Workers, r.Workers))
		}
	}
	return out
}
