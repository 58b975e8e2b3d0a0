/* Resource variables: VarHandleOp, ReadVariableOp, AssignVariableOp,
 * VarIsInitializedOp (TensorFlow's resource_variable_ops.cc). Values live
 * in the session state (runtime/resource.h) and survive across runs. */
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/resource.h"

static mt_shape attr_shape(const TF_Operation* op, const char* name) {
  const mt_attr_value* v = mt_op_attr(op, name);
  return v && v->kind == MT_ATTR_SHAPE && !v->is_list ? v->v.shape : mt_shape_unknown();
}

static void scalar_shape(mt_shape_ctx* ctx) { ctx->out[0] = mt_shape_scalar(); }

/* A scalar handle naming (container, shared_name); an empty shared_name
 * means the node's name, an empty container "localhost" (TF1 semantics). */
static void var_handle_kernel(mt_kernel_ctx* ctx) {
  const char* container = mt_op_attr_str(ctx->op, "container", "");
  const char* shared = mt_op_attr_str(ctx->op, "shared_name", "");
  const mt_shape shape = attr_shape(ctx->op, "shape");
  TF_Tensor* t = mt_resource_tensor_new(*container ? container : "localhost",
                                        *shared ? shared : ctx->op->name,
                                        mt_op_attr_type(ctx->op, "dtype", TF_FLOAT), &shape,
                                        ctx->status);
  if (t) ctx->outputs[0] = t;
}

/* TensorFlow takes the shape from the handle's shape-and-type data; here
 * the handle's producer is followed when it is a VarHandleOp. */
static void read_variable_shape(mt_shape_ctx* ctx) {
  const TF_Operation* src = ctx->op->ninputs > 0 ? ctx->op->inputs[0].oper : NULL;
  if (src && strcmp(src->op_type, "VarHandleOp") == 0)
    ctx->out[0] = attr_shape(src, "shape");
  else
    ctx->out[0] = mt_shape_unknown();
}

static void read_variable_kernel(mt_kernel_ctx* ctx) {
  const mt_resource_handle* h = mt_resource_get(ctx->inputs[0], ctx->status);
  if (!h) return;
  const TF_DataType want = mt_op_attr_type(ctx->op, "dtype", h->dtype);
  if (want != h->dtype) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Trying to read variable with wrong dtype. Expected %s got %s",
                   mt_dtype_name(h->dtype), mt_dtype_name(want));
    return;
  }
  TF_Tensor* v = mt_var_read(ctx->state, h, ctx->status);
  if (v) ctx->outputs[0] = v;
}

static void assign_variable_kernel(mt_kernel_ctx* ctx) {
  const mt_resource_handle* h = mt_resource_get(ctx->inputs[0], ctx->status);
  if (!h) return;
  const TF_Tensor* value = ctx->inputs[1];
  if (value->dtype != h->dtype) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Trying to assign variable with wrong dtype. Expected %s got %s",
                   mt_dtype_name(h->dtype), mt_dtype_name(value->dtype));
    return;
  }
  if (mt_op_attr_bool(ctx->op, "validate_shape", 0) && mt_var_initialized(ctx->state, h)) {
    TF_Tensor* old = mt_var_read(ctx->state, h, ctx->status);
    if (!old) return;
    const int same = old->ndims == value->ndims &&
                     memcmp(old->dims, value->dims, sizeof(int64_t) * (size_t)old->ndims) == 0;
    char a[256], b[256];
    if (!same)
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Trying to assign to variable with tensor with wrong shape. Expected %s got %s",
                     mt_dims_str(old->dims, old->ndims, a, sizeof a),
                     mt_dims_str(value->dims, value->ndims, b, sizeof b));
    TF_DeleteTensor(old);
    if (!same) return;
  }
  mt_var_assign(ctx->state, h, value, ctx->status);
}

static void var_is_initialized_kernel(mt_kernel_ctx* ctx) {
  const mt_resource_handle* h = mt_resource_get(ctx->inputs[0], ctx->status);
  if (!h) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_BOOL, NULL, 0);
  if (out) *(mt_bool*)mt_tensor_data(out) = mt_var_initialized(ctx->state, h) != 0;
}

static const mt_op_spec state_specs[] = {
    {.name = "VarHandleOp", .outputs = "resource: resource",
     .attrs = "container: string = ''; shared_name: string = ''; debug_name: string = '';"
              " dtype: type; shape: shape; allowed_devices: list(string) = []",
     .shape = scalar_shape, .kernel = var_handle_kernel, .flags = MT_OP_STATEFUL},
    {.name = "ReadVariableOp", .inputs = "resource: resource", .outputs = "value: dtype",
     .attrs = "dtype: type", .shape = read_variable_shape, .kernel = read_variable_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "AssignVariableOp", .inputs = "resource: resource, value: dtype",
     .attrs = "dtype: type; validate_shape: bool = false", .kernel = assign_variable_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "VarIsInitializedOp", .inputs = "resource: resource",
     .outputs = "is_initialized: bool", .shape = scalar_shape,
     .kernel = var_is_initialized_kernel, .flags = MT_OP_STATEFUL},
};

void mt_register_state_ops(void) {
  mt_register_ops(state_specs, (int)(sizeof state_specs / sizeof state_specs[0]));
}
