package grid

import "testing"

// TestOctileIntBranchFree checks the branch-free octileInt against the
// octile distance written out, for every sign and either axis the larger.
func TestOctileIntBranchFree(t *testing.T) {
	for dx := int32(-70); dx <= 70; dx++ {
		for dy := int32(-70); dy <= 70; dy++ {
			ax, ay := dx, dy
			if ax < 0 {
				ax = -ax
			}
			if ay < 0 {
				ay = -ay
			}
			want := costStraight*int64(max(ax, ay)) + (costDiag-costStraight)*int64(min(ax, ay))
			if got := octileInt(dx, dy); got != want {
				t.Fatalf("octileInt(%d, %d) = %d, want %d", dx, dy, got, want)
			}
		}
	}
	if got, want := octileInt(-8191, 8190), int64(costStraight*8191+(costDiag-costStraight)*8190); got != want {
		t.Fatalf("octileInt(-8191, 8190) = %d, want %d", got, want)
	}
}

// TestDiagDirs checks diagDirs against the move tables it condenses.
func TestDiagDirs(t *testing.T) {
	for d := 4; d < 8; d++ {
		dd := diagDirs[d-4]
		dx, dy := moveDX[d], moveDY[d]
		if dd.dx != dx || dd.dy != dy {
			t.Fatalf("move %d: (%d, %d), want (%d, %d)", d, dd.dx, dd.dy, dx, dy)
		}
		if want := uint16(1) << uint(8+d); dd.bit != want {
			t.Errorf("move %d: bit %#x, want %#x", d, dd.bit, want)
		}
		if want := diagLines[d-4]; dd.lines != want {
			t.Errorf("move %d: lines %#x, want %#x", d, dd.lines, want)
		}
		if dh, dv := moveIndex[4+dx], moveIndex[4+3*dy]; dd.dh != dh || dd.dv != dv {
			t.Errorf("move %d: components %d, %d, want %d, %d", d, dd.dh, dd.dv, dh, dv)
		}
	}
}

// TestBitLinesScans checks nextSet and prevSet against a cell-by-cell scan
// on lines of several densities, from every cell, across word boundaries.
func TestBitLinesScans(t *testing.T) {
	const lines, length = 6, 200
	rng := uint64(1)
	for _, density := range []uint64{2, 8, 64, 1000} {
		var b bitLines
		b.reset(lines, length)
		set := make([][]bool, lines)
		for r := range set {
			set[r] = make([]bool, length)
			for c := range set[r] {
				rng = rng*6364136223846793005 + 1442695040888963407
				if (rng>>33)%density == 0 {
					set[r][c] = true
					b.set(r, c)
				}
			}
			// the ends stop every scan, as the padded border does
			set[r][0], set[r][length-1] = true, true
			b.set(r, 0)
			b.set(r, length-1)
		}
		for r := range set {
			for from := range length {
				next := from
				for !set[r][next] {
					next++
				}
				if got := b.nextSet(int32(r), int32(from)); got != int32(next) {
					t.Fatalf("density 1/%d, line %d: nextSet(%d) = %d, want %d", density, r, from, got, next)
				}
				prev := from
				for !set[r][prev] {
					prev--
				}
				if got := b.prevSet(int32(r), int32(from)); got != int32(prev) {
					t.Fatalf("density 1/%d, line %d: prevSet(%d) = %d, want %d", density, r, from, got, prev)
				}
			}
		}
	}
}
