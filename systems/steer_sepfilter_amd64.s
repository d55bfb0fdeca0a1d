//go:build !purego

#include "textflag.h"

// sepFilterAVX2 is sepFilterGo on four candidates at a time with AVX2 (see
// sepFilter in steer_sepfilter_amd64.go). d = pos − q and d² = dx·dx + dy·dy
// are rounded as Go rounds them (no FMA), two candidates to a ymm register
// as (x0, y0, x1, y1), as they lie in memory. A candidate is kept when it is
// before its run's end, is not the agent's own slot, and !(d² ≥ r²) (so
// NaN is kept). Each candidate's entry (d) is written at the list's end,
// which then moves on by one entry if it is kept: no branch on a distance.
// After each job's runs, the list's length is written to the job (end).

// lane constants: ·sepLaneIdxA, ·sepLaneIdxB, ·sepLaneFour (steer_lanes_amd64.s)

// func sepFilterAVX2(base *r2.Vec, jobs *sepJob, n int, ents *sepEnt) int
//
// Registers: SI base, DI the job, R8 jobs left,
// R9 the list's end, R10 its start, BX the run's sepRun, DX runs left,
// AX the block's first candidate, CX candidates left in the run,
// R12 to R14 scratch; Y15 (px, py, px, py), Y13 r², Y9 and Y10 the lane
// indices of A and B, Y11 four, Y7 the run's n and Y8 its self (both less
// 4 per block done); Y0 to Y6 scratch.
//
// sepJob: pos at 0, r2max at 16, runs at 24 and 48 (lo, n, self: 8 bytes
// each), end at 88, 104 bytes in all. sepEnt: d, 16 bytes.
TEXT ·sepFilterAVX2(SB), NOSPLIT, $0-40
	MOVQ    base+0(FP), SI
	MOVQ    jobs+8(FP), DI
	MOVQ    n+16(FP), R8
	MOVQ    ents+24(FP), R9
	MOVQ    R9, R10
	VMOVDQU ·sepLaneIdxA(SB), Y9
	VMOVDQU ·sepLaneIdxB(SB), Y10
	VMOVDQU ·sepLaneFour(SB), Y11

job:
	// the agent's position twice, and r², each field loaded in its own size
	VBROADCASTSD 0(DI), Y15
	VBROADCASTSD 8(DI), Y0
	VBLENDPD     $10, Y0, Y15, Y15 // (px, py, px, py)
	VBROADCASTSD 16(DI), Y13
	LEAQ         24(DI), BX
	MOVQ         $2, DX

run:
	// an empty run keeps nothing (most of a sparse crowd's bucket rows),
	// nor does one holding the agent alone: on to the next. Else
	// AX = &base[lo]; CX = n; Y7 = n and Y8 = self in every lane
	MOVQ         8(BX), CX
	TESTQ        CX, CX
	JLE          nextrun
	CMPQ         CX, $1
	JNE          full
	CMPQ         16(BX), $0
	JEQ          nextrun // the agent alone in its run: nothing to keep

full:
	MOVQ         0(BX), AX
	SHLQ         $4, AX
	ADDQ         SI, AX
	VPBROADCASTQ 8(BX), Y7
	VPBROADCASTQ 16(BX), Y8

block:
	// Y1, Y2: the lanes of A's and B's candidates before the run's end
	// (n > k) and not the agent's own slot (self ≠ k)
	VPCMPGTQ Y9, Y7, Y1
	VPCMPGTQ Y10, Y7, Y2
	VPCMPEQQ Y9, Y8, Y0
	VPANDN   Y1, Y0, Y1
	VPCMPEQQ Y10, Y8, Y0
	VPANDN   Y2, Y0, Y2

	// d = pos − q, and d² = dx·dx + dy·dy in both lanes of a candidate
	// (the squares, plus the squares with each pair swapped)
	VMOVUPD   0(AX), Y3
	VMOVUPD   32(AX), Y4
	VSUBPD    Y3, Y15, Y3
	VSUBPD    Y4, Y15, Y4
	VMULPD    Y3, Y3, Y5
	VPERMILPD $5, Y5, Y0
	VADDPD    Y0, Y5, Y5
	VMULPD    Y4, Y4, Y6
	VPERMILPD $5, Y6, Y0
	VADDPD    Y0, Y6, Y6

	// kept: !(d² ≥ r²) (NGE_UQ: true for NaN), in a lane of Y1 or Y2;
	// R12 bit 0 for candidate 0, bit 2 for 1; R13 likewise for 2 and 3
	VCMPPD    $0x19, Y13, Y5, Y5
	VANDPD    Y1, Y5, Y5
	VCMPPD    $0x19, Y13, Y6, Y6
	VANDPD    Y2, Y6, Y6
	VMOVMSKPD Y5, R12
	VMOVMSKPD Y6, R13

	// each candidate's entry at the list's end, which moves on by one
	// entry (16 bytes) for a kept one
	VMOVUPD      X3, 0(R9)
	MOVL         R12, R14
	ANDL         $1, R14
	SHLL         $4, R14
	ADDQ         R14, R9
	VEXTRACTF128 $1, Y3, X0
	VMOVUPD      X0, 0(R9)
	ANDL         $4, R12
	SHLL         $2, R12
	ADDQ         R12, R9
	VMOVUPD      X4, 0(R9)
	MOVL         R13, R14
	ANDL         $1, R14
	SHLL         $4, R14
	ADDQ         R14, R9
	VEXTRACTF128 $1, Y4, X0
	VMOVUPD      X0, 0(R9)
	ANDL         $4, R13
	SHLL         $2, R13
	ADDQ         R13, R9

	// the next block of the run, if any: four slots on, n and self less 4
	ADDQ   $64, AX
	VPSUBQ Y11, Y7, Y7
	VPSUBQ Y11, Y8, Y8
	SUBQ   $4, CX
	JGT    block

	// the next run, then the job's end in the list, then the next job
nextrun:
	ADDQ $24, BX
	DECQ DX
	JNZ  run
	MOVQ R9, R12
	SUBQ R10, R12
	SHRQ $4, R12
	MOVQ R12, 88(DI)
	ADDQ $104, DI
	DECQ R8
	JNZ  job

	// the number of entries kept
	SUBQ       R10, R9
	SHRQ       $4, R9
	MOVQ       R9, ret+32(FP)
	VZEROUPPER
	RET
