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

// func affine32(o, b, x, w []float64, stride int)
// o[j] = b[j] + x[0]·w[j] + x[1]·w[stride+j] + … for j < 32, each product
// rounded before it is added (no fused multiply-add), in the order of x.
TEXT ·affine32(SB), NOSPLIT, $0-104
	MOVQ    o_base+0(FP), DI
	MOVQ    b_base+24(FP), SI
	MOVQ    x_base+48(FP), DX
	MOVQ    x_len+56(FP), CX
	MOVQ    w_base+72(FP), R8
	MOVQ    stride+96(FP), R9
	SHLQ    $3, R9
	VMOVUPD 0(SI), Y0
	VMOVUPD 32(SI), Y1
	VMOVUPD 64(SI), Y2
	VMOVUPD 96(SI), Y3
	VMOVUPD 128(SI), Y4
	VMOVUPD 160(SI), Y5
	VMOVUPD 192(SI), Y6
	VMOVUPD 224(SI), Y7
	XORQ    AX, AX

a32loop:
	CMPQ         AX, CX
	JGE          a32done
	VBROADCASTSD (DX)(AX*8), Y8
	VMULPD       0(R8), Y8, Y9
	VMULPD       32(R8), Y8, Y10
	VMULPD       64(R8), Y8, Y11
	VMULPD       96(R8), Y8, Y12
	VADDPD       Y9, Y0, Y0
	VADDPD       Y10, Y1, Y1
	VADDPD       Y11, Y2, Y2
	VADDPD       Y12, Y3, Y3
	VMULPD       128(R8), Y8, Y9
	VMULPD       160(R8), Y8, Y10
	VMULPD       192(R8), Y8, Y11
	VMULPD       224(R8), Y8, Y12
	VADDPD       Y9, Y4, Y4
	VADDPD       Y10, Y5, Y5
	VADDPD       Y11, Y6, Y6
	VADDPD       Y12, Y7, Y7
	ADDQ         R9, R8
	INCQ         AX
	JMP          a32loop

a32done:
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VMOVUPD Y5, 160(DI)
	VMOVUPD Y6, 192(DI)
	VMOVUPD Y7, 224(DI)
	VZEROUPPER
	RET

// func affine4(o, b, x, w []float64, stride int)
// affine32 for 4 columns.
TEXT ·affine4(SB), NOSPLIT, $0-104
	MOVQ    o_base+0(FP), DI
	MOVQ    b_base+24(FP), SI
	MOVQ    x_base+48(FP), DX
	MOVQ    x_len+56(FP), CX
	MOVQ    w_base+72(FP), R8
	MOVQ    stride+96(FP), R9
	SHLQ    $3, R9
	VMOVUPD 0(SI), Y0
	XORQ    AX, AX

a4loop:
	CMPQ         AX, CX
	JGE          a4done
	VBROADCASTSD (DX)(AX*8), Y8
	VMULPD       0(R8), Y8, Y9
	VADDPD       Y9, Y0, Y0
	ADDQ         R9, R8
	INCQ         AX
	JMP          a4loop

a4done:
	VMOVUPD Y0, 0(DI)
	VZEROUPPER
	RET
