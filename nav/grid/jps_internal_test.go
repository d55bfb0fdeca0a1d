package grid

import (
	"testing"

	"github.com/stretchr/testify/require"
)

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

// TestJPSQueueHotKeepsOrder checks that the hot stack (the cells pushed
// with f = fmin) keeps the queue's order: among entries of equal f the
// latest pushed pops first, whether it was pushed before its f became
// fmin (a fine bucket) or after (hot).
func TestJPSQueueHotKeepsOrder(t *testing.T) {
	q := newJPSQueue(64)
	q.reset(100)
	q.push(100, 1) // f = fmin: hot
	q.push(105, 2) // a fine bucket
	q.push(105, 6)
	q.push(100, 3)
	q.push(1<<jpsShift+7, 5) // a coarse bucket
	pop := func() int32 {
		t.Helper()
		c, ok := q.pop()
		require.True(t, ok)
		return c
	}
	require.Equal(t, []int32{3, 1}, []int32{pop(), pop()})
	require.Equal(t, int32(6), pop()) // fmin becomes 105
	require.Equal(t, int64(105), q.fmin)
	q.push(105, 4) // f = fmin: hot, above 2
	require.Len(t, q.hot, 1)
	require.Equal(t, []int32{4, 2, 5}, []int32{pop(), pop(), pop()})
	_, ok := q.pop()
	require.False(t, ok)
	// reset empties hot
	q.push(1<<jpsShift+7, 8)
	q.reset(0)
	require.Empty(t, q.hot)
	_, ok = q.pop()
	require.False(t, ok)
}

// TestJPMovesPairsEachJumpBitWithItsMove checks jpMoves by direction: a
// jump bit names the direction of the scan (jpE: east, +x), the move bit
// with the same step is the one runJPSExact tests (their bit orders
// differ: jpE is bit 0, moveW is bit 0).
func TestJPMovesPairsEachJumpBitWithItsMove(t *testing.T) {
	step := map[uint16][2]int32{jpE: {1, 0}, jpW: {-1, 0}, jpS: {0, 1}, jpN: {0, -1}}
	for b := 0; b < 16; b++ {
		var want uint8
		for jb, st := range step {
			if uint16(b)&jb != 0 {
				want |= 1 << uint(moveIndex[(st[1]+1)*3+st[0]+1])
			}
		}
		require.Equalf(t, want, jpMoves[b], "jump bits %04b", b)
	}
	require.Equal(t, uint8(moveW), jpMoves[jpW])
	require.Equal(t, uint8(moveE|moveS), jpMoves[jpE|jpS])
}
