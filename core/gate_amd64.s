//go:build !purego && !race

// enterState for amd64. The owner path: s is not nil, s.owner is the
// calling goroutine's g (read as (TLS)) and s.gen is gen; then s is
// returned, unpinned. Loads of the two words are plain moves, as
// sync/atomic's Load is on amd64. Anything else jumps to enterSlow, whose
// ABI0 frame is the same, so it returns to enterState's caller.

#include "go_asm.h"
#include "textflag.h"

// func enterState(s *state, gen uint64) (*state, bool)
TEXT ·enterState(SB),NOSPLIT,$0-25
	MOVQ s+0(FP), AX
	TESTQ AX, AX
	JZ slow
	MOVQ (TLS), CX
	CMPQ state_owner(AX), CX
	JNE slow
	MOVQ gen+8(FP), DX
	CMPQ state_gen(AX), DX
	JNE slow
	MOVQ AX, ret+16(FP)
	MOVB $0, ret1+24(FP)
	RET
slow:
	JMP ·enterSlow(SB)

// func ownState(s *state)
// ownSlow in assembly: s.owner becomes the calling goroutine's g, with an
// exchange (sync/atomic's Store on amd64) only when it is another.
TEXT ·ownState(SB),NOSPLIT,$0-8
	MOVQ s+0(FP), AX
	MOVQ (TLS), CX
	CMPQ state_owner(AX), CX
	JEQ owned
	XCHGQ CX, state_owner(AX)
owned:
	RET
