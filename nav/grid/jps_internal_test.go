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
