package steer

// Rand is a small seeded random source (SplitMix64, Steele, Lea & Flood,
// "Fast splittable pseudorandom number generators", OOPSLA 2014) kept in an
// agent's component, so every agent's random choices replay from its seed and
// the whole state is one number.
type Rand struct {
	State uint64
}

// NewRand returns a source seeded with seed.
func NewRand(seed uint64) Rand { return Rand{State: seed} }

// Uint64 returns the next pseudo-random number.
func (r *Rand) Uint64() uint64 {
	r.State += 0x9e3779b97f4a7c15
	return mix(r.State)
}

// Float64 returns a number in [0, 1).
func (r *Rand) Float64() float64 {
	return float64(float64(r.Uint64()>>11) / (1 << 53)) // rounded (x/2⁵³ compiles to a product): see norm
}

// Intn returns a number in [0, n); n must be > 0 (returns 0 otherwise).
func (r *Rand) Intn(n int) int {
	if n <= 0 {
		return 0
	}
	return int(r.Uint64() % uint64(n))
}

// mix is SplitMix64's output function.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
