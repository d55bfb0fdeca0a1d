// Package detmath has elementary functions that give the same bits on every build
// and CPU, for the values archai hashes and decides on (utility curves and Softmax,
// steering angles, ORCA's Bias, spawn headings, fields of view).
//
// The standard library's math.Exp runs assembly on amd64 that uses fused multiply-adds
// when the CPU has FMA (decided at run time), its own assembly on arm64, and Go code
// elsewhere; math.Log has amd64 assembly; and the Go code of the others (Sin, Cos,
// Sincos, Atan2, Pow, Expm1) is fused on builds for CPUs with FMA (GOAMD64=v3, arm64).
// Their last bit differs between these: math.Exp(1.7) is 0x4015e552770df8a7 on an
// amd64 with FMA and 0x4015e552770df8a6 under GOARCH=386 or GODEBUG=cpu.fma=off, and
// math.Sincos and math.Cos of a million random angles hash differently under
// GOAMD64=v3 than under v1 or GOARCH=386. A simulation's state hash, or a near tie
// decided by these values, then parts one machine's run from another's. These
// functions round every product before a sum takes it, float64(a*b) (which forbids
// fusion, see .ci/nofma), and call only exact library functions (Floor, Frexp, Ldexp,
// Mod, Trunc), so every build gets the same bits.
//
// Accuracy: Exp, Expm1 and Log within a few ulps of the library's results over the
// ranges used (TestDetMathIsAccurate); Pow, e^(y·log x) for a y that is not a small
// integer, within about |y·log x|·2e-16 relative (49 ulps in the test's range, about
// 125 at 10^300.5); Sin, Cos and Sincos reduce their argument by 2π in two
// parts (the float64 nearest 2π, then the rest), within about 1e-16 of the
// library's for |x| up to 2^20 turns (6.6·10⁶), and by the float64 nearest 2π alone
// beyond (an error of about |x|·4e-17; always finite, within [−1, 1]).
package detmath

import (
	"math"

	"gonum.org/v1/gonum/spatial/r2"
)

// Constants of the reductions (ln 2 in a high part with trailing zero bits, so
// k·ln2Hi is exact for |k| < 2^11, and the rest) and the minimax polynomials of
// e^r on |r| ≤ ln2/2 and of log(1+f) on √2/2 ≤ 1+f ≤ √2 (Cody and Waite's
// reduction; the polynomials of Sun's fdlibm, e_exp.c and e_log.c, 1993).
const (
	detLn2Hi = 6.93147180369123816490e-01
	detLn2Lo = 1.90821492927058770002e-10
	detLog2e = 1.44269504088896338700e+00

	detP1 = 1.66666666666666019037e-01
	detP2 = -2.77777777770155933842e-03
	detP3 = 6.61375632143793436117e-05
	detP4 = -1.65339022054652515390e-06
	detP5 = 4.13813679705723846039e-08

	detL1 = 6.666666666666735130e-01
	detL2 = 3.999999999940941908e-01
	detL3 = 2.857142874366239149e-01
	detL4 = 2.222219843214978396e-01
	detL5 = 1.818357216161805012e-01
	detL6 = 1.531383769920937332e-01
	detL7 = 1.479819860511658591e-01

	detExpMax = 7.09782712893383973096e+02  // above: +Inf
	detExpMin = -7.45133219101941108420e+02 // below: 0
)

// Exp returns e^x, as math.Exp does for NaN and ±Inf.
func Exp(x float64) float64 {
	switch {
	case x != x:
		return x
	case x > detExpMax:
		return math.Inf(1)
	case x < detExpMin:
		return 0
	case x == 0:
		return 1
	}
	// x = k·ln2 + r, |r| ≤ ln2/2 (about)
	k := math.Floor(float64(x*detLog2e) + 0.5)
	hi := x - float64(k*detLn2Hi)
	lo := float64(k * detLn2Lo)
	r := hi - lo
	t := float64(r * r)
	p := detP4 + float64(t*detP5)
	p = detP3 + float64(t*p)
	p = detP2 + float64(t*p)
	p = detP1 + float64(t*p)
	c := r - float64(t*p)
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	return math.Ldexp(y, int(k))
}

// Expm1 returns e^x − 1, accurate for small x too: the Taylor series to x^17 for
// |x| < 0.35 (the first term left out is below 2e-24·|x|), else Exp(x) − 1, where
// |e^x − 1| > 0.29 keeps the subtraction's error within an ulp or two.
func Expm1(x float64) float64 {
	if math.Abs(x) >= 0.35 || x != x {
		return Exp(x) - 1
	}
	// x·(1 + x/2·(1 + x/3·(1 + … (1 + x/17))))
	p := 1.0
	for n := 17.0; n >= 2; n-- {
		p = 1 + float64(float64(x/n)*p)
	}
	return float64(x * p)
}

// Log returns the natural logarithm of x, as math.Log does for 0, negative, NaN
// and +Inf.
func Log(x float64) float64 {
	switch {
	case x != x || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	m, e := math.Frexp(x) // x = m·2^e, 0.5 ≤ m < 1 (exact)
	if m < math.Sqrt2/2 {
		m *= 2 // exact
		e--
	}
	f := m - 1 // exact: m is within a factor 2 of 1
	k := float64(e)
	s := f / (2 + f)
	z := float64(s * s)
	w := float64(z * z)
	t1 := detL4 + float64(w*detL6) // w·(L2 + w·(L4 + w·L6))
	t1 = float64(w * (detL2 + float64(w*t1)))
	t2 := detL5 + float64(w*detL7) // z·(L1 + w·(L3 + w·(L5 + w·L7)))
	t2 = detL3 + float64(w*t2)
	t2 = float64(z * (detL1 + float64(w*t2)))
	r := t1 + t2
	hfsq := float64(float64(0.5*f) * f)
	return float64(k*detLn2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(k*detLn2Lo))) - f)
}

// Pow returns x^y as math.Pow does (an integer y up to 64 in magnitude by
// squaring, else e^(y·log x)), with math.Pow's special cases: x^0 = 1 and 1^y = 1
// for every x and y (NaN too); 0^y is 0 for y > 0 (−0 for an odd integer y and x =
// −0) and +Inf for y < 0 (−Inf for an odd integer y and x = −0); (−Inf)^y is
// (−0)^−y; a negative finite x has a real power only for an integer y (else NaN);
// otherwise NaN in, NaN out.
func Pow(x, y float64) float64 {
	switch {
	case y == 0 || x == 1:
		return 1
	case x != x || y != y:
		return math.NaN()
	case x == 0:
		odd := math.Signbit(x) && oddInt(y)
		switch {
		case y < 0 && odd:
			return math.Inf(-1)
		case y < 0:
			return math.Inf(1)
		case odd:
			return math.Copysign(0, -1)
		}
		return 0
	case math.IsInf(y, 0):
		switch a := math.Abs(x); {
		case a == 1:
			return 1
		case (a < 1) == (y > 0):
			return 0
		}
		return math.Inf(1)
	case math.IsInf(x, -1):
		return Pow(math.Copysign(0, -1), -y)
	}
	if y == math.Trunc(y) && math.Abs(y) <= 64 { // integer powers by squaring (x^4 of 0.5 is 0.0625 exactly)
		n, b, p := int(math.Abs(y)), x, 1.0
		for ; n > 0; n >>= 1 {
			if n&1 == 1 {
				p *= b
			}
			b *= b
		}
		if y > 0 {
			return p
		}
		if a := math.Abs(p); a >= 0x1p-1022 && a <= math.MaxFloat64 || a == 0 {
			return 1 / p
		} // else x^|y| overflowed or lost bits below 2^-1022, where x^y need not: e^(y·log|x|)
	}
	if x > 0 {
		return Exp(float64(y * Log(x)))
	}
	if y != math.Trunc(y) {
		return math.NaN()
	}
	p := Exp(float64(y * Log(-x)))
	if oddInt(y) {
		p = -p
	}
	return p
}

// oddInt reports whether y is an odd integer.
func oddInt(y float64) bool {
	return y == math.Trunc(y) && math.Abs(y) < 1<<53 && math.Mod(y, 2) != 0
}

// Sin returns sin(x) (NaN for ±Inf and NaN), as Sincos does.
func Sin(x float64) float64 {
	s, _ := Sincos(x)
	return s
}

// Cos returns cos(x) (NaN for ±Inf and NaN), as Sincos does.
func Cos(x float64) float64 {
	_, c := Sincos(x)
	return c
}

// Sincos returns sin(x) and cos(x) (NaN, NaN for ±Inf and NaN; ±0, 1 for ±0):
// for |x| < 2^52, x is reduced modulo 2π (exactly by the float64 nearest 2π, then
// by the rest) to |r| ≤ π, folded onto |r| ≤ π/2 (sin(π − r) = sin r, cos(π − r) =
// −cos r), and both are summed from their Taylor series, to r^21 and r^20 (the
// first terms left out are below 6e-18 and 2e-17 for |r| ≤ π/2). Beyond 2^20
// turns the rest of the reduction is left out (an error of about |x|·4e-17,
// always finite and within [−1, 1]). Sincos(−x) is exactly (−sin x, cos x).
func Sincos(x float64) (sin, cos float64) {
	switch {
	case x != x || math.IsInf(x, 0):
		return math.NaN(), math.NaN()
	case x == 0:
		return x, 1 // keeps the sign of −0, which the series' r + r·z·p loses
	}
	const twoPi = 2 * math.Pi              // the float64 nearest 2π, below it
	const twoPiLo = 2.4492935982947064e-16 // 2π − twoPi
	r := math.Mod(x, twoPi)                // exact: x = k·twoPi + r, r in (−2π, 2π), the sign of x
	if k := math.Round((x - r) / twoPi); k != 0 && math.Abs(k) <= 1<<20 {
		r -= float64(k * twoPiLo) // x − k·2π, the rest of the reduction (beyond 2^20 turns r would not be the rest)
	}
	if r > math.Pi {
		r -= twoPi
	} else if r < -math.Pi {
		r += twoPi
	}
	sign := 1.0
	if r > math.Pi/2 {
		r, sign = math.Pi-r, -1
	} else if r < -math.Pi/2 {
		r, sign = -math.Pi-r, -1
	}
	sin, cos = series(r)
	return sin, sign * cos
}

// series returns sin r and cos r from their Taylor series, for |r| ≤ π/2.
func series(r float64) (sin, cos float64) {
	z := float64(r * r)
	p := 1.0 / 51090942171709440000 // 1/21!
	for _, c := range [...]float64{-1.0 / 121645100408832000, 1.0 / 355687428096000, -1.0 / 1307674368000,
		1.0 / 6227020800, -1.0 / 39916800, 1.0 / 362880, -1.0 / 5040, 1.0 / 120, -1.0 / 6} {
		p = c + float64(z*p)
	}
	sin = r + float64(float64(r*z)*p)
	q := 1.0 / 2432902008176640000 // 1/20!
	for _, c := range [...]float64{-1.0 / 6402373705728000, 1.0 / 20922789888000, -1.0 / 87178291200,
		1.0 / 479001600, -1.0 / 3628800, 1.0 / 40320, -1.0 / 720, 1.0 / 24, -1.0 / 2} {
		q = c + float64(z*q)
	}
	return sin, 1 + float64(z*q)
}

// Hypot returns √(p² + q²) as math.Hypot does, to the bit on amd64 and 386
// (max·√(1 + (min/max)²), each operation rounded; +Inf if either is ±Inf, else
// NaN if either is NaN). math.Hypot runs that assembly on amd64 and 386, but its
// Go code elsewhere, which arm64 builds with a fused multiply-add (1 + q·q), so
// r2.Norm and r2.Unit (which call it) are not the same bits on every build.
func Hypot(p, q float64) float64 {
	p, q = math.Abs(p), math.Abs(q)
	switch {
	case math.IsInf(p, 1) || math.IsInf(q, 1):
		return math.Inf(1)
	case p != p || q != q:
		return math.NaN()
	}
	if p < q {
		p, q = q, p
	}
	if p == 0 {
		return 0
	}
	q = q / p
	return p * math.Sqrt(float64(q*q)+1)
}

// Norm returns |v| by Hypot, as r2.Norm does by math.Hypot.
func Norm(v r2.Vec) float64 { return Hypot(v.X, v.Y) }

// Unit returns v scaled to length 1 by Hypot, as r2.Unit does by math.Hypot
// ((NaN, NaN) for the zero vector).
func Unit(v r2.Vec) r2.Vec {
	if v.X == 0 && v.Y == 0 {
		return r2.Vec{X: math.NaN(), Y: math.NaN()}
	}
	return r2.Scale(1/Hypot(v.X, v.Y), v)
}
