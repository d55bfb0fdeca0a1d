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
