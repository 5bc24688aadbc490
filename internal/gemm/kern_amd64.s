//go:build !noasm

#include "textflag.h"

// func kern4x8(k int, a *float64, rs, cs int, b *float64, ldb int, c *float64, ldc int, add bool)
//
// C[r][j] (+)= Σ_p A(r, p)·B[p][j] for r < 4, j < 8, where A(r, p) is
// a[r·rs + p·cs], B[p][j] is b[p·ldb + j] and C[r][j] is c[r·ldc + j];
// C is added to when add is set and overwritten otherwise.
// The 4×8 block of C stays in eight YMM accumulators over the k steps.
TEXT ·kern4x8(SB), NOSPLIT, $0-65
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ rs+16(FP), R8
	SHLQ $3, R8
	LEAQ (R8)(R8*2), R9
	MOVQ cs+24(FP), R10
	SHLQ $3, R10
	MOVQ b+32(FP), DI
	MOVQ ldb+40(FP), R11
	SHLQ $3, R11
	MOVQ c+48(FP), DX
	MOVQ ldc+56(FP), R12
	SHLQ $3, R12

	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	TESTQ  CX, CX
	JEQ    store4

loop4:
	VMOVUPD      (DI), Y8
	VMOVUPD      32(DI), Y9
	VBROADCASTSD (SI), Y10
	VBROADCASTSD (SI)(R8*1), Y11
	VFMADD231PD  Y8, Y10, Y0
	VFMADD231PD  Y9, Y10, Y1
	VBROADCASTSD (SI)(R8*2), Y12
	VFMADD231PD  Y8, Y11, Y2
	VFMADD231PD  Y9, Y11, Y3
	VBROADCASTSD (SI)(R9*1), Y13
	VFMADD231PD  Y8, Y12, Y4
	VFMADD231PD  Y9, Y12, Y5
	VFMADD231PD  Y8, Y13, Y6
	VFMADD231PD  Y9, Y13, Y7
	ADDQ         R10, SI
	ADDQ         R11, DI
	DECQ         CX
	JNE          loop4

store4:
	CMPB    add+64(FP), $0
	JEQ     set4
	VADDPD  (DX), Y0, Y0
	VADDPD  32(DX), Y1, Y1
	VMOVUPD Y0, (DX)
	VMOVUPD Y1, 32(DX)
	ADDQ    R12, DX
	VADDPD  (DX), Y2, Y2
	VADDPD  32(DX), Y3, Y3
	VMOVUPD Y2, (DX)
	VMOVUPD Y3, 32(DX)
	ADDQ    R12, DX
	VADDPD  (DX), Y4, Y4
	VADDPD  32(DX), Y5, Y5
	VMOVUPD Y4, (DX)
	VMOVUPD Y5, 32(DX)
	ADDQ    R12, DX
	VADDPD  (DX), Y6, Y6
	VADDPD  32(DX), Y7, Y7
	VMOVUPD Y6, (DX)
	VMOVUPD Y7, 32(DX)
	VZEROUPPER
	RET

set4:
	VMOVUPD Y0, (DX)
	VMOVUPD Y1, 32(DX)
	ADDQ    R12, DX
	VMOVUPD Y2, (DX)
	VMOVUPD Y3, 32(DX)
	ADDQ    R12, DX
	VMOVUPD Y4, (DX)
	VMOVUPD Y5, 32(DX)
	ADDQ    R12, DX
	VMOVUPD Y6, (DX)
	VMOVUPD Y7, 32(DX)
	VZEROUPPER
	RET

// func kern1x8(k int, a *float64, cs int, b *float64, ldb int, c *float64, add bool)
//
// The one-row case of kern4x8: c[j] (+)= Σ_p a[p·cs]·b[p·ldb + j], j < 8.
TEXT ·kern1x8(SB), NOSPLIT, $0-49
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ cs+16(FP), R10
	SHLQ $3, R10
	MOVQ b+24(FP), DI
	MOVQ ldb+32(FP), R11
	SHLQ $3, R11
	MOVQ c+40(FP), DX

	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	TESTQ  CX, CX
	JEQ    store1

loop1:
	VBROADCASTSD (SI), Y10
	VFMADD231PD  (DI), Y10, Y0
	VFMADD231PD  32(DI), Y10, Y1
	ADDQ         R10, SI
	ADDQ         R11, DI
	DECQ         CX
	JNE          loop1

store1:
	CMPB    add+48(FP), $0
	JEQ     set1
	VADDPD  (DX), Y0, Y0
	VADDPD  32(DX), Y1, Y1

set1:
	VMOVUPD Y0, (DX)
	VMOVUPD Y1, 32(DX)
	VZEROUPPER
	RET
