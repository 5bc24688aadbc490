//go:build !noasm

#include "textflag.h"

// func Mul(o, a, b []float64)
// o[i] = a[i]·b[i] for i < len(o); a and b are at least as long.
TEXT ·Mul(SB), NOSPLIT, $0-72
	MOVQ o_base+0(FP), DI
	MOVQ o_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVQ b_base+48(FP), DX
	XORQ AX, AX
	MOVQ CX, BX
	ANDQ $-8, BX

mulloop8:
	CMPQ    AX, BX
	JGE     multail
	VMOVUPD (SI)(AX*8), Y0
	VMOVUPD 32(SI)(AX*8), Y1
	VMULPD  (DX)(AX*8), Y0, Y0
	VMULPD  32(DX)(AX*8), Y1, Y1
	VMOVUPD Y0, (DI)(AX*8)
	VMOVUPD Y1, 32(DI)(AX*8)
	ADDQ    $8, AX
	JMP     mulloop8

multail:
	CMPQ  AX, CX
	JGE   muldone
	MOVSD (SI)(AX*8), X0
	MULSD (DX)(AX*8), X0
	MOVSD X0, (DI)(AX*8)
	INCQ  AX
	JMP   multail

muldone:
	VZEROUPPER
	RET

// func Add(o, a, b []float64)
// o[i] = a[i]+b[i] for i < len(o); a and b are at least as long.
TEXT ·Add(SB), NOSPLIT, $0-72
	MOVQ o_base+0(FP), DI
	MOVQ o_len+8(FP), CX
	MOVQ a_base+24(FP), SI
	MOVQ b_base+48(FP), DX
	XORQ AX, AX
	MOVQ CX, BX
	ANDQ $-8, BX

addloop8:
	CMPQ    AX, BX
	JGE     addtail
	VMOVUPD (SI)(AX*8), Y0
	VMOVUPD 32(SI)(AX*8), Y1
	VADDPD  (DX)(AX*8), Y0, Y0
	VADDPD  32(DX)(AX*8), Y1, Y1
	VMOVUPD Y0, (DI)(AX*8)
	VMOVUPD Y1, 32(DI)(AX*8)
	ADDQ    $8, AX
	JMP     addloop8

addtail:
	CMPQ  AX, CX
	JGE   adddone
	MOVSD (SI)(AX*8), X0
	ADDSD (DX)(AX*8), X0
	MOVSD X0, (DI)(AX*8)
	INCQ  AX
	JMP   addtail

adddone:
	VZEROUPPER
	RET

// func GE(o, a []float64, s float64)
// o[i] = 1 if a[i] ≥ s else 0 (also for NaN), for i < len(o).
TEXT ·GE(SB), NOSPLIT, $0-56
	MOVQ         o_base+0(FP), DI
	MOVQ         o_len+8(FP), CX
	MOVQ         a_base+24(FP), SI
	VBROADCASTSD s+48(FP), Y2
	MOVQ         $0x3ff0000000000000, R8
	MOVQ         R8, X3
	VBROADCASTSD X3, Y3
	XORQ         AX, AX
	MOVQ         CX, BX
	ANDQ         $-4, BX

geloop4:
	CMPQ    AX, BX
	JGE     getail
	VMOVUPD (SI)(AX*8), Y0
	VCMPPD  $0x1d, Y2, Y0, Y0
	VANDPD  Y3, Y0, Y0
	VMOVUPD Y0, (DI)(AX*8)
	ADDQ    $4, AX
	JMP     geloop4

getail:
	CMPQ    AX, CX
	JGE     gedone
	VMOVSD  (SI)(AX*8), X0
	VCMPSD  $0x1d, X2, X0, X0
	VANDPD  X3, X0, X0
	VMOVSD  X0, (DI)(AX*8)
	INCQ    AX
	JMP     getail

gedone:
	VZEROUPPER
	RET
