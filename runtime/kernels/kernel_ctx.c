/* Output allocation for kernels (the mt_ctx_* functions of kernel.h). */
#include "runtime/kernel.h"

TF_Tensor* mt_ctx_alloc(mt_kernel_ctx* ctx, int idx, TF_DataType dtype, const int64_t* dims,
                        int ndims) {
  TF_Tensor* t = mt_tensor_new(dtype, dims, ndims, ctx->status);
  if (t) ctx->outputs[idx] = t;
  return t;
}

/* Strings are never forwarded: their elements own heap memory that an
 * in-place kernel would have to manage. */
TF_Tensor* mt_ctx_forward(mt_kernel_ctx* ctx, int in_idx, int idx, TF_DataType dtype,
                          const int64_t* dims, int ndims) {
  const TF_Tensor* in = in_idx >= 0 && in_idx < ctx->ninputs ? ctx->inputs[in_idx] : NULL;
  if (in && ctx->forwardable && ctx->forwardable[in_idx] && in->dtype == dtype &&
      dtype != TF_STRING && mt_tensor_nelems(in) == mt_num_elements(dims, ndims)) {
    TF_Tensor* t = mt_tensor_reshape(in, dims, ndims);
    if (t) {
      ctx->outputs[idx] = t;
      return t;
    }
  }
  return mt_ctx_alloc(ctx, idx, dtype, dims, ndims);
}

void mt_ctx_set_shared(mt_kernel_ctx* ctx, int idx, const TF_Tensor* t) {
  ctx->outputs[idx] = mt_tensor_share(t);
}
