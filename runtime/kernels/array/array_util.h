/* Helpers shared by the array family's files (runtime/kernels/array/):
 * moving elements of any dtype (strided gathers, concatenation), TensorFlow's
 * InferenceContext behaviours for shape functions, and kernel-side shape
 * reading. Internal to libc_api.so (hidden visibility). */
#ifndef MINITF_RUNTIME_KERNELS_ARRAY_ARRAY_UTIL_H_
#define MINITF_RUNTIME_KERNELS_ARRAY_ARRAY_UTIL_H_

#include <stddef.h>
#include <stdint.h>

#include "runtime/kernels/kernel_util.h"

#define INDEX_T "{int32, int64} = DT_INT32"

/* A strided gather: the output, contiguous in row-major order, takes
 * element in[base + sum(idx[d] * str[d])]. Transpose, Tile, BroadcastTo
 * and ReverseV2 are all this with different strides (0 = broadcast,
 * negative = reversed). Tile needs two dims per input dim, hence 2x. */
#define GATHER_MAX_DIMS (2 * MT_MAX_DIMS)

typedef struct gather_plan {
  TF_DataType dt;
  size_t es;
  int nd; /* collapsed, >= 1 */
  int64_t dims[GATHER_MAX_DIMS];
  int64_t str[GATHER_MAX_DIMS];
  int64_t base, n, inner, rows;
  const char* in;
  char* out;
} gather_plan;

/* Concatenation as a 2-D problem: `outer` rows, each made of part k's
 * chunk[k] elements in turn. split = 1 runs it backwards (Split, Unpack). */
typedef struct concat_plan {
  TF_DataType dt;
  size_t es;
  int n;
  char** parts;
  const int64_t* chunk;
  int64_t row; /* sum of chunks */
  char* whole;
  int split;
} concat_plan;

void ar_copy_elems(TF_DataType dt, void* dst, const void* src, int64_t n);
void ar_fill_elems(TF_DataType dt, void* dst, const void* value, int64_t n);
void ar_gather_init(gather_plan* p, TF_DataType dt, const void* in, void* out, int nd,
                    const int64_t* dims, const int64_t* str, int64_t base);
void ar_gather_run(mt_kernel_ctx* ctx, gather_plan* p);
void ar_row_major_strides(const int64_t* dims, int nd, int64_t* str);
void ar_concat_run(mt_kernel_ctx* ctx, concat_plan* p, int64_t outer);
void ar_unknown_of_rank(mt_shape* s, int rank);
int ar_merge_shapes(mt_shape_ctx* ctx, const mt_shape* a, const mt_shape* b, mt_shape* out);
int ar_dim_with_value(mt_shape_ctx* ctx, int64_t dim, int64_t value);
int ar_shape_from_shape_tensor(mt_shape_ctx* ctx, int idx, mt_shape* out);
int ar_scalar_input(const mt_shape_ctx* ctx, int idx, int64_t* v);
int ar_axis_dim(mt_shape_ctx* ctx, int idx, int rank, int64_t* out);
int ar_multiply_dims(mt_shape_ctx* ctx, int64_t a, int64_t b, int64_t* out);
int ar_kernel_shape_from_tensor(mt_kernel_ctx* ctx, const TF_Tensor* t, const char* what,
                                int64_t* dims, int* nd);
int64_t ar_first_int(const TF_Tensor* t);

/* Each file's registration, called by mt_register_array_ops (array_ops.c). */
void mt_register_array_constant_ops(void);
void mt_register_array_shape_ops(void);
void mt_register_array_transpose_ops(void);
void mt_register_array_concat_ops(void);
void mt_register_array_fill_ops(void);
void mt_register_array_unique_ops(void);
void mt_register_array_scatter_ops(void);
/* The gradients in scatter_grad.c, called by mt_register_array_grads. */
void mt_register_array_scatter_grads(void);

#endif
