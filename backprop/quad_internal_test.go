package backprop

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randRows returns n rows of 16 values with zeros, negative zeros and
// both signs, as the gates and activations of a batch have them.
func randRows(rng *rand.Rand, n, width int) []float64 {
	v := make([]float64, n*width)
	for i := range v {
		switch rng.IntN(8) {
		case 0:
			v[i] = 0
		case 1:
			v[i] = math.Copysign(0, -1)
		default:
			v[i] = rng.NormFloat64() * 3
		}
	}
	return v
}

func sameBits(t *testing.T, what string, got, want []float64) {
	t.Helper()
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("%s[%d] = %v (%#x), plain %v (%#x)", what, i, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
		}
	}
}

// TestQuadKernelsMatchPlain: the kernels in use (AVX2 assembly where the
// CPU has it) give the plain kernels' results bit for bit, for several
// batch lengths including an empty one.
func TestQuadKernelsMatchPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 3, 150} {
		in, d, w, b := randRows(rng, n, 16), randRows(rng, n, 16), randRows(rng, 4, 16), randRows(rng, 1, 16)
		c, sw, y := randRows(rng, n, 1), randRows(rng, n, 1), make([]float64, n)
		for i := range y {
			y[i] = float64(rng.IntN(2))
		}
		got, want := make([]float64, n*16), make([]float64, n*16)
		quadAffine(got, in, n, w, b)
		quadAffinePlain(want, in, n, w, b)
		sameBits(t, "affine", got, want)

		gt, wt := make([]float64, 16), make([]float64, 16)
		quadTau(gt, in, n, c)
		quadTauPlain(wt, in, n, c)
		sameBits(t, "tau", gt, wt)

		m := [4][]float64{randRows(rng, n, 4), make([]float64, n*4), randRows(rng, n, 4), randRows(rng, n, 4)}
		ga, wa := make([]float64, n*16), make([]float64, n*16)
		gg, wg := append([]float64(nil), in...), append([]float64(nil), in...)
		quadGateT(ga, gg, n, m[0], m[1], m[2], m[3])
		quadGateTPlain(wa, wg, n, m[0], m[1], m[2], m[3])
		sameBits(t, "gateT act", ga, wa)
		sameBits(t, "gateT gate", gg, wg)

		gz, wz := make([]float64, n*4), make([]float64, n*4)
		quadOut(gz, in, n, w[:16], b[:4])
		quadOutPlain(wz, in, n, w[:16], b[:4])
		sameBits(t, "out", gz, wz)

		z := randRows(rng, n, 4)
		for i := range z { // logits far out too: exp's clamp and underflow
			if rng.IntN(10) == 0 {
				z[i] *= 300
			}
		}
		gd, wd := make([]float64, n*4), make([]float64, n*4)
		gr, wr := quadRisk(z, gd, sw, y), quadRiskPlain(z, wd, sw, y)
		sameBits(t, "risk dz", gd, wd)
		sameBits(t, "risk R", gr[:], wr[:])

		var gbo, wbo [4]float64
		gdd, wdd := make([]float64, n*16), make([]float64, n*16)
		quadOutBack(gt, &gbo, gdd, in, z, n, w[:16])
		quadOutBackPlain(wt, &wbo, wdd, in, z, n, w[:16])
		sameBits(t, "outback gw", gt, wt)
		sameBits(t, "outback gb", gbo[:], wbo[:])
		sameBits(t, "outback d", gdd, wdd)

		for _, s := range [][]float64{nil, b} {
			g1, g2 := append([]float64(nil), d...), append([]float64(nil), d...)
			quadBackGate(g1, 16, g1, in, n, c, s, gt)
			quadBackGatePlain(g2, 16, g2, in, n, c, s, wt)
			sameBits(t, "backgate d", g1, g2)
			sameBits(t, "backgate gb", gt, wt)
			// Into rows of a wider buffer.
			w1, w2 := make([]float64, n*40+8), make([]float64, n*40+8)
			quadBackGate(w1[8:], 40, d, in, n, c, s, gt)
			quadBackGatePlain(w2[8:], 40, d, in, n, c, s, wt)
			sameBits(t, "backgate strided", w1, w2)
			for i := 0; i < n; i++ {
				sameBits(t, "backgate strided row", w1[8+i*40:8+i*40+16], g1[i*16:i*16+16])
			}
		}

		wideRows := randRows(rng, n+1, 40)
		quadBias(got, wideRows[8:], n, 40, b)
		quadBiasPlain(want, wideRows[8:], n, 40, b)
		sameBits(t, "bias", got, want)

		g64, w64 := make([]float64, 64), make([]float64, 64)
		quadGemmTN(g64, in, d, n)
		quadGemmTNPlain(w64, in, d, n)
		sameBits(t, "gemmTN", g64, w64)

		quadGemmNT(got, d, n, w)
		quadGemmNTPlain(want, d, n, w)
		sameBits(t, "gemmNT", got, want)
	}
}

// ulps is how many representable numbers lie between a and b.
func ulps(a, b float64) uint64 {
	x, y := int64(math.Float64bits(a)), int64(math.Float64bits(b))
	if x > y {
		return uint64(x - y)
	}
	return uint64(y - x)
}

// TestLog1pUnit: log1pUnit is math.Log1p to within one unit in the last
// place on [0, 1], ends and √2 − 1 (where it switches form) included.
func TestLog1pUnit(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	xs := []float64{0, 1, 5e-324, 1e-300, 1e-17, math.Sqrt2 - 1, math.Nextafter(math.Sqrt2-1, 1), math.Nextafter(math.Sqrt2-1, 0)}
	for i := 0; i < 200000; i++ {
		xs = append(xs, rng.Float64(), math.Exp(-rng.Float64()*745))
	}
	for _, x := range xs {
		if got, want := log1pUnit(x), math.Log1p(x); ulps(got, want) > 1 {
			t.Fatalf("log1pUnit(%v) = %v, math.Log1p %v", x, got, want)
		}
	}
}

// TestExpNeg: expNeg is within one unit in the last place of exp on
// [−708, 0]: of correctly rounded values (computed to 50 digits), and of
// math.Exp within two, as amd64's math.Exp is itself a unit or two off in
// places; below −708 it is exp(−708).
func TestExpNeg(t *testing.T) {
	exact := [][2]float64{
		{-229.27359750187895, 2.677575705202856e-100},
		{-106.80121513854736, 4.138296510113724e-47},
		{-460.8616069122165, 7.085119783168756e-201},
		{-51.284890960620274, 5.33647956589165e-23},
		{-379.40445904913594, 1.6855320908595994e-165},
		{-258.90775317411055, 3.612363741880528e-113},
		{-41.063238740492416, 1.4671077319849969e-18},
		{-359.2644990981095, 9.406119630339589e-157},
		{-26.546926176925297, 2.9567625569127083e-12},
		{-307.0211440329692, 4.596331237596337e-134},
		{-49.45763989083021, 3.3175685661833946e-22},
		{-64.22481344745646, 1.2809079422730872e-28},
		{-1.273557567427542, 0.279834319385217},
		{-2.480556374016114, 0.08369664599649082},
		{-0.37140588344893677, 0.6897639209755755},
		{-0.6697168938210436, 0.5118534661551674},
		{-1.8822996672167678, 0.15223960246800186},
		{-2.843126827371017, 0.058243264310847184},
		{-1.731308845852496, 0.17705252378991224},
		{-1.1900414239523405, 0.3042086622805701},
		{-2.92876531677876, 0.053463007289376085},
		{-0.13974804185326883, 0.8695773048856544},
		{-2.575405377146039, 0.07612295803562173},
		{-0.8688278589950288, 0.419442907451901},
		{-2.4683122217414537, 0.08472774002941842},
		{-0.5, 0.6065306597126334},
		{-1e-10, 0.9999999999},
		{-707.9, 3.655411389615008e-308},
	}
	for _, c := range exact {
		if got := expNeg(c[0]); ulps(got, c[1]) > 1 {
			t.Errorf("expNeg(%v) = %v, exp = %v", c[0], got, c[1])
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	xs := []float64{0, math.Copysign(0, -1), -1e-300, -1, -708}
	for i := 0; i < 200000; i++ {
		xs = append(xs, -rng.Float64()*708, -rng.Float64()*3)
	}
	for _, x := range xs {
		if got, want := expNeg(x), math.Exp(x); ulps(got, want) > 2 {
			t.Fatalf("expNeg(%v) = %v, math.Exp %v", x, got, want)
		}
	}
	for _, x := range []float64{-708.5, -745, -1e6, math.Inf(-1)} {
		if got := expNeg(x); got != expNeg(expMin) {
			t.Errorf("expNeg(%v) = %v, want exp(−708) = %v", x, got, expNeg(expMin))
		}
	}
}
