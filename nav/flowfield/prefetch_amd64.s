//go:build !purego

#include "textflag.h"

// func prefetch(a, b unsafe.Pointer)
TEXT ·prefetch(SB), NOSPLIT|NOFRAME, $0-16
	MOVQ       a+0(FP), AX
	MOVQ       b+8(FP), BX
	PREFETCHT0 (AX)
	PREFETCHT0 (BX)
	RET
