//go:build !purego

#include "textflag.h"

// Lane constants shared by Steer's AVX2 kernels (steer_separation_amd64.s,
// steer_sepfilter_amd64.s): two candidates to a ymm register as (x0, y0, x1,
// y1), so candidate k of a block of four occupies lanes 2k and 2k+1.

// the lane indices of a block's candidates: A holds 0 and 1, B holds 2 and 3
DATA ·sepLaneIdxA+0(SB)/8, $0
DATA ·sepLaneIdxA+8(SB)/8, $0
DATA ·sepLaneIdxA+16(SB)/8, $1
DATA ·sepLaneIdxA+24(SB)/8, $1
GLOBL ·sepLaneIdxA(SB), RODATA|NOPTR, $32
DATA ·sepLaneIdxB+0(SB)/8, $2
DATA ·sepLaneIdxB+8(SB)/8, $2
DATA ·sepLaneIdxB+16(SB)/8, $3
DATA ·sepLaneIdxB+24(SB)/8, $3
GLOBL ·sepLaneIdxB(SB), RODATA|NOPTR, $32

// the candidates per block, in every lane: the step of n and self
DATA ·sepLaneFour+0(SB)/8, $4
DATA ·sepLaneFour+8(SB)/8, $4
DATA ·sepLaneFour+16(SB)/8, $4
DATA ·sepLaneFour+24(SB)/8, $4
GLOBL ·sepLaneFour(SB), RODATA|NOPTR, $32
