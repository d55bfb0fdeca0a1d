//go:build !purego

#include "textflag.h"

// func gatherRunKernel(args *gatherArgs) int
//
// gatherRunGo's loop (steer_gather.go) for g.n ≥ 1 agents. An agent
// qualifies when its mode m < 32 has bit m set in g.modes, its Kinematics,
// SpeedFactor and SteeringWeights are bit for bit the kind's (three
// 16-byte and one 32-byte compare), its entity's hash ID (byEntity, read
// within its length) is not negative, within Entities and names that
// entity again, and its slot (within slots) lies within hot. Its record is
// then written with four VMOVNTDQ: pos, vel, Desired.Point, then the word
// mode<<24 | low and the word outRun + j.
//
// gatherArgs: ents 0, pos 8, vel 16, kin 24, des 32, wts 40, n 48,
// byEntity 56, nByEntity 64, entities 72, nEntities 80, slots 88,
// nSlots 96, hot 104, nHot 112, low 120, outRun 128, modes 136, kin0 144,
// factor 168, wt 176. Strides: Entity 8, Position and Velocity 16,
// Kinematics 24, Desired and SteeringWeights 48 (Mode at 0, SpeedFactor
// at 8, Point at 16). TestGatherArgsLayout checks them.
//
// Registers: DI g, SI ents, R8 pos, R9 vel, R10 kin, R11 des, R12 wts,
// CX j, BX outRun + j, R13 hot, AX DX R14 R15 scratch; X8 the kind's
// (MaxSpeed, MaxForce), X9 (Radius, factor), Y10 its weights' first four
// words, X11 the last two.
TEXT ·gatherRunKernel(SB), NOSPLIT, $0-16
	MOVQ args+0(FP), DI
	MOVQ 0(DI), SI
	MOVQ 8(DI), R8
	MOVQ 16(DI), R9
	MOVQ 24(DI), R10
	MOVQ 32(DI), R11
	MOVQ 40(DI), R12
	MOVQ 104(DI), R13
	MOVQ 128(DI), BX
	XORQ CX, CX
	VMOVDQU 144(DI), X8
	VMOVDQU 160(DI), X9
	VMOVDQU 176(DI), Y10
	VMOVDQU 208(DI), X11

agent:
	// the mode: below 32, with its bit set in modes
	MOVBLZX 0(R11), AX
	CMPL    AX, $32
	JAE     done
	MOVQ    136(DI), DX
	BTQ     AX, DX
	JCC     done

	// the kind, bit for bit: Kinematics (24 bytes), SpeedFactor, weights
	VMOVDQU     0(R10), X0
	VPXOR       X8, X0, X0
	VMOVQ       16(R10), X1
	VMOVQ       8(R11), X2
	VPUNPCKLQDQ X2, X1, X1
	VPXOR       X9, X1, X1
	VPOR        X1, X0, X0
	VMOVDQU     0(R12), Y2
	VPXOR       Y10, Y2, Y2
	VMOVDQU     32(R12), X3
	VPXOR       X11, X3, X3
	VPOR        X3, X0, X0
	VPOR        Y0, Y2, Y2
	VPTEST      Y2, Y2
	JNZ         done

	// the hash ID: id = byEntity[e.ID()] (within its length), 0 ≤ id <
	// len(Entities) (unsigned), Entities[id] == e
	MOVQ    0(SI), DX
	MOVL    DX, AX
	CMPQ    AX, 64(DI)
	JAE     done
	MOVQ    56(DI), R14
	MOVLQSX (R14)(AX*4), AX
	CMPQ    AX, 80(DI)
	JAE     done
	MOVQ    72(DI), R14
	CMPQ    DX, (R14)(AX*8)
	JNE     done

	// the slot: slots[id] (within its length), 0 ≤ slot < len(hot)
	CMPQ    AX, 96(DI)
	JAE     done
	MOVQ    88(DI), R14
	MOVLQSX (R14)(AX*4), AX
	CMPQ    AX, 112(DI)
	JAE     done
	SHLQ    $6, AX
	ADDQ    R13, AX

	// the record
	MOVBQZX     0(R11), DX
	SHLQ        $24, DX
	ORQ         120(DI), DX
	VMOVQ       DX, X4
	VMOVQ       BX, X5
	VPUNPCKLQDQ X5, X4, X4
	VMOVDQU     0(R8), X0
	VMOVDQU     0(R9), X1
	VMOVDQU     16(R11), X2
	VMOVNTDQ    X0, 0(AX)
	VMOVNTDQ    X1, 16(AX)
	VMOVNTDQ    X2, 32(AX)
	VMOVNTDQ    X4, 48(AX)

	ADDQ $8, SI
	ADDQ $16, R8
	ADDQ $16, R9
	ADDQ $24, R10
	ADDQ $48, R11
	ADDQ $48, R12
	INCQ BX
	INCQ CX
	CMPQ CX, 48(DI)
	JLT  agent

done:
	MOVQ CX, ret+8(FP)
	VZEROUPPER
	RET
