//go:build !noasm

#include "textflag.h"

// The AVX2 quad kernels (quad.go): a YMM register holds one unit of a row
// for the four lanes of a quad. Products are rounded before they are
// added (VMULPD then VADDPD, never FMA), in the plain kernels' order, so
// the results are theirs bit for bit.

// func quadAffineAVX(pre, in []float64, n int, w, b []float64)
TEXT ·quadAffineAVX(SB), NOSPLIT, $0-104
	MOVQ    pre_base+0(FP), DI
	MOVQ    in_base+24(FP), SI
	MOVQ    n+48(FP), CX
	MOVQ    w_base+56(FP), DX
	MOVQ    b_base+80(FP), BX
	VMOVUPD (BX), Y12
	VMOVUPD 32(BX), Y13
	VMOVUPD 64(BX), Y14
	VMOVUPD 96(BX), Y15

affrow:
	TESTQ   CX, CX
	JEQ     affdone
	VMOVAPD Y12, Y0
	VMOVAPD Y13, Y1
	VMOVAPD Y14, Y2
	VMOVAPD Y15, Y3
	VMOVUPD (SI), Y4
	VMULPD  (DX), Y4, Y5
	VADDPD  Y5, Y0, Y0
	VMULPD  32(DX), Y4, Y5
	VADDPD  Y5, Y1, Y1
	VMULPD  64(DX), Y4, Y5
	VADDPD  Y5, Y2, Y2
	VMULPD  96(DX), Y4, Y5
	VADDPD  Y5, Y3, Y3
	VMOVUPD 32(SI), Y4
	VMULPD  128(DX), Y4, Y5
	VADDPD  Y5, Y0, Y0
	VMULPD  160(DX), Y4, Y5
	VADDPD  Y5, Y1, Y1
	VMULPD  192(DX), Y4, Y5
	VADDPD  Y5, Y2, Y2
	VMULPD  224(DX), Y4, Y5
	VADDPD  Y5, Y3, Y3
	VMOVUPD 64(SI), Y4
	VMULPD  256(DX), Y4, Y5
	VADDPD  Y5, Y0, Y0
	VMULPD  288(DX), Y4, Y5
	VADDPD  Y5, Y1, Y1
	VMULPD  320(DX), Y4, Y5
	VADDPD  Y5, Y2, Y2
	VMULPD  352(DX), Y4, Y5
	VADDPD  Y5, Y3, Y3
	VMOVUPD 96(SI), Y4
	VMULPD  384(DX), Y4, Y5
	VADDPD  Y5, Y0, Y0
	VMULPD  416(DX), Y4, Y5
	VADDPD  Y5, Y1, Y1
	VMULPD  448(DX), Y4, Y5
	VADDPD  Y5, Y2, Y2
	VMULPD  480(DX), Y4, Y5
	VADDPD  Y5, Y3, Y3
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	ADDQ    $128, SI
	ADDQ    $128, DI
	DECQ    CX
	JMP     affrow

affdone:
	VZEROUPPER
	RET

// func quadTauAVX(tau, pre []float64, n int, c []float64)
TEXT ·quadTauAVX(SB), NOSPLIT, $0-80
	MOVQ   tau_base+0(FP), DI
	MOVQ   pre_base+24(FP), SI
	MOVQ   n+48(FP), CX
	MOVQ   c_base+56(FP), DX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3

taurow:
	TESTQ        CX, CX
	JEQ          taudone
	VBROADCASTSD (DX), Y4
	VMULPD       (SI), Y4, Y5
	VADDPD       Y5, Y0, Y0
	VMULPD       32(SI), Y4, Y5
	VADDPD       Y5, Y1, Y1
	VMULPD       64(SI), Y4, Y5
	VADDPD       Y5, Y2, Y2
	VMULPD       96(SI), Y4, Y5
	VADDPD       Y5, Y3, Y3
	ADDQ         $8, DX
	ADDQ         $128, SI
	DECQ         CX
	JMP          taurow

taudone:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VZEROUPPER
	RET

// func quadOutAVX(z, act []float64, n int, wo, bo []float64)
TEXT ·quadOutAVX(SB), NOSPLIT, $0-104
	MOVQ    z_base+0(FP), DI
	MOVQ    act_base+24(FP), SI
	MOVQ    n+48(FP), CX
	MOVQ    wo_base+56(FP), DX
	MOVQ    bo_base+80(FP), BX
	VMOVUPD (DX), Y8
	VMOVUPD 32(DX), Y9
	VMOVUPD 64(DX), Y10
	VMOVUPD 96(DX), Y11
	VMOVUPD (BX), Y12

outrow:
	TESTQ   CX, CX
	JEQ     outdone
	VMULPD  (SI), Y8, Y0
	VMULPD  64(SI), Y10, Y1
	VADDPD  Y1, Y0, Y0
	VMULPD  32(SI), Y9, Y2
	VMULPD  96(SI), Y11, Y3
	VADDPD  Y3, Y2, Y2
	VADDPD  Y2, Y0, Y0
	VADDPD  Y12, Y0, Y0
	VMOVUPD Y0, (DI)
	ADDQ    $128, SI
	ADDQ    $32, DI
	DECQ    CX
	JMP     outrow

outdone:
	VZEROUPPER
	RET

// func quadOutBackAVX(gwo []float64, gbo *[4]float64, d, act, dz []float64, n int, wo []float64)
TEXT ·quadOutBackAVX(SB), NOSPLIT, $0-136
	MOVQ    gwo_base+0(FP), R8
	MOVQ    gbo+24(FP), R9
	MOVQ    d_base+32(FP), DI
	MOVQ    act_base+56(FP), SI
	MOVQ    dz_base+80(FP), DX
	MOVQ    n+104(FP), CX
	MOVQ    wo_base+112(FP), BX
	VMOVUPD (BX), Y8
	VMOVUPD 32(BX), Y9
	VMOVUPD 64(BX), Y10
	VMOVUPD 96(BX), Y11
	VXORPD  Y0, Y0, Y0
	VXORPD  Y1, Y1, Y1
	VXORPD  Y2, Y2, Y2
	VXORPD  Y3, Y3, Y3
	VXORPD  Y4, Y4, Y4

obrow:
	TESTQ   CX, CX
	JEQ     obdone
	VMOVUPD (DX), Y5
	VMULPD  (SI), Y5, Y6
	VADDPD  Y6, Y0, Y0
	VMULPD  32(SI), Y5, Y6
	VADDPD  Y6, Y1, Y1
	VMULPD  64(SI), Y5, Y6
	VADDPD  Y6, Y2, Y2
	VMULPD  96(SI), Y5, Y6
	VADDPD  Y6, Y3, Y3
	VMULPD  Y8, Y5, Y6
	VMOVUPD Y6, (DI)
	VMULPD  Y9, Y5, Y6
	VMOVUPD Y6, 32(DI)
	VMULPD  Y10, Y5, Y6
	VMOVUPD Y6, 64(DI)
	VMULPD  Y11, Y5, Y6
	VMOVUPD Y6, 96(DI)
	VADDPD  Y5, Y4, Y4
	ADDQ    $32, DX
	ADDQ    $128, SI
	ADDQ    $128, DI
	DECQ    CX
	JMP     obrow

obdone:
	VMOVUPD Y0, (R8)
	VMOVUPD Y1, 32(R8)
	VMOVUPD Y2, 64(R8)
	VMOVUPD Y3, 96(R8)
	VMOVUPD Y4, (R9)
	VZEROUPPER
	RET

// func quadBackGateAVX(d, g []float64, n int, c, s, gb, dst []float64, stride int)
// v = d ⊙ g (+ c_i·s), row i of v to dst + i·stride, gb = Σ_i v_i. s
// with fewer than 16 entries means no penalty term.
TEXT ·quadBackGateAVX(SB), NOSPLIT, $0-160
	MOVQ   d_base+0(FP), DI
	MOVQ   g_base+24(FP), SI
	MOVQ   n+48(FP), CX
	MOVQ   c_base+56(FP), DX
	MOVQ   s_base+80(FP), BX
	MOVQ   s_len+88(FP), AX
	MOVQ   gb_base+104(FP), R8
	MOVQ   dst_base+128(FP), R9
	MOVQ   stride+152(FP), R10
	SHLQ   $3, R10
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	CMPQ   AX, $16
	JLT    bgplain
	VMOVUPD (BX), Y8
	VMOVUPD 32(BX), Y9
	VMOVUPD 64(BX), Y10
	VMOVUPD 96(BX), Y11

bgsrow:
	TESTQ        CX, CX
	JEQ          bgdone
	VBROADCASTSD (DX), Y12
	VMOVUPD      (DI), Y4
	VMULPD       (SI), Y4, Y4
	VMULPD       Y8, Y12, Y5
	VADDPD       Y5, Y4, Y4
	VMOVUPD      Y4, (R9)
	VADDPD       Y4, Y0, Y0
	VMOVUPD      32(DI), Y4
	VMULPD       32(SI), Y4, Y4
	VMULPD       Y9, Y12, Y5
	VADDPD       Y5, Y4, Y4
	VMOVUPD      Y4, 32(R9)
	VADDPD       Y4, Y1, Y1
	VMOVUPD      64(DI), Y4
	VMULPD       64(SI), Y4, Y4
	VMULPD       Y10, Y12, Y5
	VADDPD       Y5, Y4, Y4
	VMOVUPD      Y4, 64(R9)
	VADDPD       Y4, Y2, Y2
	VMOVUPD      96(DI), Y4
	VMULPD       96(SI), Y4, Y4
	VMULPD       Y11, Y12, Y5
	VADDPD       Y5, Y4, Y4
	VMOVUPD      Y4, 96(R9)
	VADDPD       Y4, Y3, Y3
	ADDQ         $8, DX
	ADDQ         $128, SI
	ADDQ         $128, DI
	ADDQ         R10, R9
	DECQ         CX
	JMP          bgsrow

bgplain:
	TESTQ   CX, CX
	JEQ     bgdone
	VMOVUPD (DI), Y4
	VMULPD  (SI), Y4, Y4
	VMOVUPD Y4, (R9)
	VADDPD  Y4, Y0, Y0
	VMOVUPD 32(DI), Y4
	VMULPD  32(SI), Y4, Y4
	VMOVUPD Y4, 32(R9)
	VADDPD  Y4, Y1, Y1
	VMOVUPD 64(DI), Y4
	VMULPD  64(SI), Y4, Y4
	VMOVUPD Y4, 64(R9)
	VADDPD  Y4, Y2, Y2
	VMOVUPD 96(DI), Y4
	VMULPD  96(SI), Y4, Y4
	VMOVUPD Y4, 96(R9)
	VADDPD  Y4, Y3, Y3
	ADDQ    $128, SI
	ADDQ    $128, DI
	ADDQ    R10, R9
	DECQ    CX
	JMP     bgplain

bgdone:
	VMOVUPD Y0, (R8)
	VMOVUPD Y1, 32(R8)
	VMOVUPD Y2, 64(R8)
	VMOVUPD Y3, 96(R8)
	VZEROUPPER
	RET

// func quadBiasAVX(gate, pre []float64, n, stride int, b []float64)
// gate_i = pre_i + b for n rows of pre at stride.
TEXT ·quadBiasAVX(SB), NOSPLIT, $0-88
	MOVQ    gate_base+0(FP), DI
	MOVQ    pre_base+24(FP), SI
	MOVQ    n+48(FP), CX
	MOVQ    stride+56(FP), R10
	SHLQ    $3, R10
	MOVQ    b_base+64(FP), BX
	VMOVUPD (BX), Y8
	VMOVUPD 32(BX), Y9
	VMOVUPD 64(BX), Y10
	VMOVUPD 96(BX), Y11

biasrow:
	TESTQ   CX, CX
	JEQ     biasdone
	VADDPD  (SI), Y8, Y0
	VADDPD  32(SI), Y9, Y1
	VADDPD  64(SI), Y10, Y2
	VADDPD  96(SI), Y11, Y3
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	ADDQ    R10, SI
	ADDQ    $128, DI
	DECQ    CX
	JMP     biasrow

biasdone:
	VZEROUPPER
	RET

// func quadGemmTNHalfAVX(gw, in, d []float64, n int)
// gw[j][u] = Σ_i in_i[j]·d_i[u] for j = 0, 1 (gw, in offset by the
// caller for j = 2, 3).
TEXT ·quadGemmTNHalfAVX(SB), NOSPLIT, $0-80
	MOVQ   gw_base+0(FP), R8
	MOVQ   in_base+24(FP), SI
	MOVQ   d_base+48(FP), DI
	MOVQ   n+72(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

tnrow:
	TESTQ   CX, CX
	JEQ     tndone
	VMOVUPD (SI), Y8
	VMOVUPD 32(SI), Y9
	VMOVUPD (DI), Y10
	VMOVUPD 32(DI), Y11
	VMOVUPD 64(DI), Y12
	VMOVUPD 96(DI), Y13
	VMULPD  Y10, Y8, Y14
	VADDPD  Y14, Y0, Y0
	VMULPD  Y11, Y8, Y14
	VADDPD  Y14, Y1, Y1
	VMULPD  Y12, Y8, Y14
	VADDPD  Y14, Y2, Y2
	VMULPD  Y13, Y8, Y14
	VADDPD  Y14, Y3, Y3
	VMULPD  Y10, Y9, Y14
	VADDPD  Y14, Y4, Y4
	VMULPD  Y11, Y9, Y14
	VADDPD  Y14, Y5, Y5
	VMULPD  Y12, Y9, Y14
	VADDPD  Y14, Y6, Y6
	VMULPD  Y13, Y9, Y14
	VADDPD  Y14, Y7, Y7
	ADDQ    $128, SI
	ADDQ    $128, DI
	DECQ    CX
	JMP     tnrow

tndone:
	VMOVUPD Y0, (R8)
	VMOVUPD Y1, 32(R8)
	VMOVUPD Y2, 64(R8)
	VMOVUPD Y3, 96(R8)
	VMOVUPD Y4, 128(R8)
	VMOVUPD Y5, 160(R8)
	VMOVUPD Y6, 192(R8)
	VMOVUPD Y7, 224(R8)
	VZEROUPPER
	RET

// func quadGemmNTAVX(next, d []float64, n int, w []float64)
TEXT ·quadGemmNTAVX(SB), NOSPLIT, $0-80
	MOVQ next_base+0(FP), DI
	MOVQ d_base+24(FP), SI
	MOVQ n+48(FP), CX
	MOVQ w_base+56(FP), DX

ntrow:
	TESTQ   CX, CX
	JEQ     ntdone
	VMOVUPD (SI), Y0
	VMOVUPD 32(SI), Y1
	VMOVUPD 64(SI), Y2
	VMOVUPD 96(SI), Y3

	VMULPD  (DX), Y0, Y4
	VMULPD  32(DX), Y1, Y5
	VADDPD  Y5, Y4, Y4
	VMULPD  64(DX), Y2, Y5
	VADDPD  Y5, Y4, Y4
	VMULPD  96(DX), Y3, Y5
	VADDPD  Y5, Y4, Y4
	VMOVUPD Y4, (DI)

	VMULPD  128(DX), Y0, Y6
	VMULPD  160(DX), Y1, Y7
	VADDPD  Y7, Y6, Y6
	VMULPD  192(DX), Y2, Y7
	VADDPD  Y7, Y6, Y6
	VMULPD  224(DX), Y3, Y7
	VADDPD  Y7, Y6, Y6
	VMOVUPD Y6, 32(DI)

	VMULPD  256(DX), Y0, Y8
	VMULPD  288(DX), Y1, Y9
	VADDPD  Y9, Y8, Y8
	VMULPD  320(DX), Y2, Y9
	VADDPD  Y9, Y8, Y8
	VMULPD  352(DX), Y3, Y9
	VADDPD  Y9, Y8, Y8
	VMOVUPD Y8, 64(DI)

	VMULPD  384(DX), Y0, Y10
	VMULPD  416(DX), Y1, Y11
	VADDPD  Y11, Y10, Y10
	VMULPD  448(DX), Y2, Y11
	VADDPD  Y11, Y10, Y10
	VMULPD  480(DX), Y3, Y11
	VADDPD  Y11, Y10, Y10
	VMOVUPD Y10, 96(DI)

	ADDQ $128, SI
	ADDQ $128, DI
	DECQ CX
	JMP  ntrow

ntdone:
	VZEROUPPER
	RET

// func quadGateTAVX(act, gate []float64, n int, m0, m1, m2, m3 []float64)
// For n rows: the members' mask rows (4 units each) transposed into lanes,
// g = mask & [gate ≥ 0 or NaN], act = gate·g, gate = g.
TEXT ·quadGateTAVX(SB), NOSPLIT, $0-152
	MOVQ   act_base+0(FP), DI
	MOVQ   gate_base+24(FP), SI
	MOVQ   n+48(FP), CX
	MOVQ   m0_base+56(FP), R8
	MOVQ   m1_base+80(FP), R9
	MOVQ   m2_base+104(FP), R10
	MOVQ   m3_base+128(FP), R11
	VXORPD Y15, Y15, Y15

gtrow:
	TESTQ      CX, CX
	JEQ        gtdone
	VMOVUPD    (R8), Y0
	VMOVUPD    (R9), Y1
	VMOVUPD    (R10), Y2
	VMOVUPD    (R11), Y3
	VUNPCKLPD  Y1, Y0, Y4
	VUNPCKHPD  Y1, Y0, Y5
	VUNPCKLPD  Y3, Y2, Y6
	VUNPCKHPD  Y3, Y2, Y7
	VPERM2F128 $0x20, Y6, Y4, Y0
	VPERM2F128 $0x20, Y7, Y5, Y1
	VPERM2F128 $0x31, Y6, Y4, Y2
	VPERM2F128 $0x31, Y7, Y5, Y3

	VMOVUPD (SI), Y8
	VCMPPD  $5, Y15, Y8, Y9
	VANDPD  Y0, Y9, Y9
	VMULPD  Y9, Y8, Y10
	VMOVUPD Y10, (DI)
	VMOVUPD Y9, (SI)

	VMOVUPD 32(SI), Y8
	VCMPPD  $5, Y15, Y8, Y9
	VANDPD  Y1, Y9, Y9
	VMULPD  Y9, Y8, Y10
	VMOVUPD Y10, 32(DI)
	VMOVUPD Y9, 32(SI)

	VMOVUPD 64(SI), Y8
	VCMPPD  $5, Y15, Y8, Y9
	VANDPD  Y2, Y9, Y9
	VMULPD  Y9, Y8, Y10
	VMOVUPD Y10, 64(DI)
	VMOVUPD Y9, 64(SI)

	VMOVUPD 96(SI), Y8
	VCMPPD  $5, Y15, Y8, Y9
	VANDPD  Y3, Y9, Y9
	VMULPD  Y9, Y8, Y10
	VMOVUPD Y10, 96(DI)
	VMOVUPD Y9, 96(SI)

	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $32, R10
	ADDQ $32, R11
	ADDQ $128, SI
	ADDQ $128, DI
	DECQ CX
	JMP  gtrow

gtdone:
	VZEROUPPER
	RET

// The constants of quadRiskAVX, four copies each (log1p.go).
#define C_SIGN riskc<>+0(SB)
#define C_EXPMIN riskc<>+32(SB)
#define C_LOG2E riskc<>+64(SB)
#define C_LN2HI riskc<>+96(SB)
#define C_LN2LO riskc<>+128(SB)
#define C_P1 riskc<>+160(SB)
#define C_P2 riskc<>+192(SB)
#define C_P3 riskc<>+224(SB)
#define C_P4 riskc<>+256(SB)
#define C_P5 riskc<>+288(SB)
#define C_ONE riskc<>+320(SB)
#define C_TWO riskc<>+352(SB)
#define C_HALF riskc<>+384(SB)
#define C_MAGIC riskc<>+416(SB)
#define C_SQRT2 riskc<>+448(SB)
#define C_LP1 riskc<>+480(SB)
#define C_LP2 riskc<>+512(SB)
#define C_LP3 riskc<>+544(SB)
#define C_LP4 riskc<>+576(SB)
#define C_LP5 riskc<>+608(SB)
#define C_LP6 riskc<>+640(SB)
#define C_LP7 riskc<>+672(SB)

DATA riskc<>+0(SB)/8, $0x8000000000000000
DATA riskc<>+8(SB)/8, $0x8000000000000000
DATA riskc<>+16(SB)/8, $0x8000000000000000
DATA riskc<>+24(SB)/8, $0x8000000000000000
DATA riskc<>+32(SB)/8, $0xc086200000000000
DATA riskc<>+40(SB)/8, $0xc086200000000000
DATA riskc<>+48(SB)/8, $0xc086200000000000
DATA riskc<>+56(SB)/8, $0xc086200000000000
DATA riskc<>+64(SB)/8, $0x3ff71547652b82fe
DATA riskc<>+72(SB)/8, $0x3ff71547652b82fe
DATA riskc<>+80(SB)/8, $0x3ff71547652b82fe
DATA riskc<>+88(SB)/8, $0x3ff71547652b82fe
DATA riskc<>+96(SB)/8, $0x3fe62e42fee00000
DATA riskc<>+104(SB)/8, $0x3fe62e42fee00000
DATA riskc<>+112(SB)/8, $0x3fe62e42fee00000
DATA riskc<>+120(SB)/8, $0x3fe62e42fee00000
DATA riskc<>+128(SB)/8, $0x3dea39ef35793c76
DATA riskc<>+136(SB)/8, $0x3dea39ef35793c76
DATA riskc<>+144(SB)/8, $0x3dea39ef35793c76
DATA riskc<>+152(SB)/8, $0x3dea39ef35793c76
DATA riskc<>+160(SB)/8, $0x3fc5555555555555
DATA riskc<>+168(SB)/8, $0x3fc5555555555555
DATA riskc<>+176(SB)/8, $0x3fc5555555555555
DATA riskc<>+184(SB)/8, $0x3fc5555555555555
DATA riskc<>+192(SB)/8, $0xbf66c16c16bebd93
DATA riskc<>+200(SB)/8, $0xbf66c16c16bebd93
DATA riskc<>+208(SB)/8, $0xbf66c16c16bebd93
DATA riskc<>+216(SB)/8, $0xbf66c16c16bebd93
DATA riskc<>+224(SB)/8, $0x3f11566aaf25de2c
DATA riskc<>+232(SB)/8, $0x3f11566aaf25de2c
DATA riskc<>+240(SB)/8, $0x3f11566aaf25de2c
DATA riskc<>+248(SB)/8, $0x3f11566aaf25de2c
DATA riskc<>+256(SB)/8, $0xbebbbd41c5d26bf1
DATA riskc<>+264(SB)/8, $0xbebbbd41c5d26bf1
DATA riskc<>+272(SB)/8, $0xbebbbd41c5d26bf1
DATA riskc<>+280(SB)/8, $0xbebbbd41c5d26bf1
DATA riskc<>+288(SB)/8, $0x3e66376972bea4d0
DATA riskc<>+296(SB)/8, $0x3e66376972bea4d0
DATA riskc<>+304(SB)/8, $0x3e66376972bea4d0
DATA riskc<>+312(SB)/8, $0x3e66376972bea4d0
DATA riskc<>+320(SB)/8, $0x3ff0000000000000
DATA riskc<>+328(SB)/8, $0x3ff0000000000000
DATA riskc<>+336(SB)/8, $0x3ff0000000000000
DATA riskc<>+344(SB)/8, $0x3ff0000000000000
DATA riskc<>+352(SB)/8, $0x4000000000000000
DATA riskc<>+360(SB)/8, $0x4000000000000000
DATA riskc<>+368(SB)/8, $0x4000000000000000
DATA riskc<>+376(SB)/8, $0x4000000000000000
DATA riskc<>+384(SB)/8, $0x3fe0000000000000
DATA riskc<>+392(SB)/8, $0x3fe0000000000000
DATA riskc<>+400(SB)/8, $0x3fe0000000000000
DATA riskc<>+408(SB)/8, $0x3fe0000000000000
DATA riskc<>+416(SB)/8, $0x43300000000003ff
DATA riskc<>+424(SB)/8, $0x43300000000003ff
DATA riskc<>+432(SB)/8, $0x43300000000003ff
DATA riskc<>+440(SB)/8, $0x43300000000003ff
DATA riskc<>+448(SB)/8, $0x3ff6a09e667f3bcd
DATA riskc<>+456(SB)/8, $0x3ff6a09e667f3bcd
DATA riskc<>+464(SB)/8, $0x3ff6a09e667f3bcd
DATA riskc<>+472(SB)/8, $0x3ff6a09e667f3bcd
DATA riskc<>+480(SB)/8, $0x3fe5555555555593
DATA riskc<>+488(SB)/8, $0x3fe5555555555593
DATA riskc<>+496(SB)/8, $0x3fe5555555555593
DATA riskc<>+504(SB)/8, $0x3fe5555555555593
DATA riskc<>+512(SB)/8, $0x3fd999999997fa04
DATA riskc<>+520(SB)/8, $0x3fd999999997fa04
DATA riskc<>+528(SB)/8, $0x3fd999999997fa04
DATA riskc<>+536(SB)/8, $0x3fd999999997fa04
DATA riskc<>+544(SB)/8, $0x3fd2492494229359
DATA riskc<>+552(SB)/8, $0x3fd2492494229359
DATA riskc<>+560(SB)/8, $0x3fd2492494229359
DATA riskc<>+568(SB)/8, $0x3fd2492494229359
DATA riskc<>+576(SB)/8, $0x3fcc71c51d8e78af
DATA riskc<>+584(SB)/8, $0x3fcc71c51d8e78af
DATA riskc<>+592(SB)/8, $0x3fcc71c51d8e78af
DATA riskc<>+600(SB)/8, $0x3fcc71c51d8e78af
DATA riskc<>+608(SB)/8, $0x3fc7466496cb03de
DATA riskc<>+616(SB)/8, $0x3fc7466496cb03de
DATA riskc<>+624(SB)/8, $0x3fc7466496cb03de
DATA riskc<>+632(SB)/8, $0x3fc7466496cb03de
DATA riskc<>+640(SB)/8, $0x3fc39a09d078c69f
DATA riskc<>+648(SB)/8, $0x3fc39a09d078c69f
DATA riskc<>+656(SB)/8, $0x3fc39a09d078c69f
DATA riskc<>+664(SB)/8, $0x3fc39a09d078c69f
DATA riskc<>+672(SB)/8, $0x3fc2f112df3e5244
DATA riskc<>+680(SB)/8, $0x3fc2f112df3e5244
DATA riskc<>+688(SB)/8, $0x3fc2f112df3e5244
DATA riskc<>+696(SB)/8, $0x3fc2f112df3e5244
GLOBL riskc<>(SB), RODATA|NOPTR, $704

// func quadRiskAVX(z, dz, sw, y []float64, r *[4]float64)
// quadRiskPlain's operations, in its order, on the four lanes of a row.
TEXT ·quadRiskAVX(SB), NOSPLIT, $0-104
	MOVQ    z_base+0(FP), SI
	MOVQ    dz_base+24(FP), DI
	MOVQ    sw_base+48(FP), DX
	MOVQ    sw_len+56(FP), CX
	MOVQ    y_base+72(FP), BX
	MOVQ    r+96(FP), R8
	VXORPD  Y15, Y15, Y15
	VXORPD  Y14, Y14, Y14
	VMOVUPD C_ONE, Y13

riskrow:
	TESTQ   CX, CX
	JEQ     riskdone
	VMOVUPD (SI), Y0                // z
	// e = expNeg(−|z|)
	VORPD   C_SIGN, Y0, Y1          // x = −|z|
	VMAXPD  C_EXPMIN, Y1, Y1        // x = max(x, −708)
	VMULPD  C_LOG2E, Y1, Y2
	VROUNDPD $0, Y2, Y2             // k
	VMULPD  C_LN2HI, Y2, Y3
	VSUBPD  Y3, Y1, Y3              // hi = x − k·ln2Hi
	VMULPD  C_LN2LO, Y2, Y4         // lo = k·ln2Lo
	VSUBPD  Y4, Y3, Y5              // r = hi − lo
	VMULPD  Y5, Y5, Y6              // t = r·r
	VMULPD  C_P5, Y6, Y7
	VADDPD  C_P4, Y7, Y7
	VMULPD  Y7, Y6, Y7
	VADDPD  C_P3, Y7, Y7
	VMULPD  Y7, Y6, Y7
	VADDPD  C_P2, Y7, Y7
	VMULPD  Y7, Y6, Y7
	VADDPD  C_P1, Y7, Y7
	VMULPD  Y7, Y6, Y7
	VSUBPD  Y7, Y5, Y7              // c = r − t·(…)
	VMULPD  Y7, Y5, Y8              // r·c
	VMOVUPD C_TWO, Y9
	VSUBPD  Y7, Y9, Y9              // 2 − c
	VDIVPD  Y9, Y8, Y8
	VSUBPD  Y8, Y4, Y8              // lo − r·c/(2−c)
	VSUBPD  Y3, Y8, Y8              // … − hi
	VSUBPD  Y8, Y13, Y8             // y = 1 − …
	VADDPD  C_MAGIC, Y2, Y2
	VPSLLQ  $52, Y2, Y2             // 2^k
	VMULPD  Y2, Y8, Y1              // e

	// lp = log1pUnit(e)
	VADDPD  Y13, Y1, Y2             // u = 1 + e
	VDIVPD  Y2, Y13, Y3             // σ = 1/u
	VSUBPD  Y13, Y2, Y4             // u − 1
	VSUBPD  Y4, Y1, Y4              // e − (u − 1)
	VMULPD  Y3, Y4, Y4              // c
	VPCMPGTQ C_SQRT2, Y2, Y5        // u > √2
	VANDPD  Y13, Y5, Y5             // k
	VMULPD  C_HALF, Y5, Y6
	VSUBPD  Y6, Y13, Y6             // 1 − 0.5·k
	VMULPD  Y6, Y2, Y6
	VSUBPD  Y13, Y6, Y6             // f
	VMULPD  C_HALF, Y6, Y7
	VMULPD  Y6, Y7, Y7              // hfsq = 0.5·f·f
	VADDPD  C_TWO, Y6, Y8
	VDIVPD  Y8, Y6, Y8              // s = f/(2+f)
	VMULPD  Y8, Y8, Y9              // z = s·s
	VMULPD  C_LP7, Y9, Y10
	VADDPD  C_LP6, Y10, Y10
	VMULPD  Y10, Y9, Y10
	VADDPD  C_LP5, Y10, Y10
	VMULPD  Y10, Y9, Y10
	VADDPD  C_LP4, Y10, Y10
	VMULPD  Y10, Y9, Y10
	VADDPD  C_LP3, Y10, Y10
	VMULPD  Y10, Y9, Y10
	VADDPD  C_LP2, Y10, Y10
	VMULPD  Y10, Y9, Y10
	VADDPD  C_LP1, Y10, Y10
	VMULPD  Y10, Y9, Y10            // R
	VADDPD  Y10, Y7, Y10            // hfsq + R
	VMULPD  Y10, Y8, Y10            // s·(hfsq + R)
	VMULPD  C_LN2LO, Y5, Y11
	VADDPD  Y4, Y11, Y11            // k·ln2Lo + c
	VADDPD  Y11, Y10, Y10
	VSUBPD  Y10, Y7, Y10            // hfsq − (…)
	VSUBPD  Y6, Y10, Y10            // … − f
	VMULPD  C_LN2HI, Y5, Y11
	VSUBPD  Y10, Y11, Y10           // lp

	// softplus, σ, R and dz
	VBLENDVPD Y0, Y14, Y0, Y11      // max(z, 0): 0 where z's sign is set
	VADDPD  Y11, Y10, Y10           // sp
	VMULPD  Y3, Y1, Y12             // e·σ
	VBLENDVPD Y0, Y12, Y3, Y3       // σ(z)
	VBROADCASTSD (DX), Y4           // sw
	VBROADCASTSD (BX), Y5           // y
	VMULPD  Y0, Y5, Y6              // y·z
	VSUBPD  Y6, Y10, Y6             // sp − y·z
	VMULPD  Y6, Y4, Y6
	VADDPD  Y6, Y15, Y15
	VSUBPD  Y5, Y3, Y3              // σ − y
	VMULPD  Y3, Y4, Y3
	VMOVUPD Y3, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	ADDQ    $8, DX
	ADDQ    $8, BX
	DECQ    CX
	JMP     riskrow

riskdone:
	VMOVUPD Y15, (R8)
	VZEROUPPER
	RET
