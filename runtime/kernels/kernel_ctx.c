/* Output allocation for kernels (the mt_ctx_* functions of kernel.h). */
#include <string.h>

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
    /* the same shape and a handle the executor lets go of: that handle
     * itself (the kernel still reads inputs[in_idx], which looks the same) */
    if (ctx->movable && ctx->movable[in_idx] == 1 && in->ndims == ndims &&
        (ndims == 0 || memcmp(in->dims, dims, sizeof(int64_t) * (size_t)ndims) == 0)) {
      ctx->movable[in_idx] = 2;
      return ctx->outputs[idx] = (TF_Tensor*)in;
    }
    TF_Tensor* t = mt_tensor_reshape(in, dims, ndims);
    if (t) {
      ctx->outputs[idx] = t;
      return t;
    }
  }
  return mt_ctx_alloc(ctx, idx, dtype, dims, ndims);
}

void mt_ctx_set_shared(mt_kernel_ctx* ctx, int idx, const TF_Tensor* t) {
  for (int i = 0; ctx->movable && i < ctx->ninputs; i++)
    if (ctx->inputs[i] == t && ctx->movable[i] == 1) {
      ctx->movable[i] = 2;
      ctx->outputs[idx] = (TF_Tensor*)t;
      return;
    }
  ctx->outputs[idx] = mt_tensor_share(t);
}
