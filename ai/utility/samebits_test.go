package utility

import (
	"fmt"
	"hash/fnv"
	"math"
	"testing"
)

// sameBitsHash hashes the bits of every curve kind's scores over many inputs and of a
// run of Softmax decisions.
func sameBitsHash() uint64 {
	h := fnv.New64a()
	put := func(x float64) {
		var b [8]byte
		u := math.Float64bits(x)
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		h.Write(b[:])
	}
	curves := []Curve{Logistic(10, 0.5), Logistic(-3.7, 0.2), Logit(5, 0.5), Normal(0.4, 0.13), Exponential(2.3),
		Exponential(-5.1), Exponential(800), Polynomial(2.7), Polynomial(0.31), Polynomial(7), Sine(0.5), Sine(3.3),
		Smoothstep(0.2, 0.9), Linear(0.7, 0.1), {Kind: CurvePolynomial, M: 1, K: 1.5, C: 0.3}}
	for _, c := range curves {
		for i := 0; i <= 4096; i++ {
			put(c.Eval(float64(i) / 4096))
		}
	}
	ag := &facts{}
	var acts []Action
	for i := range 6 {
		ag.v[i] = 0.3 + 0.11*float64(i)
		acts = append(acts, Action{Name: fmt.Sprint(i), Considerations: []Consideration{{Input: at(i), Curve: Logistic(7, 0.6)}}})
	}
	r, err := New("soft", SoftmaxPolicy(0.013).WithHysteresis(0.05), acts...)
	if err != nil {
		panic(err)
	}
	s := r.NewState()
	for i := range 2000 {
		src := &fixedSrc{x: math.Mod(float64(i)*0.6180339887498949, 1)}
		put(float64(r.Decide(ag, &s, src)))
		for _, v := range s.Scores {
			put(v)
		}
	}
	return h.Sum64()
}

type fixedSrc struct{ x float64 }

func (f *fixedSrc) Float64() float64 { return f.x }

// Curve scores and Softmax picks are the same bits on every build and CPU: they are
// hashed (State.Scores) and decide near ties, so a run replays on another machine.
// Before, math.Exp (and Log, Pow, Sin, Expm1) gave other last bits on an amd64 with
// FMA than under GOARCH=386, GODEBUG=cpu.fma=off or arm64. Check with
//
//	go test ./ai/utility -run SameBits; GOARCH=386 go test ./ai/utility -run SameBits;
//	GODEBUG=cpu.fma=off go test ./ai/utility -run SameBits
func TestCurvesAndSoftmaxGiveTheSameBitsOnEveryBuild(t *testing.T) {
	const want = 0xf5d173d9258ed075 // 0x9bacfd27172a2dba before Sine reduced by 2π in two parts (detmath.Sincos)
	if got := sameBitsHash(); got != want {
		t.Errorf("hash %#x, want %#x", got, uint64(want))
	}
}
