/* The hand-written C loop the targets were measured with (gcc -O2):
 * CSR SpMV over u16 row pointers, u8 columns, f32 values. build.rs compiles
 * it twice, with gcc's default -ffp-contract=fast (vfma, fused) as NAME
 * bench_c_f32, and with -ffp-contract=off (vmul + vadd, the rounding of the
 * Rust kernels) as bench_c_nofma_f32. */
#include <stdint.h>

void NAME(const uint16_t *pos, const uint8_t *crd, const float *val, const float *x, float *y,
          uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        float acc = 0.0f;
        for (uint32_t p = pos[i]; p < pos[i + 1]; p++) {
            acc += val[p] * x[crd[p]];
        }
        y[i] = acc;
    }
}
