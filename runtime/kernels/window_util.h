/* Sliding-window helpers shared by the conv and pooling families: output
 * sizes and paddings per padding mode (TensorFlow's GetWindowedOutputSize
 * rules), the strides/dilations/explicit_paddings attr checks with
 * TensorFlow's wording, NCHW <-> NHWC transposes and half/bfloat16 <->
 * float conversion of whole buffers, NHWC work buffers for kernels that
 * compute in NHWC; also the vector-clone attribute for hot loops. Header-only (static functions),
 * used by conv_ops.c and pooling_ops.c (nn_ops.c and image_ops.c for the
 * last two). */
#ifndef MINITF_RUNTIME_KERNELS_WINDOW_UTIL_H_
#define MINITF_RUNTIME_KERNELS_WINDOW_UTIL_H_

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/half.h"
#include "runtime/kernels/kernel_util.h"

/* Vector-width clones of a hot loop's function: GCC compiles it once per
 * target and the loader picks by the CPU (ifunc): AVX-512, AVX2, or the
 * baseline (SSE2) the library is built for. Results are the same in each:
 * ISO C mode contracts no a*b+c into FMA and GCC vectorizes no float
 * reduction it would have to reorder, so every lane computes what the
 * scalar code does. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__ELF__)
#define MT_SIMD_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define MT_SIMD_CLONES
#endif

enum { MT_PAD_VALID = 0, MT_PAD_SAME = 1, MT_PAD_EXPLICIT = 2 };

static inline int mt_padding_mode(const TF_Operation* op) {
  const char* p = mt_op_attr_str(op, "padding", "VALID");
  if (strcmp(p, "SAME") == 0) return MT_PAD_SAME;
  if (strcmp(p, "EXPLICIT") == 0) return MT_PAD_EXPLICIT;
  return MT_PAD_VALID;
}

static inline int mt_is_nchw(const TF_Operation* op) {
  return strcmp(mt_op_attr_str(op, "data_format", "NHWC"), "NCHW") == 0;
}

/* The attr's int list (NULL + n = 0 when absent). */
static inline const int64_t* mt_attr_ints(const TF_Operation* op, const char* name, int* n) {
  const mt_attr_value* v = mt_op_attr(op, name);
  if (!v || !v->is_list) {
    *n = 0;
    return NULL;
  }
  *n = v->list.n;
  return v->list.i;
}

/* Output size and padding before the window for one spatial dim. in < 0
 * means unknown (out = -1). Returns 0 with TF_INVALID_ARGUMENT on a bad
 * stride/dilation or a negative output size (TensorFlow's static-shape
 * wording when `shape_msg`, the kernel's otherwise). */
static inline int mt_windowed_size(int64_t in, int64_t k, int64_t dilation, int64_t stride,
                                   int mode, int64_t pad_lo, int64_t pad_hi, int shape_msg,
                                   int64_t* out, int64_t* pad_before, TF_Status* s) {
  if (stride <= 0) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Stride must be > 0, but got %lld", (long long)stride);
    return 0;
  }
  if (dilation < 1) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Dilation rate must be >= 1, but got %lld",
                   (long long)dilation);
    return 0;
  }
  const int64_t eff = (k - 1) * dilation + 1;
  int64_t o = -1, before = 0;
  if (in >= 0) {
    if (mode == MT_PAD_SAME) {
      o = (in + stride - 1) / stride;
      int64_t needed = (o - 1) * stride + eff - in;
      if (needed < 0) needed = 0;
      before = needed / 2;
    } else {
      const int64_t padded = in + (mode == MT_PAD_EXPLICIT ? pad_lo + pad_hi : 0);
      before = mode == MT_PAD_EXPLICIT ? pad_lo : 0;
      if (padded - eff < 0) {
        if (shape_msg)
          mt_status_setf(s, TF_INVALID_ARGUMENT,
                         "Negative dimension size caused by subtracting %lld from %lld",
                         (long long)eff, (long long)padded);
        else
          mt_status_setf(s, TF_INVALID_ARGUMENT,
                         "Computed output size would be negative: %lld [input_size: %lld, "
                         "effective_filter_size: %lld, stride: %lld]",
                         (long long)((padded - eff + stride) / stride), (long long)in,
                         (long long)eff, (long long)stride);
        return 0;
      }
      o = (padded - eff + stride) / stride;
    }
  }
  *out = o;
  if (pad_before) *pad_before = before;
  return 1;
}

/* explicit_paddings checks (TensorFlow's CheckValidPadding). ndims = 4;
 * h/w: the spatial dim indices of the data format. */
static inline int mt_check_explicit_paddings(const TF_Operation* op, int mode, int hdim, int wdim,
                                             TF_Status* s) {
  int n;
  const int64_t* p = mt_attr_ints(op, "explicit_paddings", &n);
  if (mode == MT_PAD_EXPLICIT) {
    if (n != 8) {
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "explicit_paddings attribute must contain 8 values, but got: %d", n);
      return 0;
    }
    for (int i = 0; i < 8; i++)
      if (p[i] < 0) {
        mt_status_setf(s, TF_INVALID_ARGUMENT,
                       "All elements of explicit_paddings must be nonnegative");
        return 0;
      }
    for (int d = 0; d < 4; d++)
      if (d != hdim && d != wdim && (p[2 * d] != 0 || p[2 * d + 1] != 0)) {
        mt_status_setf(s, TF_INVALID_ARGUMENT,
                       "Nonzero explicit padding in the batch or depth dimensions is not "
                       "supported");
        return 0;
      }
  } else if (n != 0) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "explicit_paddings attribute must be empty if the padding attribute is not "
                   "EXPLICIT");
    return 0;
  }
  return 1;
}

/* [n, a, b, esize-byte elements] -> [n, b, a]: NCHW <-> NHWC with a = C,
 * b = H*W (or a = H*W, b = C the other way). */
static inline void mt_transpose_last2(const void* src, void* dst, int64_t n, int64_t a, int64_t b,
                                      size_t esize) {
#define MT_T2_(CT)                                                            \
  {                                                                           \
    const CT* x = src;                                                        \
    CT* y = dst;                                                              \
    for (int64_t i = 0; i < n; i++, x += a * b, y += a * b)                   \
      for (int64_t p = 0; p < a; p++)                                        \
        for (int64_t q = 0; q < b; q++) y[q * a + p] = x[p * b + q];          \
  }
  switch (esize) {
    case 1: MT_T2_(uint8_t) break;
    case 2: MT_T2_(uint16_t) break;
    case 4: MT_T2_(uint32_t) break;
    default: MT_T2_(uint64_t) break;
  }
#undef MT_T2_
}

/* half/bfloat16 buffers to float and back. */
static inline void mt_to_float(TF_DataType dt, const void* src, float* dst, int64_t n) {
  if (dt == TF_HALF) {
    const mt_half* x = src;
    for (int64_t i = 0; i < n; i++) dst[i] = mt_half_to_float(x[i]);
  } else {
    const mt_bfloat16* x = src;
    for (int64_t i = 0; i < n; i++) dst[i] = mt_bfloat16_to_float(x[i]);
  }
}

static inline void mt_from_float(TF_DataType dt, const float* src, void* dst, int64_t n) {
  if (dt == TF_HALF) {
    mt_half* y = dst;
    for (int64_t i = 0; i < n; i++) y[i] = mt_float_to_half(src[i]);
  } else {
    mt_bfloat16* y = dst;
    for (int64_t i = 0; i < n; i++) y[i] = mt_float_to_bfloat16(src[i]);
  }
}

static inline int mt_is_half_type(TF_DataType dt) { return dt == TF_HALF || dt == TF_BFLOAT16; }

/* malloc that reports TF_RESOURCE_EXHAUSTED (and refuses > MT_MAX_ALLOC). */
static inline void* mt_scratch(size_t bytes, TF_Status* s) {
  void* p = bytes <= MT_MAX_ALLOC ? malloc(bytes ? bytes : 1) : NULL;
  if (!p)
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM when allocating scratch buffer of %zu bytes",
                   bytes);
  return p;
}

/* ---- NHWC work buffers: kernels compute in NHWC on a "work type" (float
 * for half and bfloat16, the dtype itself otherwise); NCHW tensors are
 * transposed in and out. ---- */

static inline TF_DataType mt_work_type(TF_DataType dt) {
  return mt_is_half_type(dt) ? TF_FLOAT : dt;
}

/* A rank-4 tensor's data as NHWC in the work type (`transpose`: t is
 * NCHW). *owned receives a buffer to free (NULL when t's own data is
 * used). NULL + status on OOM. */
static inline const void* mt_work_in(mt_kernel_ctx* ctx, const TF_Tensor* t, int transpose,
                                     void** owned) {
  const int64_t n = mt_tensor_nelems(t);
  const void* data = mt_tensor_data(t);
  const size_t es = TF_DataTypeSize(mt_work_type(t->dtype));
  void* conv = NULL;
  *owned = NULL;
  if (mt_is_half_type(t->dtype)) {
    conv = mt_scratch((size_t)n * es, ctx->status);
    if (!conv) return NULL;
    mt_to_float(t->dtype, data, conv, n);
    data = conv;
  }
  if (transpose) {
    void* tr = mt_scratch((size_t)n * es, ctx->status);
    if (!tr) {
      free(conv);
      return NULL;
    }
    mt_transpose_last2(data, tr, t->dims[0], t->dims[1], t->dims[2] * t->dims[3], es);
    free(conv);
    conv = tr;
    data = tr;
  }
  *owned = conv;
  return data;
}

/* Where a kernel writes its NHWC work-type result for `out` (rank 4, NCHW
 * when `nchw`): out's own buffer when no conversion is needed, else a
 * scratch buffer (*owned, to free). */
static inline void* mt_work_out(mt_kernel_ctx* ctx, TF_Tensor* out, int nchw, void** owned) {
  *owned = NULL;
  if (!nchw && !mt_is_half_type(out->dtype)) return mt_tensor_data(out);
  const size_t es = TF_DataTypeSize(mt_work_type(out->dtype));
  *owned = mt_scratch((size_t)mt_tensor_nelems(out) * es, ctx->status);
  return *owned;
}

/* Moves an NHWC work result into `out` (NCHW and/or half); 0 on OOM. */
static inline int mt_work_finish(mt_kernel_ctx* ctx, TF_Tensor* out, int nchw, void* work) {
  if (!work || work == mt_tensor_data(out)) return 1;
  const int64_t n = mt_tensor_nelems(out);
  const size_t es = TF_DataTypeSize(mt_work_type(out->dtype));
  const int half = mt_is_half_type(out->dtype);
  void* src = work;
  void* tmp = NULL;
  if (nchw) {
    void* dst = mt_tensor_data(out);
    if (half) {
      tmp = mt_scratch((size_t)n * es, ctx->status);
      if (!tmp) return 0;
      dst = tmp;
    }
    /* out dims [N, C, H, W]: NHWC is [N, H*W, C] */
    mt_transpose_last2(work, dst, out->dims[0], out->dims[2] * out->dims[3], out->dims[1], es);
    src = dst;
  }
  if (half) mt_from_float(out->dtype, src, mt_tensor_data(out), n);
  free(tmp);
  return 1;
}

#endif
