//go:build !purego

// curg for arm64: the runtime keeps the current goroutine's g pointer in
// the register the assembler names g (R28).

#include "textflag.h"

// func curg() uintptr
TEXT ·curg(SB),NOSPLIT,$0-8
	MOVD g, R0
	MOVD R0, ret+0(FP)
	RET
