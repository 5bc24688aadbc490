package report

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// niceTicks places about n labelled ticks at steps of 1, 2, 2.5 or 5 × 10^k,
// with one unlabelled tick between labels, and gives every label the same
// number of decimals. (gonum's default aims at three labels, too few to
// read values off a small panel.)
type niceTicks struct{ n int }

func (t niceTicks) Ticks(lo, hi float64) []plot.Tick {
	span := hi - lo
	if !(span > 0) || !finite(span) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	step := niceStep(span, t.n)
	first := math.Ceil(lo/step-1e-9) * step
	if first+step*1e-9 > hi {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	var vals []float64
	for k := 0; ; k++ {
		v := first + float64(k)*step
		if v > hi+step*1e-9 {
			break
		}
		if math.Abs(v) < step*1e-9 {
			v = 0 // not -0 or 1e-17
		}
		vals = append(vals, v)
	}
	dec := decimals(vals, step)
	var ticks []plot.Tick
	for _, v := range vals {
		ticks = append(ticks, plot.Tick{Value: v, Label: formatTick(v, dec)})
		if m := v + step/2; m <= hi {
			ticks = append(ticks, plot.Tick{Value: m})
		}
	}
	if m := vals[0] - step/2; m >= lo {
		ticks = append(ticks, plot.Tick{Value: m})
	}
	return ticks
}

// decimals returns the fewest decimals (up to 8) that print every value
// exactly to within a small fraction of the step, or -1 when values are so
// small or large that exponent notation reads better.
func decimals(vals []float64, step float64) int {
	if step < 1e-6 || step >= 1e7 {
		return -1
	}
	for d := 0; d <= 8; d++ {
		p := math.Pow(10, float64(d))
		ok := true
		for _, v := range vals {
			if math.Abs(math.Round(v*p)/p-v) > step*1e-6 {
				ok = false
				break
			}
		}
		if ok {
			return d
		}
	}
	return 8
}

func formatTick(v float64, dec int) string {
	if dec < 0 {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return strconv.FormatFloat(v, 'f', dec, 64)
}

// niceStep is the step of 1, 2, 2.5 or 5 × 10^k that divides span into a
// number of intervals closest to n−1 on a log scale.
func niceStep(span float64, n int) float64 {
	want := float64(max(n-1, 1))
	mag := math.Pow(10, math.Floor(math.Log10(span/want)))
	step, best := 0.0, math.Inf(1)
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if d := math.Abs(math.Log(span / (m * mag) / want)); d < best {
			step, best = m*mag, d
		}
	}
	return step
}

// snapAxis lowers the minimum of a linear axis to the labelled tick at or
// below it, so that the lowest value of the axis can be read off a label.
// (The tick step changes little, since the span grows by less than one
// step.)
func snapAxis(a *plot.Axis, n int) {
	span := a.Max - a.Min
	if !(span > 0) || !finite(span) {
		return
	}
	step := niceStep(span, n)
	lo := math.Floor(a.Min/step+1e-9) * step
	lo, _ = strconv.ParseFloat(strconv.FormatFloat(lo, 'g', 12, 64), 64) // 0.6, not 0.6000000000000001
	if math.Abs(lo-a.Min) > step*1e-9 {
		a.Min = lo
	}
}

// logTicks labels the powers of ten of a log axis whose minimum is a
// floor: the lowest label reads "≤ floor", because points at or below the
// floor are drawn on it.
type logTicks struct{ floor float64 }

func (t logTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo) + 1e-9); ; e++ {
		v := math.Pow(10, e)
		if v > hi*(1+1e-9) {
			break
		}
		if v >= lo*(1-1e-9) {
			label := powerOfTen(int(e))
			if math.Abs(v-t.floor) <= t.floor*1e-9 {
				label = "≤ " + label
			}
			ticks = append(ticks, plot.Tick{Value: v, Label: label})
		}
		for m := 2.0; m < 10; m++ { // unlabelled minor ticks
			if mv := m * v; mv > lo && mv < hi {
				ticks = append(ticks, plot.Tick{Value: mv})
			}
		}
	}
	return ticks
}

// powerOfTen writes 10^e as "0.01", "1", "100" near 1 and as "1e-5"
// otherwise. (The plot fonts lack a superscript minus, so 10⁻⁵ would read
// as 10⁵.)
func powerOfTen(e int) string {
	if e >= -2 && e <= 2 {
		return strconv.FormatFloat(math.Pow(10, float64(e)), 'f', max(0, -e), 64)
	}
	return "1e" + strconv.Itoa(e)
}
