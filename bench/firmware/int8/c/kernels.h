/* Hand-written int8 fully connected baselines for pruned weights, and the
   plain reference loop.  All compute y = clamp(requant(b + W (x + in_off)) + out_off)
   with W stored row-major as [rows][cols] (rows = outputs), as CMSIS-NN's
   arm_fully_connected_s8 does. */
#ifndef KERNELS_H
#define KERNELS_H
#include <stdint.h>

/* Quantisation for the sparse kernels.  `bias` is the layer bias with the
   input offset folded in at pack time: bias[i] + in_off * sum_j W[i][j]
   (the weights are constants; CMSIS-NN's MVE path folds the same sum into
   its kernel_sum buffer).  Requantisation is CMSIS-NN's arm_nn_requantize. */
typedef struct {
    int32_t rows, cols;
    const int32_t *bias;
    int32_t output_offset, multiplier, shift, act_min, act_max;
} fc_sparse_q;

/* (a) CSR, int8 values, u8 column indices, u16 segment pointers.
   Columns are split into panels of 256 so that a u8 index suffices:
   segment s = i * npanels + p holds row i's nonzeros in columns
   [256p, 256p + 256), at positions seg_ptr[s] .. seg_ptr[s+1] - 1,
   with col = j - 256p.  For cols <= 256 this is plain CSR.
   (MLIR-style: (i, j) -> (i : dense, j floordiv 256 : dense,
   j mod 256 : compressed), posWidth 16, crdWidth 8.) */
void fc_csr_s8(const fc_sparse_q *q, const uint16_t *seg_ptr, const uint8_t *col,
               const int8_t *val, const int8_t *x, int8_t *y);

/* (a') the same CSR kernel with the inner loop unrolled by 4 by hand. */
void fc_csr_s8_unroll4(const fc_sparse_q *q, const uint16_t *seg_ptr, const uint8_t *col,
                       const int8_t *val, const int8_t *x, int8_t *y);

/* (a'') the same CSR kernel, 4 nonzeros per step with SMLAD (CMSIS-NN's
   intrinsic wrappers); only where the core has the DSP extension. */
void fc_csr_s8_smlad(const fc_sparse_q *q, const uint16_t *seg_ptr, const uint8_t *col,
                     const int8_t *val, const int8_t *x, int8_t *y);

/* (b) 2:4 structured.  Per group of 4 columns, exactly 2 int8 values
   (explicit zeros where the group has fewer than 2 nonzeros), stored
   val[2g], val[2g+1], and their two 2-bit positions in one nibble:
   bits 0-1 = position of val[2g], bits 2-3 = position of val[2g+1];
   group g's nibble is bits 4(g%8)..4(g%8)+3 of little-endian 32-bit word
   g/8 of the row (so two groups per byte, low nibble first).  cols must be
   a multiple of 32. */
void fc_24_s8(const fc_sparse_q *q, const uint8_t *meta, const int8_t *val,
              const int8_t *x, int8_t *y);

#endif
