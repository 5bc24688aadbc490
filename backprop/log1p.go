package backprop

import "math"

// fdlibm's log1p constants (as in the math package).
const (
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
	lp1   = 6.666666666666735130e-01
	lp2   = 3.999999999940941908e-01
	lp3   = 2.857142874366239149e-01
	lp4   = 2.222219843214978396e-01
	lp5   = 1.818357216161805012e-01
	lp6   = 1.531383769920937332e-01
	lp7   = 1.479819860511658591e-01
)

// log1pUnit is log1p(e) for 0 ≤ e ≤ 1, fdlibm's algorithm without its
// branches: where math.Log1p's branches on e go either way from row to
// row, as they do for the e = exp(−|z|) of a batch's logits, this is
// several times faster. It agrees with math.Log1p to within one unit in
// the last place (TestLog1pUnit).
func log1pUnit(e float64) float64 {
	u := 1 + e
	c := (e - (u - 1)) * (1 / u)                                          // 1 + e's rounding error, as a correction of log(u)
	k := float64(int64((0x3ff6a09e667f3bcd - math.Float64bits(u)) >> 63)) // 1 when u > √2: log(u) = ln 2 + log(u/2)
	f := u*(1-0.5*k) - 1                                                  // exact
	hfsq := 0.5 * f * f
	s := f / (2 + f)
	z := s * s
	r := z * (lp1 + z*(lp2+z*(lp3+z*(lp4+z*(lp5+z*(lp6+z*lp7))))))
	return k*ln2Hi - ((hfsq - (s*(hfsq+r) + (k*ln2Lo + c))) - f)
}

// fdlibm's exp constants (as in the math package), and the bits that
// scale by 2^k.
const (
	log2e  = 1.44269504088896338700e+00
	p1     = 1.66666666666666657415e-01
	p2     = -2.77777777770155933842e-03
	p3     = 6.61375632143793436117e-05
	p4     = -1.65339022054652515390e-06
	p5     = 4.13813679705723846039e-08
	expMin = -708 // exp(expMin) is above the smallest normal number
	// Adding magic to an integral k in [−1022, 0] leaves k + 1023 in the
	// low bits of the sum (its unit in the last place is 1).
	magic = 1<<52 + 1023
)

// expNeg is exp(x) for x ≤ 0, fdlibm's algorithm without branches; x below
// −708 is taken as −708 (exp(−708) ≈ 3.3e−308 stands for anything
// smaller: softplus and σ then differ from exact by less than that). Above
// −708 it is within one unit in the last place of exp (TestExpNeg).
func expNeg(x float64) float64 {
	x = max(x, expMin)
	k := math.RoundToEven(x * log2e)
	hi := x - k*ln2Hi
	lo := k * ln2Lo
	r := hi - lo
	t := r * r
	c := r - t*(p1+t*(p2+t*(p3+t*(p4+t*p5))))
	y := 1 - ((lo - (r*c)/(2-c)) - hi)
	return y * math.Float64frombits(math.Float64bits(k+magic)<<52)
}
