/* Hand-written C block loops (issue 11, item 7), gcc -O2, the layouts the
 * generated kernels read: BSR with u16 block-row pointers, u8 block
 * columns and each block's values row-major; 2:4 with, per group of four
 * consecutive entries of a row, two u8 in-group coordinates and their
 * values; dense row-major. build.rs compiles this file twice: with gcc's
 * default -ffp-contract=fast (fused vfma) and SUFFIX _f32, and with
 * -ffp-contract=off (vmul + vadd, the rounding of the Rust kernels) and
 * SUFFIX _nofma_f32. Each block row keeps its accumulators in registers. */
#include <stdint.h>

#define CAT3(a, b, c) a##b##c
#define NAME3(a, b, c) CAT3(a, b, c)
#define NAME(k) NAME3(bench_c_, k, SUFFIX)

void NAME(bsr2)(const uint16_t *pos, const uint8_t *crd, const float *val, const float *x,
                float *y, uint32_t nbr)
{
    for (uint32_t ib = 0; ib < nbr; ib++) {
        float y0 = 0.0f, y1 = 0.0f;
        for (uint32_t p = pos[ib]; p < pos[ib + 1]; p++) {
            const float *xb = x + 2 * crd[p];
            const float *v = val + 4 * p;
            float x0 = xb[0], x1 = xb[1];
            y0 += v[0] * x0;
            y0 += v[1] * x1;
            y1 += v[2] * x0;
            y1 += v[3] * x1;
        }
        y[2 * ib] = y0;
        y[2 * ib + 1] = y1;
    }
}

void NAME(bsr4)(const uint16_t *pos, const uint8_t *crd, const float *val, const float *x,
                float *y, uint32_t nbr)
{
    for (uint32_t ib = 0; ib < nbr; ib++) {
        float y0 = 0.0f, y1 = 0.0f, y2 = 0.0f, y3 = 0.0f;
        for (uint32_t p = pos[ib]; p < pos[ib + 1]; p++) {
            const float *xb = x + 4 * crd[p];
            const float *v = val + 16 * p;
            float x0 = xb[0], x1 = xb[1], x2 = xb[2], x3 = xb[3];
            y0 += v[0] * x0;
            y0 += v[1] * x1;
            y0 += v[2] * x2;
            y0 += v[3] * x3;
            y1 += v[4] * x0;
            y1 += v[5] * x1;
            y1 += v[6] * x2;
            y1 += v[7] * x3;
            y2 += v[8] * x0;
            y2 += v[9] * x1;
            y2 += v[10] * x2;
            y2 += v[11] * x3;
            y3 += v[12] * x0;
            y3 += v[13] * x1;
            y3 += v[14] * x2;
            y3 += v[15] * x3;
        }
        y[4 * ib] = y0;
        y[4 * ib + 1] = y1;
        y[4 * ib + 2] = y2;
        y[4 * ib + 3] = y3;
    }
}

void NAME(nv24)(const uint8_t *crd, const float *val, const float *x, float *y, uint32_t rows,
                uint32_t groups)
{
    for (uint32_t i = 0; i < rows; i++) {
        float acc = 0.0f;
        const float *xg = x;
        for (uint32_t g = 0; g < groups; g++) {
            acc += val[0] * xg[crd[0]];
            acc += val[1] * xg[crd[1]];
            crd += 2;
            val += 2;
            xg += 4;
        }
        y[i] = acc;
    }
}

void NAME(dense)(const float *a, const float *x, float *y, uint32_t rows, uint32_t cols)
{
    for (uint32_t i = 0; i < rows; i++) {
        float acc = 0.0f;
        for (uint32_t j = 0; j < cols; j++) {
            acc += a[j] * x[j];
        }
        a += cols;
        y[i] = acc;
    }
}
