//go:build !purego

#include "textflag.h"

// func storeAgent(dst *steerAgent, pos, vel, point *r2.Vec, kindAux, outRun uint64)
//
// Each field is loaded from where it is (the components, and the arguments
// in the size they were stored in), so no load waits on smaller stores
// that built it; the record is written with four MOVNTDQ.
TEXT ·storeAgent(SB), NOSPLIT|NOFRAME, $0-48
	MOVQ       dst+0(FP), DI
	MOVQ       pos+8(FP), SI
	MOVOU      0(SI), X0
	MOVQ       vel+16(FP), SI
	MOVOU      0(SI), X1
	MOVQ       point+24(FP), SI
	MOVOU      0(SI), X2
	MOVQ       kindAux+32(FP), X3
	MOVQ       outRun+40(FP), X4
	PUNPCKLQDQ X4, X3
	MOVNTO     X0, 0(DI)
	MOVNTO     X1, 16(DI)
	MOVNTO     X2, 32(DI)
	MOVNTO     X3, 48(DI)
	RET

// func storeFence()
TEXT ·storeFence(SB), NOSPLIT|NOFRAME, $0-0
	SFENCE
	RET

// func prefetchBlock(hot *steerAgent, n int, pf *steerPrefetch)
//
// For each of the n records from hot whose out is not 0: a prefetch for
// writing of its Steering component (element out−1 of the column that
// outs[run] starts) and, when its
// position lies on the grid (0 ≤ x < fw, 0 ≤ y < fh: not NaN), a prefetch of
// its cell's entries of the clearance and quadrant tables. Prefetches
// never fault and change nothing but when lines arrive in the cache.
//
// Offsets: steerAgent.pos 0, out 56, run 60; steerPrefetch.outs 0, clr 8, more 16,
// w 24, fw 32, fh 40 (TestSteerPrefetchLayout checks them).
TEXT ·prefetchBlock(SB), NOSPLIT|NOFRAME, $0-24
	MOVQ  hot+0(FP), SI
	MOVQ  n+8(FP), CX
	MOVQ  pf+16(FP), DI
	MOVQ  0(DI), R11  // outs
	MOVQ  8(DI), R8   // clr
	MOVQ  16(DI), R9  // more
	MOVQ  24(DI), R10 // w
	MOVSD 32(DI), X2  // float64(w)
	MOVSD 40(DI), X3  // float64(h)
	XORPD X4, X4
	TESTQ CX, CX
	JLE   pbdone

pbloop:
	MOVL  56(SI), AX
	TESTL AX, AX
	JZ    pbnext
	MOVL  60(SI), DX
	MOVQ  (R11)(DX*8), DX // the run's first Steering
	SHLQ  $4, AX          // out·16: one past the agent's Steering
	ADDQ  AX, DX
	BYTE  $0x0f; BYTE $0x0d; BYTE $0x4a; BYTE $0xf0 // PREFETCHW -16(DX)

	// the cell, if 0 ≤ x < fw and 0 ≤ y < fh (a NaN fails: unordered sets CF)
	MOVSD     0(SI), X0
	MOVSD     8(SI), X1
	UCOMISD   X4, X0
	JB        pbnext
	UCOMISD   X4, X1
	JB        pbnext
	UCOMISD   X0, X2
	JBE       pbnext
	UCOMISD   X1, X3
	JBE       pbnext
	CVTTSD2SQ X0, AX
	CVTTSD2SQ X1, DX
	IMULQ     R10, DX
	ADDQ      AX, DX
	PREFETCHT0 (R8)(DX*1)
	PREFETCHT0 (R9)(DX*1)

pbnext:
	ADDQ $64, SI
	DECQ CX
	JNZ  pbloop

pbdone:
	RET
