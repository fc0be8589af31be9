//go:build !purego && !race

// The gate's owner path for amd64. Every function here starts with the
// same check, OWNED: s is not nil, s.owner is the calling goroutine's g
// (read as (TLS)) and s.gen is gen. Loads of the two words are plain
// moves, as sync/atomic's Load is on amd64. When the check fails the
// function jumps to its counterpart in Go (enterSlow, paramSlow...),
// whose ABI0 frame is the same, so that it returns to the caller.
//
// enterState returns s, unpinned, for a Context method to run its body
// on. The parameter reads (paramGate, paramCount, paramAt) run their
// body here too, so that the Context or Params method is one call of a
// leaf the compiler inlines at the call site, not a Go frame around the
// check; they only read s.params, which the request's own goroutine alone
// writes.

#include "go_asm.h"
#include "textflag.h"

// OWNED checks that s+0(FP) is live for gen+8(FP) and owned by the
// calling goroutine, leaving s in AX, and jumps to slow if not.
#define OWNED(slow) \
	MOVQ s+0(FP), AX; \
	TESTQ AX, AX; \
	JZ slow; \
	MOVQ (TLS), CX; \
	CMPQ state_owner(AX), CX; \
	JNE slow; \
	MOVQ gen+8(FP), DX; \
	CMPQ state_gen(AX), DX; \
	JNE slow

// func enterState(s *state, gen uint64) (*state, bool)
TEXT ·enterState(SB),NOSPLIT,$0-25
	OWNED(slow)
	MOVQ AX, ret+16(FP)
	MOVB $0, ret1+24(FP)
	RET
slow:
	JMP ·enterSlow(SB)

// func paramGate(s *state, gen uint64, name string) string
// paramList.get over s.params: the first parameter whose key has name's
// length and bytes.
TEXT ·paramGate(SB),NOSPLIT,$0-48
	OWNED(slow)
	MOVQ state_params(AX), SI
	MOVQ (state_params+8)(AX), BX
	MOVQ name_base+16(FP), DI
	MOVQ name_len+24(FP), DX
loop:
	TESTQ BX, BX
	JZ none
	CMPQ (Param_Key+8)(SI), DX
	JNE next
	MOVQ Param_Key(SI), R8
	XORQ R9, R9
bytes:
	CMPQ R9, DX
	JEQ found
	MOVB (R8)(R9*1), R10
	CMPB R10, (DI)(R9*1)
	JNE next
	INCQ R9
	JMP bytes
next:
	ADDQ $Param__size, SI
	DECQ BX
	JMP loop
found:
	MOVQ Param_Value(SI), R8
	MOVQ (Param_Value+8)(SI), R9
	MOVQ R8, ret_base+32(FP)
	MOVQ R9, ret_len+40(FP)
	RET
none:
	MOVQ $0, ret_base+32(FP)
	MOVQ $0, ret_len+40(FP)
	RET
slow:
	JMP ·paramSlow(SB)

// func paramCount(s *state, gen uint64) int
TEXT ·paramCount(SB),NOSPLIT,$0-24
	OWNED(slow)
	MOVQ (state_params+8)(AX), BX
	MOVQ BX, ret+16(FP)
	RET
slow:
	JMP ·paramCountSlow(SB)

// func paramAt(s *state, gen uint64, i int) Param
// s.params[i], or the zero Param when i is out of range (an unsigned
// compare, so a negative i is too).
TEXT ·paramAt(SB),NOSPLIT,$0-56
	OWNED(slow)
	MOVQ i+16(FP), BX
	CMPQ BX, (state_params+8)(AX)
	JAE none
	MOVQ state_params(AX), SI
	IMULQ $Param__size, BX
	ADDQ BX, SI
	MOVQ Param_Key(SI), R8
	MOVQ (Param_Key+8)(SI), R9
	MOVQ Param_Value(SI), R10
	MOVQ (Param_Value+8)(SI), R11
	MOVQ R8, ret_Key_base+24(FP)
	MOVQ R9, ret_Key_len+32(FP)
	MOVQ R10, ret_Value_base+40(FP)
	MOVQ R11, ret_Value_len+48(FP)
	RET
none:
	MOVQ $0, ret_Key_base+24(FP)
	MOVQ $0, ret_Key_len+32(FP)
	MOVQ $0, ret_Value_base+40(FP)
	MOVQ $0, ret_Value_len+48(FP)
	RET
slow:
	JMP ·paramAtSlow(SB)

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
