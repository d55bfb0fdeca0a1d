package detmath

import (
	"go/ast"
	"go/parser"
	"go/token"
	"hash/fnv"
	"io/fs"
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r2"
)

// Hypot, Norm and Unit are math.Hypot's, r2.Norm's and r2.Unit's bits where
// those run the library's assembly (amd64, 386), so replacing them changed no
// hash there; and a pinned hash of Hypot holds on every build.
func TestHypotIsMathHypot(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	asm := runtime.GOARCH == "amd64" || runtime.GOARCH == "386"
	h := fnv.New64a()
	var buf [8]byte
	specials := []float64{0, math.Copysign(0, -1), 5e-324, 1e-310, 1, -3, 1e300, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	for i := range 300000 {
		x := math.Ldexp(rng.Float64()-0.5, rng.IntN(60)-30)
		y := math.Ldexp(rng.Float64()-0.5, rng.IntN(60)-30)
		if i < len(specials)*len(specials) {
			x, y = specials[i/len(specials)], specials[i%len(specials)]
		}
		got := Hypot(x, y)
		if want := math.Hypot(x, y); asm && math.Float64bits(got) != math.Float64bits(want) && !(got != got && want != want) {
			t.Fatalf("Hypot(%v, %v) = %v, math.Hypot %v", x, y, got, want)
		}
		v := r2.Vec{X: x, Y: y}
		if n := Norm(v); math.Float64bits(n) != math.Float64bits(got) && !(n != n && got != got) {
			t.Fatalf("Norm(%v) = %v, Hypot %v", v, n, got)
		}
		if u, w := Unit(v), r2.Unit(v); asm && (math.Float64bits(u.X) != math.Float64bits(w.X) && !(u.X != u.X && w.X != w.X) ||
			math.Float64bits(u.Y) != math.Float64bits(w.Y) && !(u.Y != u.Y && w.Y != w.Y)) {
			t.Fatalf("Unit(%v) = %v, r2.Unit %v", v, u, w)
		}
		u := math.Float64bits(got)
		if got != got {
			u = 1
		}
		for k := range buf {
			buf[k] = byte(u >> (8 * k))
		}
		h.Write(buf[:])
	}
	if got, want := h.Sum64(), uint64(0x3ac4dc5099c44daa); got != want {
		t.Errorf("hash %#x, want %#x", got, want)
	}
}

// No module code outside cmd/ and examples/ calls the library's functions
// whose bits differ between builds (fused multiply-adds on GOAMD64=v3 or arm64,
// assembly on some architectures): simulation state takes detmath's. Exact
// ones (Sqrt, Floor, Mod, Abs, ...) are free, and so are r2.Add, Sub and Scale (no
// product summed). (.ci/nofma checks the module's own sums, not gonum's.)
func TestNoBuildDependentMathInModuleCode(t *testing.T) {
	banned := map[string]map[string]bool{
		"math": {"Sin": true, "Cos": true, "Sincos": true, "Tan": true, "Exp": true, "Exp2": true, "Expm1": true,
			"Log": true, "Log2": true, "Log10": true, "Log1p": true, "Pow": true, "Pow10": false, "Atan": true,
			"Atan2": true, "Asin": true, "Acos": true, "Sinh": true, "Cosh": true, "Tanh": true, "Asinh": true,
			"Acosh": true, "Atanh": true, "Cbrt": true, "Hypot": true, "Erf": true, "Erfc": true, "Gamma": true, "Lgamma": true},
		"r2": {"Norm": true, "Unit": true, "Cos": true, "Rotate": true, "NewRotation": true, // math.Hypot, Sincos, or
			"Dot": true, "Cross": true, "Norm2": true}, // x·y + z·w, which gonum's code fuses on GOAMD64=v3 and arm64
	}
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == "cmd" || rel == "examples" || strings.HasPrefix(d.Name(), ".") && rel != "." || rel == filepath.Join("internal", "detmath") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && banned[id.Name][sel.Sel.Name] {
					t.Errorf("%s: %s.%s (build-dependent bits; use internal/detmath)", fset.Position(sel.Pos()), id.Name, sel.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
