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

// func adam4(p, g, m, v []float64, b1, b2, step, bc2, eps float64)
// AdamPlain on len(p) entries, a multiple of 4.
TEXT ·adam4(SB), NOSPLIT, $0-136
	MOVQ         p_base+0(FP), DI
	MOVQ         p_len+8(FP), CX
	MOVQ         g_base+24(FP), SI
	MOVQ         m_base+48(FP), R8
	MOVQ         v_base+72(FP), R9
	VBROADCASTSD b1+96(FP), Y8
	VBROADCASTSD b2+104(FP), Y9
	VBROADCASTSD step+112(FP), Y10
	VBROADCASTSD bc2+120(FP), Y11
	VBROADCASTSD eps+128(FP), Y12
	MOVQ         $0x3ff0000000000000, AX // 1.0
	MOVQ         AX, X13
	VPBROADCASTQ X13, Y13
	VSUBPD       Y8, Y13, Y14           // 1 − b1
	VSUBPD       Y9, Y13, Y15           // 1 − b2
	XORQ         AX, AX

adamloop:
	CMPQ    AX, CX
	JGE     adamdone
	VMOVUPD (SI)(AX*8), Y0          // g
	VMULPD  (R8)(AX*8), Y8, Y1      // b1·m
	VMULPD  Y0, Y14, Y2             // (1−b1)·g
	VADDPD  Y2, Y1, Y1              // m
	VMOVUPD Y1, (R8)(AX*8)
	VMULPD  (R9)(AX*8), Y9, Y3      // b2·v
	VMULPD  Y0, Y15, Y4             // (1−b2)·g
	VMULPD  Y0, Y4, Y4              // ·g
	VADDPD  Y4, Y3, Y3              // v
	VMOVUPD Y3, (R9)(AX*8)
	VSQRTPD Y3, Y3
	VDIVPD  Y11, Y3, Y3             // √v/bc2
	VADDPD  Y12, Y3, Y3             // + eps
	VMULPD  Y1, Y10, Y1             // step·m
	VDIVPD  Y3, Y1, Y1
	VMOVUPD (DI)(AX*8), Y5
	VSUBPD  Y1, Y5, Y5
	VMOVUPD Y5, (DI)(AX*8)
	ADDQ    $4, AX
	JMP     adamloop

adamdone:
	VZEROUPPER
	RET

// MUL64 sets z = z·c mod 2⁶⁴ in each lane, from 32-bit products: c holds
// the constant, chi its high half; t1, t2 are clobbered.
// (lo(z)·lo(c) + ((hi(z)·lo(c) + lo(z)·hi(c)) << 32)).
#define MUL64(z, c, chi, t1, t2) \
	VPMULUDQ c, z, t1 \
	VPSRLQ   $32, z, t2 \
	VPMULUDQ c, t2, t2 \
	VPMULUDQ chi, z, z \
	VPADDQ   t2, z, z \
	VPSLLQ   $32, z, z \
	VPADDQ   t1, z, z

// func maskSplitMix12(m []float64, lanes *[4]uint64, t uint64, keep float64)
// len(m) is a multiple of 12; per 12 entries, the next SplitMix64 word of
// each of the four lanes (lanes: the states after their first increment;
// each step adds 4γ), expanded as maskEntries12 does.
TEXT ·maskSplitMix12(SB), NOSPLIT, $0-48
	MOVQ         m_base+0(FP), DI
	MOVQ         m_len+8(FP), CX
	MOVQ         lanes+24(FP), SI
	VMOVDQU      (SI), Y7
	VPBROADCASTQ t+32(FP), Y14
	VPBROADCASTQ keep+40(FP), Y13
	MOVQ         $0x1fffff, AX
	MOVQ         AX, X15
	VPBROADCASTQ X15, Y15
	MOVQ         $0x78dde6e5fd29f054, AX // 4γ mod 2⁶⁴
	MOVQ         AX, X8
	VPBROADCASTQ X8, Y8
	MOVQ         $0xbf58476d1ce4e5b9, AX
	MOVQ         AX, X12
	VPBROADCASTQ X12, Y12
	VPSRLQ       $32, Y12, Y11
	MOVQ         $0x94d049bb133111eb, AX
	MOVQ         AX, X10
	VPBROADCASTQ X10, Y10
	VPSRLQ       $32, Y10, Y9

smloop:
	CMPQ    CX, $12
	JLT     smdone
	VMOVDQA Y7, Y0
	VPADDQ  Y8, Y7, Y7
	VPSRLQ  $30, Y0, Y1
	VPXOR   Y1, Y0, Y0
	MUL64(Y0, Y12, Y11, Y1, Y2)
	VPSRLQ  $27, Y0, Y1
	VPXOR   Y1, Y0, Y0
	MUL64(Y0, Y10, Y9, Y1, Y2)
	VPSRLQ  $31, Y0, Y1
	VPXOR   Y1, Y0, Y0

	VPAND    Y15, Y0, Y1
	VPCMPGTQ Y1, Y14, Y1
	VPANDN   Y13, Y1, Y1
	VMOVDQU  Y1, (DI)
	VPSRLQ   $21, Y0, Y2
	VPAND    Y15, Y2, Y2
	VPCMPGTQ Y2, Y14, Y2
	VPANDN   Y13, Y2, Y2
	VMOVDQU  Y2, 32(DI)
	VPSRLQ   $42, Y0, Y3
	VPAND    Y15, Y3, Y3
	VPCMPGTQ Y3, Y14, Y3
	VPANDN   Y13, Y3, Y3
	VMOVDQU  Y3, 64(DI)
	ADDQ     $96, DI
	SUBQ     $12, CX
	JMP      smloop

smdone:
	VZEROUPPER
	RET
