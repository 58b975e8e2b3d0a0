/* Sliding-window helpers shared by the conv and pooling families: output
 * sizes and paddings per padding mode (TensorFlow's GetWindowedOutputSize
 * rules), the strides/dilations/explicit_paddings attr checks with
 * TensorFlow's wording, NCHW <-> NHWC transposes and half/bfloat16 <->
 * float conversion of whole buffers; also a work-sharing parallel loop and
 * the vector-clone attribute for hot loops. Header-only (static functions),
 * used by conv_ops.c and pooling_ops.c (nn_ops.c and image_ops.c for the
 * last two). */
#ifndef MINITF_RUNTIME_KERNELS_WINDOW_UTIL_H_
#define MINITF_RUNTIME_KERNELS_WINDOW_UTIL_H_

#include <stdatomic.h>
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

/* ---- work sharing ----
 *
 * mt_parallel_for gives each thread one fixed slice. On a machine shared
 * with other processes a thread is often descheduled for a while, and the
 * op then waits for its slice (measured on a busy 2-core machine: the two
 * halves of a conv took 12 and 37 ms). Here each thread instead claims
 * chunks of `grain` items from a shared counter until none is left, so a
 * thread that has a core does the work of one that has not. */
typedef struct mt_shared_loop {
  void (*fn)(int64_t begin, int64_t end, void* arg);
  void* arg;
  int64_t n, grain;
  atomic_llong next;
} mt_shared_loop;

/* Claims the next chunk [*b, *e); 0 when the loop is done. */
static inline int mt_claim_chunk(mt_shared_loop* l, int64_t* b, int64_t* e) {
  const int64_t s = (int64_t)atomic_fetch_add(&l->next, l->grain);
  if (s >= l->n) return 0;
  *b = s;
  *e = l->n - s < l->grain ? l->n : s + l->grain;
  return 1;
}

static inline void mt_shared_loop_worker(int64_t b, int64_t e, void* arg) {
  mt_shared_loop* l = arg;
  (void)b, (void)e;
  int64_t cb, ce;
  while (mt_claim_chunk(l, &cb, &ce)) l->fn(cb, ce, l->arg);
}

/* Workers for a shared loop over n items costing `cost` each: one per intra-op
 * thread (one in all when the loop is small, as mt_parallel_for decides). */
static inline void mt_run_workers(mt_kernel_ctx* ctx, int64_t n, int64_t cost,
                                  void (*worker)(int64_t, int64_t, void*), void* arg) {
  int64_t threads = ctx && ctx->intra_threads > 0 ? ctx->intra_threads : 2;
  if (threads > n) threads = n > 0 ? n : 1;
  const double total = (double)n * (double)(cost > 0 ? cost : 1);
  mt_parallel_for(ctx, threads, (int64_t)(total / (double)threads) + 1, worker, arg);
}

/* fn over [0, n) in chunks of `grain` items (cost: per item), shared out
 * dynamically among the intra-op threads. Chunks may run in any order and
 * concurrently. */
static inline void mt_parallel_for_shared(mt_kernel_ctx* ctx, int64_t n, int64_t grain,
                                          int64_t cost,
                                          void (*fn)(int64_t begin, int64_t end, void* arg),
                                          void* arg) {
  if (n <= 0) return;
  mt_shared_loop l = {fn, arg, n, grain > 0 ? grain : 1, 0};
  atomic_init(&l.next, 0);
  mt_run_workers(ctx, n, cost, mt_shared_loop_worker, &l);
}

#endif
