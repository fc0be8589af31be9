//go:build !purego

// curg for amd64: the runtime keeps the current goroutine's g pointer in
// thread-local storage, which an ABI0 assembly function reads as (TLS).

#include "textflag.h"

// func curg() uintptr
TEXT ·curg(SB),NOSPLIT,$0-8
	MOVQ (TLS), AX
	MOVQ AX, ret+0(FP)
	RET
