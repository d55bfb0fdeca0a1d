package grid

import (
	"errors"
	"math"
	"testing"
)

// GenerateTown with sizes below the floor, at the limit and past it: the small
// ones give 16×16 maps with an open, connected area (however small); the absurd ones an error,
// never a panic or an attempt to allocate.
func TestGenerateTownAbsurdSizes(t *testing.T) {
	for _, size := range []int{math.MinInt, -1, 0, 1, 15, 16, 17} {
		for seed := range uint64(300) {
			g, err := GenerateTown(size, seed)
			if err != nil {
				t.Fatalf("GenerateTown(%d, %d): %v", size, seed, err)
			}
			want := max(size, 16)
			if g.Width() != want || g.Height() != want {
				t.Fatalf("GenerateTown(%d, %d): %dx%d, want %dx%d", size, seed, g.Width(), g.Height(), want, want)
			}
			open, first := 0, Cell{X: -1}
			for y := range want {
				for x := range want {
					c := Cell{X: int32(x), Y: int32(y)}
					if g.Passable(c) {
						if open == 0 {
							first = c
						}
						open++
						if !g.Connected(first, c) {
							t.Fatalf("GenerateTown(%d, %d): %v and %v not connected", size, seed, first, c)
						}
					}
				}
			}
			// not "about a quarter" built on at the floor: 16×16 maps keep as few as
			// 10 open cells of 196 (seed 1409); at least one is left
			if open == 0 {
				t.Fatalf("GenerateTown(%d, %d): %d open cells of %d", size, seed, open, want*want)
			}
		}
	}
	for _, size := range []int{8193, 1 << 20, math.MaxInt32, math.MaxInt} {
		if _, err := GenerateTown(size, 1); !errors.Is(err, ErrTooLarge) {
			t.Errorf("GenerateTown(%d): %v, want ErrTooLarge", size, err)
		}
	}
}
