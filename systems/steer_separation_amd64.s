//go:build !purego && !amd64.v3

#include "textflag.h"

// sepRunsAVX2 is separation's inner loop (sepRunsGo) on four candidates at
// a time with AVX2 (see sepRunsAVX2's doc comment in
// steer_separation_amd64.go). The arithmetic is IEEE 754's, rounded as Go
// rounds it: the same subtractions, products, sums, square roots and
// divisions per candidate, with the same operands (a sum or product with its
// operands swapped is the same number), and the pushes are added to the two
// sums one candidate after the other, so the result is sepRunsGo's to the
// bit. Nothing is fused (no FMA).
//
// Layout: a ymm register holds two candidates as (x0, y0, x1, y1), as they
// lie in memory; a block of four candidates is two such registers, A (0, 1)
// and B (2, 3). The lanes of a candidate at or past the run's end (which the
// Go side makes sure are slots of the array, read but not used) are masked:
// their push is replaced by +0, which leaves a sum as it is, and they never
// report a zero distance.

// lane constants: ·sepLaneIdxA, ·sepLaneIdxB, ·sepLaneFour (steer_lanes_amd64.s)

// func sepRunsAVX2(base *r2.Vec, args *sepArgs) (sx, sy float64, zero bool)
//
// Registers: SI base, DI args, BX the run's sepRun, DX runs left, AX the
// block's first candidate, CX candidates left in the run;
// Y15 (px, py, px, py), Y14 radius, Y13 r², X12 the sums (sx, sy),
// Y11 the lanes found at distance 0, Y9 and Y10 the lane indices of A and
// B, Y7 the run's n and Y8 its self (both less 4 per block done);
// Y0 to Y6 scratch.
TEXT ·sepRunsAVX2(SB), NOSPLIT, $0-33
	MOVQ base+0(FP), SI
	MOVQ args+8(FP), DI

	// constants of the call: the agent's position twice, radius, r²;
	// the sums so far; no zero distance yet. Each field is read with a
	// load of its own size: the caller has just stored them one by one,
	// and a load that spans two stores waits for them to reach the cache.
	VBROADCASTSD 0(DI), Y15
	VBROADCASTSD 8(DI), Y0
	VBLENDPD     $10, Y0, Y15, Y15 // (px, py, px, py)
	VBROADCASTSD 16(DI), Y14
	VBROADCASTSD 24(DI), Y13
	VMOVSD       32(DI), X12
	VMOVHPD      40(DI), X12, X12
	VPXOR        Y11, Y11, Y11
	VMOVDQU        ·sepLaneIdxA(SB), Y9
	VMOVDQU        ·sepLaneIdxB(SB), Y10

	// for each of the two runs (sepArgs.runs at offset 48, 24 bytes each)
	LEAQ 48(DI), BX
	MOVQ $2, DX

run:
	// AX = &base[lo]; CX = n; Y7 = n and Y8 = self in every lane
	MOVQ         0(BX), AX
	SHLQ         $4, AX
	ADDQ         SI, AX
	MOVQ         8(BX), CX
	VPBROADCASTQ 8(BX), Y7
	VPBROADCASTQ 16(BX), Y8

block:
	// Y1, Y2: the lanes of A's and B's candidates before the run's end
	// (n > k); then load the four candidates
	VPCMPGTQ Y9, Y7, Y1
	VPCMPGTQ Y10, Y7, Y2
	VMOVUPD  0(AX), Y3
	VMOVUPD  32(AX), Y4

	// d = pos − q, and d² = dx·dx + dy·dy in both lanes of a candidate
	// (the squares, plus the squares with each pair swapped)
	VSUBPD    Y3, Y15, Y3
	VSUBPD    Y4, Y15, Y4
	VMULPD    Y3, Y3, Y5
	VPERMILPD $5, Y5, Y0
	VADDPD    Y0, Y5, Y5
	VMULPD    Y4, Y4, Y6
	VPERMILPD $5, Y6, Y0
	VADDPD    Y0, Y6, Y6

	// the agent's own slot (lanes with k = self) counts as at radius:
	// d² = r², as sepRunsGo's conditional move
	VPCMPEQQ  Y9, Y8, Y0
	VBLENDVPD Y0, Y13, Y5, Y5
	VPCMPEQQ  Y10, Y8, Y0
	VBLENDVPD Y0, Y13, Y6, Y6

	// note the candidates before the run's end at d² = 0 in Y11
	VPXOR  Y0, Y0, Y0
	VCMPPD $0, Y0, Y5, Y0 // d² == 0 (ordered: a NaN is not)
	VANDPD Y1, Y0, Y0
	VORPD  Y0, Y11, Y11
	VPXOR  Y0, Y0, Y0
	VCMPPD $0, Y0, Y6, Y0
	VANDPD Y2, Y0, Y0
	VORPD  Y0, Y11, Y11

	// the four d² in one register, (d²0, d²2, d²1, d²3), then
	// n = √min(d², r²) (a NaN d² stays NaN: VMINPD returns its second
	// operand, d², when one is NaN, as Go's min does) and the factor
	// q = ((r − n)/r)/n of each candidate
	VSHUFPD $0, Y6, Y5, Y5
	VMINPD  Y5, Y13, Y5
	VSQRTPD Y5, Y5
	VSUBPD  Y5, Y14, Y0
	VDIVPD  Y14, Y0, Y0
	VDIVPD  Y5, Y0, Y0

	// back to two lanes per candidate: (q0, q0, q1, q1), (q2, q2, q3, q3);
	// the pushes q·d, +0 in the lanes past the run's end
	VUNPCKLPD Y0, Y0, Y5
	VUNPCKHPD Y0, Y0, Y6
	VMULPD    Y3, Y5, Y3
	VMULPD    Y4, Y6, Y4
	VANDPD    Y1, Y3, Y3
	VANDPD    Y2, Y4, Y4

	// add them to (sx, sy) one candidate after the other: 0, 1, 2, 3
	VADDPD       X3, X12, X12
	VEXTRACTF128 $1, Y3, X3
	VADDPD       X3, X12, X12
	VADDPD       X4, X12, X12
	VEXTRACTF128 $1, Y4, X4
	VADDPD       X4, X12, X12

	// the next block of the run, if any: four slots on, n and self less 4
	ADDQ   $64, AX
	VPSUBQ ·sepLaneFour(SB), Y7, Y7
	VPSUBQ ·sepLaneFour(SB), Y8, Y8
	SUBQ   $4, CX
	JGT    block

	// the next run
	ADDQ $24, BX
	DECQ DX
	JNZ  run

	// results: the sums, and whether a lane was at distance 0
	VMOVSD    X12, sx+16(FP)
	VMOVHPD   X12, sy+24(FP)
	VMOVMSKPD Y11, AX
	TESTL     AX, AX
	SETNE     zero+32(FP)
	VZEROUPPER
	RET
