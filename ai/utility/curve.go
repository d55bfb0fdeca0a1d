package utility

import (
	"github.com/archai-go/archai/internal/detmath"
	"math"
	"strconv"
)

// CurveKind selects the formula of a [Curve].
type CurveKind uint8

// Curve kinds. Each formula uses the field's four parameters of [Curve]: slope M,
// exponent K, vertical shift B and horizontal shift C (Mark, Behavioral Mathematics for
// Game AI; Mark and Dill, GDC 2010; Graham, Game AI Pro ch. 9). x is the normalised
// input, already clamped to [0, 1].
const (
	// CurveIdentity: y = x. The parameters are ignored; this is the zero Curve.
	CurveIdentity CurveKind = iota
	// CurveLinear: y = M·(x − C) + B.
	CurveLinear
	// CurvePolynomial: y = M·(x − C)^K + B. K = 2 is quadratic; a negative base with a
	// non-integer K has no real power and scores 0.
	CurvePolynomial
	// CurveExponential: y = M·(e^(K·(x − C)) − 1)/(e^K − 1) + B, an exponential normalised
	// so that with M = 1, B = C = 0 it runs from (0, 0) to (1, 1) for every K ≠ 0:
	// K > 0 rises slowly then steeply, K < 0 the other way. K = 0 is its limit,
	// the line M·(x − C) + B. A K so large that e^K overflows (above 709.78) is
	// computed divided through by e^K, so it still rises to 1 at x = 1 + C.
	CurveExponential
	// CurveLogistic (sigmoid): y = K/(1 + e^(−M·(x − C))) + B: steepness M, midpoint C,
	// height K.
	CurveLogistic
	// CurveLogit, the inverse of CurveLogistic: y = K·ln(u/(1 − u))/M + B with u = x − C.
	// With K = 1, C = 0 and B = the midpoint it undoes Logistic(M, midpoint).
	// u ≤ 0 gives −∞ (clamped to 0), u ≥ 1 gives +∞ (clamped to 1).
	CurveLogit
	// CurveNormal (Gaussian bell): y = M·e^(−(x − C)²/(2K²)) + B: peak height M at the
	// mean C, standard deviation K (K = 0 is its limit: M + B on the mean, B off it;
	// so is a K whose square underflows to 0, about 1e-162). A d = x − C or K so large
	// that d² or 2K² overflows (above about 1e154) is computed from d/K.
	CurveNormal
	// CurveSine: y = M·sin(π·K·(x − C)) + B. K = 0.5 is a quarter wave rising from 0 to 1,
	// K = 1 a half wave (a bump peaking at x = C + 0.5). The sine is the same on every
	// platform and exact to about 1e-16 while |π·K·(x − C)| is small; its error grows as
	// about 4e-17 times that angle (3e-8 at 1e9), so past about 1e16 radians (a K far too
	// large for inputs in [0, 1]) the value is some number in [−1, 1], not the sine.
	CurveSine
	// CurveSmoothstep: y = M·(3u² − 2u³) + B with u = (x − C)/K clamped to [0, 1]: an
	// S-curve from C to C + K with zero slope at both ends (GLSL's smoothstep with
	// edge0 = C, edge1 = C + K). K = 0 is a step at C.
	CurveSmoothstep
	numCurveKinds
)

var curveNames = [numCurveKinds]string{"Identity", "Linear", "Polynomial", "Exponential",
	"Logistic", "Logit", "Normal", "Sine", "Smoothstep"}

// String returns the kind's name, such as "Logistic", or "CurveKind(n)".
func (k CurveKind) String() string {
	if k < numCurveKinds {
		return curveNames[k]
	}
	return "CurveKind(" + strconv.Itoa(int(k)) + ")"
}

// Curve is a response curve: it maps a normalised input x in [0, 1] to a score in
// [0, 1]. It is a small value (plain data, no functions), so curves can be saved,
// loaded and edited by designers. The formula of each [CurveKind] is given with the
// kind; the zero Curve is [CurveIdentity].
//
// Parameters must be finite: [New] refuses a consideration whose M, K, B or C is NaN or
// ±Inf, whatever the kind (ErrBadParam; an ignored parameter too, as Identity's and
// Linear's K): NaN scored 0 for every input, and each infinite one either gave NaN too
// or a limit a finite value gives (a step: Smoothstep with K = 0 or a steep Logistic;
// a constant: M = 0 and B), so the action never won and nothing said why. A Curve
// used alone (Eval) with such a parameter still scores by the rules below.
//
// A curve that scores 0 at every input in [0, 1] (Linear(1, -2): the line is below 0
// there) vetoes its action for good in a product: [New] refuses it (ErrCurveZero), as
// it refuses a NaN parameter, unless the zero vetoes nothing (a WeightedSum
// consideration without Veto). Sine curves are not checked.
//
// [Curve.Eval] applies three rules around the formula, so a curve never returns a value
// outside [0, 1] and never panics:
//   - an input that is NaN or ±Inf scores 0 (a broken fact never recommends an action);
//   - a finite input is clamped to [0, 1];
//   - an output that is NaN scores 0, any other output is clamped to [0, 1] (+Inf to 1).
type Curve struct {
	Kind CurveKind
	M    float64 // slope or steepness
	K    float64 // exponent, height or width, by kind
	B    float64 // vertical shift
	C    float64 // horizontal shift (midpoint, mean)
}

// Linear returns y = m·x + b.
func Linear(m, b float64) Curve { return Curve{Kind: CurveLinear, M: m, B: b} }

// Quadratic returns y = x²: low scores until x is large.
func Quadratic() Curve { return Curve{Kind: CurvePolynomial, M: 1, K: 2} }

// InverseQuadratic returns y = 1 − x², the quadratic flipped vertically (M = −1,
// B = 1): high scores that fall away as x grows.
func InverseQuadratic() Curve { return Curve{Kind: CurvePolynomial, M: -1, K: 2, B: 1} }

// Polynomial returns y = x^k.
func Polynomial(k float64) Curve { return Curve{Kind: CurvePolynomial, M: 1, K: k} }

// Exponential returns the normalised exponential from (0, 0) to (1, 1) with rate k
// (see [CurveExponential]).
func Exponential(k float64) Curve { return Curve{Kind: CurveExponential, M: 1, K: k} }

// Logistic returns y = 1/(1 + e^(−steepness·(x − midpoint))).
func Logistic(steepness, midpoint float64) Curve {
	return Curve{Kind: CurveLogistic, M: steepness, K: 1, C: midpoint}
}

// Logit returns y = ln(x/(1 − x))/steepness + midpoint, the inverse of
// Logistic(steepness, midpoint).
func Logit(steepness, midpoint float64) Curve {
	return Curve{Kind: CurveLogit, M: steepness, K: 1, B: midpoint}
}

// Normal returns a bell of height 1 at mean with standard deviation sd.
func Normal(mean, sd float64) Curve { return Curve{Kind: CurveNormal, M: 1, K: sd, C: mean} }

// Sine returns y = sin(π·k·x).
func Sine(k float64) Curve { return Curve{Kind: CurveSine, M: 1, K: k} }

// Smoothstep returns the S-curve rising from 0 at edge0 to 1 at edge1.
func Smoothstep(edge0, edge1 float64) Curve {
	return Curve{Kind: CurveSmoothstep, M: 1, K: edge1 - edge0, C: edge0}
}

// Eval returns the score of input x, in [0, 1]. See [Curve] for the rules on bad input
// and [CurveKind] for the formulas. An unknown Kind scores 0.
func (c Curve) Eval(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	x = clamp01(x)
	var y float64
	switch c.Kind {
	case CurveIdentity:
		return x
	case CurveLinear:
		y = float64(c.M*(x-c.C)) + c.B
	case CurvePolynomial:
		u := x - c.C
		switch c.K { // common exponents without detPow
		case 1:
		case 2:
			u *= u
		case 3:
			u *= u * u
		default:
			u = detmath.Pow(u, c.K)
		}
		y = float64(c.M*u) + c.B
	case CurveExponential:
		u := x - c.C
		if math.Abs(c.K) < 1e-9 {
			y = float64(c.M*u) + c.B
		} else if d := detmath.Expm1(c.K); d <= math.MaxFloat64 {
			y = c.M*detmath.Expm1(c.K*u)/d + c.B
		} else { // e^K overflows (K > 709.78; it scored 0 at every x): the same ratio divided through by e^K
			e := detmath.Exp(-c.K)
			y = c.M*(detmath.Exp(c.K*(u-1))-e)/(1-e) + c.B
		}
	case CurveLogistic:
		y = c.K/(1+detmath.Exp(-c.M*(x-c.C))) + c.B
	case CurveLogit:
		u := x - c.C
		y = c.K*detmath.Log(u/(1-u))/c.M + c.B
	case CurveNormal:
		d := x - c.C
		if 2*c.K*c.K == 0 { // the limit of a vanishing width: M + B on the mean, B off it (also where K² underflows: 0/0 scored 0 on the mean)
			y = c.B
			if d == 0 {
				y += c.M
			}
		} else if dd, kk := d*d, 2*c.K*c.K; math.IsInf(dd, 0) || math.IsInf(kk, 0) {
			// d² or 2K² overflows (|d| or |K| above about 1e154; 0 at every x before, or
			// NaN, also 0): the same exponent from z = d/K, which does not
			z := d / c.K
			y = float64(c.M*detmath.Exp(-float64(z*z)/2)) + c.B
		} else {
			y = float64(c.M*detmath.Exp(-dd/kk)) + c.B
		}
	case CurveSine:
		y = float64(c.M*detmath.Sin(math.Pi*c.K*(x-c.C))) + c.B
	case CurveSmoothstep:
		var u float64
		if c.K == 0 {
			if x >= c.C {
				u = 1
			}
		} else {
			u = clamp01((x - c.C) / c.K)
		}
		y = float64(c.M*u*u*(3-float64(2*u))) + c.B // rounded: no multiply-add on any build (2u compiles to u+u)
	default:
		return 0
	}
	if math.IsNaN(y) {
		return 0
	}
	return clamp01(y)
}

// Range normalises a raw fact (a distance in cells, health points, seconds) to [0, 1]
// before a curve: Min maps to 0 and Max to 1, linearly, clamped outside.
//   - Inverted ranges are allowed: with Min > Max the score falls as the fact grows
//     (Range{Min: 10, Max: 0} maps 10 to 0 and 0 to 1).
//   - A zero-width range (Min == Max) is a step: a fact >= Min gives 1, below gives 0.
//   - A NaN fact gives NaN, which a [Curve] scores 0; ±Inf facts clamp like any other
//     (a +Inf distance on Range{0, 20} is 1, "far").
//   - Finite bounds as wide as the float64 range (Range{-1e308, 1e308}) work: 0 maps
//     to 0.5.
//   - Bounds must be finite: [New] refuses a NaN or ±Inf Min or Max (ErrBadParam).
//     With one, every finite fact mapped to 0 or NaN (Range{0, +Inf}: v/Inf is 0),
//     which scored 0, a veto in a product.
type Range struct {
	Min, Max float64
}

// Unit is the range [0, 1], for facts that are already normalised.
var Unit = Range{Min: 0, Max: 1}

// Normalize maps v from the range to [0, 1]; see [Range] for the rules.
func (r Range) Normalize(v float64) float64 {
	if math.IsNaN(v) {
		return v
	}
	w := r.Max - r.Min
	if w == 0 {
		if v >= r.Min {
			return 1
		}
		return 0
	}
	t := (v - r.Min) / w
	if math.IsInf(w, 0) && !math.IsInf(r.Min, 0) && !math.IsInf(r.Max, 0) {
		// finite bounds whose width overflows (Range{-1e308, 1e308}): the same
		// ratio on halves, which cannot overflow (every fact read 0 before)
		t = (float64(v/2) - float64(r.Min/2)) / (float64(r.Max/2) - float64(r.Min/2))
	}
	if math.IsNaN(t) { // ±Inf fact on an infinite range, or a NaN bound
		return t
	}
	return clamp01(t)
}

func clamp01(x float64) float64 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}
