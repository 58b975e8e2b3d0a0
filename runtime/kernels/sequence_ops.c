/* ReverseSequence: reverses the first seq_lengths[b] slices along seq_dim of
 * each batch entry b (along batch_dim); the rest is copied. Used by the
 * bidirectional RNNs with sequence lengths. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernel.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"

static void reverse_sequence_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 1, 1)) return;
  const mt_shape* in = &ctx->in[0];
  const int64_t seq_dim = mt_op_attr_int(ctx->op, "seq_dim", 0);
  const int64_t batch_dim = mt_op_attr_int(ctx->op, "batch_dim", 0);
  ctx->out[0] = *in;
  if (in->rank < 0) return;
  if (batch_dim >= in->rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "batch_dim must be < input rank: %lld vs. %d",
                   (long long)batch_dim, in->rank);
    return;
  }
  if (seq_dim >= in->rank) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "seq_dim must be < input rank: %lld vs. %d",
                   (long long)seq_dim, in->rank);
    return;
  }
  if (batch_dim < 0 || seq_dim < 0) return; /* the kernel reports these */
  const int64_t nlens = ctx->in[1].rank == 1 ? ctx->in[1].dims[0] : -1;
  mt_merge_dim(ctx, in->dims[batch_dim], nlens, &ctx->out[0].dims[batch_dim]);
}

/* TensorFlow's checks, in its order and words; the lengths are read into lens. */
static int check_reverse_sequence(mt_kernel_ctx* ctx, int64_t seq_dim, int64_t batch_dim,
                                  int64_t* lens) {
  const TF_Tensor* in = ctx->inputs[0];
  const TF_Tensor* sl = ctx->inputs[1];
  TF_Status* s = ctx->status;
  if (sl->ndims != 1) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "seq_lens input must be 1-dim, not %d", sl->ndims);
  } else if (batch_dim == seq_dim) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "batch_dim == seq_dim == %lld", (long long)seq_dim);
  } else if (seq_dim < 0 || seq_dim >= in->ndims) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "seq_dim must be < input rank ( %lld vs. %d)",
                   (long long)seq_dim, in->ndims);
  } else if (batch_dim < 0 || batch_dim >= in->ndims) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "batch_dim must be < input rank ( %lld vs. %d)",
                   (long long)batch_dim, in->ndims);
  } else if (sl->dims[0] != in->dims[batch_dim]) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Length of seq_lengths != input.dims(%lld), (%lld vs. %lld)",
                   (long long)batch_dim, (long long)sl->dims[0],
                   (long long)in->dims[batch_dim]);
  }
  if (!mt_ok(s)) return 0;
  mt_tensor_ints(sl, lens, sl->dims[0]);
  for (int64_t d = 0; d < sl->dims[0]; d++) {
    if (lens[d] < 0) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "seq_lens(%lld) < 0", (long long)d);
      return 0;
    }
    if (lens[d] > in->dims[seq_dim]) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "seq_lens(%lld) > input.dims(%lld)", (long long)d,
                     (long long)seq_dim);
      return 0;
    }
  }
  return 1;
}

static void reverse_sequence_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* in = ctx->inputs[0];
  const int64_t seq_dim = mt_op_attr_int(ctx->op, "seq_dim", 0);
  const int64_t batch_dim = mt_op_attr_int(ctx->op, "batch_dim", 0);
  if (in->dtype == TF_STRING || in->dtype == TF_RESOURCE || in->dtype == TF_VARIANT) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "ReverseSequence has no kernel for dtype %d (numbers and bool only)",
                   (int)in->dtype);
    return;
  }
  const int64_t nlens = ctx->inputs[1]->ndims == 1 ? ctx->inputs[1]->dims[0] : 0;
  int64_t* lens = mt_malloc(sizeof(int64_t) * (size_t)(nlens + 1), ctx->status);
  if (!lens) return;
  if (!check_reverse_sequence(ctx, seq_dim, batch_dim, lens)) goto done;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, in->dtype, in->dims, in->ndims);
  if (!out) goto done;
  const size_t es = TF_DataTypeSize(in->dtype);
  const int64_t n = mt_tensor_nelems(in);
  int64_t seq_stride = 1, batch_stride = 1;
  for (int d = in->ndims - 1; d > seq_dim; d--) seq_stride *= in->dims[d];
  for (int d = in->ndims - 1; d > batch_dim; d--) batch_stride *= in->dims[d];
  const char* src = mt_tensor_data(in);
  char* dst = mt_tensor_data(out);
  for (int64_t i = 0; i < n; i++) {
    const int64_t b = (i / batch_stride) % in->dims[batch_dim];
    const int64_t t = (i / seq_stride) % in->dims[seq_dim];
    const int64_t from = t < lens[b] ? i + (lens[b] - 1 - 2 * t) * seq_stride : i;
    memcpy(dst + (size_t)i * es, src + (size_t)from * es, es);
  }
done:
  free(lens);
}

static const mt_op_spec sequence_specs[] = {
    {.name = "ReverseSequence", .inputs = "input: T, seq_lengths: Tlen", .outputs = "output: T",
     .attrs = "seq_dim: int; batch_dim: int = 0; T: type; Tlen: {int32, int64} = DT_INT64",
     .shape = reverse_sequence_shape, .kernel = reverse_sequence_kernel},
};

void mt_register_sequence_ops(void) {
  mt_register_ops(sequence_specs, (int)(sizeof sequence_specs / sizeof sequence_specs[0]));
}
