package systems

import "gonum.org/v1/gonum/spatial/r2"

// No multiply-add is fused in this package: every product that a sum takes
// is rounded first, float64(a*b), the Go spec's rule that an explicit
// conversion rounds, which forbids the compiler to fuse it into the sum
// (one rounding fewer). A build for a CPU with FMA (GOAMD64=v3 and above,
// arm64) would fuse them otherwise, and its agents would part from the
// default build's by an ulp, then by whole cells: the state hashes are the
// same on every build only so. ai/steer, ai/orca, ai/utility, nav/* and
// cmd/bench follow the same rule; .ci/nofma lists any fused site left under
// GOAMD64=v3 and under GOARCH=arm64 (which fuses x*y − z and z − x*y too, and
// products amd64 leaves unfused because it reads a factor from memory), and
// the tests of exact bits (TestExactBitsOnEveryBuild) run under GOAMD64=v3 in
// .ci/run.

// scaled is r2.Scale(f, v) with each product rounded.
func scaled(f float64, v r2.Vec) r2.Vec { return r2.Vec{X: float64(f * v.X), Y: float64(f * v.Y)} }

// addScaled is r2.Add(p, r2.Scale(f, v)) with each product rounded.
func addScaled(p r2.Vec, f float64, v r2.Vec) r2.Vec {
	return r2.Vec{X: p.X + float64(f*v.X), Y: p.Y + float64(f*v.Y)}
}

// norm2 is |v|², each square rounded.
func norm2(v r2.Vec) float64 { return float64(v.X*v.X) + float64(v.Y*v.Y) }

// sq2 is dx² + dy², each square rounded.
func sq2(dx, dy float64) float64 { return float64(dx*dx) + float64(dy*dy) }
