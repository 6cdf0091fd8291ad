/* Hand-written sparse int8 FC kernels, compiled with exactly the same flags
   as CMSIS-NN (from the project's CMSIS-NN measuring harness, unchanged but
   for the DSP guard of fc_csr_s8_smlad, which needs SXTB16/SMLAD).  Plain C, except fc_csr_s8_smlad, which uses CMSIS-NN's DSP
   intrinsic wrappers.  Requantisation, output offset and clamping are
   CMSIS-NN's (arm_nn_requantize from its header). */
#include "arm_nnsupportfunctions.h"
#include "kernels.h"

static inline int8_t finish(const fc_sparse_q *q, int32_t acc)
{
    acc = arm_nn_requantize(acc, q->multiplier, q->shift);
    acc += q->output_offset;
    acc = MAX(acc, q->act_min);
    acc = MIN(acc, q->act_max);
    return (int8_t)acc;
}

void fc_csr_s8(const fc_sparse_q *q, const uint16_t *seg_ptr, const uint8_t *col,
               const int8_t *val, const int8_t *x, int8_t *y)
{
    const int32_t npanels = (q->cols + 255) >> 8;
    const int32_t *bias = q->bias;
    for (int32_t i = 0; i < q->rows; i++) {
        int32_t acc = *bias++;
        const int8_t *xp = x;
        for (int32_t p = 0; p < npanels; p++) {
            const uint8_t *c = col + seg_ptr[0];
            const uint8_t *ce = col + seg_ptr[1];
            const int8_t *v = val + seg_ptr[0];
            seg_ptr++;
            while (c < ce) {
                acc += (int32_t)*v++ * xp[*c++];
            }
            xp += 256;
        }
        y[i] = finish(q, acc);
    }
}

void fc_csr_s8_unroll4(const fc_sparse_q *q, const uint16_t *seg_ptr, const uint8_t *col,
                       const int8_t *val, const int8_t *x, int8_t *y)
{
    const int32_t npanels = (q->cols + 255) >> 8;
    const int32_t *bias = q->bias;
    for (int32_t i = 0; i < q->rows; i++) {
        int32_t acc = *bias++;
        const int8_t *xp = x;
        for (int32_t p = 0; p < npanels; p++) {
            const uint8_t *c = col + seg_ptr[0];
            const int8_t *v = val + seg_ptr[0];
            int32_t n = seg_ptr[1] - seg_ptr[0];
            seg_ptr++;
            for (; n >= 4; n -= 4) {
                acc += (int32_t)v[0] * xp[c[0]];
                acc += (int32_t)v[1] * xp[c[1]];
                acc += (int32_t)v[2] * xp[c[2]];
                acc += (int32_t)v[3] * xp[c[3]];
                v += 4;
                c += 4;
            }
            for (; n > 0; n--) {
                acc += (int32_t)*v++ * xp[*c++];
            }
            xp += 256;
        }
        y[i] = finish(q, acc);
    }
}

/* (a'') CSR with CMSIS-NN's DSP intrinsic wrappers (SXTB16, PKHBT, SMLAD):
   4 nonzeros per step, values loaded as one word and sign-extended in pairs,
   gathered x values packed in pairs, two dual 16x16 MACs. */
#if defined(ARM_MATH_DSP)
void fc_csr_s8_smlad(const fc_sparse_q *q, const uint16_t *seg_ptr, const uint8_t *col,
                     const int8_t *val, const int8_t *x, int8_t *y)
{
    const int32_t npanels = (q->cols + 255) >> 8;
    const int32_t *bias = q->bias;
    for (int32_t i = 0; i < q->rows; i++) {
        int32_t acc = *bias++;
        const int8_t *xp = x;
        for (int32_t p = 0; p < npanels; p++) {
            const uint8_t *c = col + seg_ptr[0];
            const int8_t *v = val + seg_ptr[0];
            int32_t n = seg_ptr[1] - seg_ptr[0];
            seg_ptr++;
            for (; n >= 4; n -= 4) {
                const int32_t w = arm_nn_read_s8x4_ia(&v);
                const int32_t w02 = (int32_t)SXTB16((uint32_t)w);         /* v0, v2 */
                const int32_t w13 = (int32_t)SXTB16_RORn((uint32_t)w, 8); /* v1, v3 */
                const int32_t x02 = (int32_t)PKHBT(xp[c[0]], xp[c[2]], 16);
                const int32_t x13 = (int32_t)PKHBT(xp[c[1]], xp[c[3]], 16);
                acc = (int32_t)SMLAD((uint32_t)w02, (uint32_t)x02, (uint32_t)acc);
                acc = (int32_t)SMLAD((uint32_t)w13, (uint32_t)x13, (uint32_t)acc);
                c += 4;
            }
            for (; n > 0; n--) {
                acc += (int32_t)*v++ * xp[*c++];
            }
            xp += 256;
        }
        y[i] = finish(q, acc);
    }
}
#endif

void fc_24_s8(const fc_sparse_q *q, const uint8_t *meta, const int8_t *val,
              const int8_t *x, int8_t *y)
{
    const int32_t words = q->cols >> 5; /* 8 groups of 4 columns per meta word */
    const int32_t *bias = q->bias;
    for (int32_t i = 0; i < q->rows; i++) {
        int32_t acc = *bias++;
        const int8_t *xg = x;
        for (int32_t w = 0; w < words; w++) {
            uint32_t m;
            memcpy(&m, meta, 4);
            meta += 4;
#pragma GCC unroll 8
            for (int32_t k = 0; k < 8; k++) {
                acc += (int32_t)val[0] * xg[m & 3];
                acc += (int32_t)val[1] * xg[(m >> 2) & 3];
                m >>= 4;
                val += 2;
                xg += 4;
            }
        }
        y[i] = finish(q, acc);
    }
}
