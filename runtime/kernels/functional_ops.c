/* Functional ops: calls of functions from the graph's library
 * (runtime/function.h). PartitionedCall calls one function; If and Case
 * pick a branch function; While calls its cond and body functions until
 * cond is false. Each call runs the function's cached plan, so a loop never
 * unrolls the graph and each iteration's intermediates are freed before
 * the next. */
#include <stdlib.h>
#include <string.h>

#include "runtime/function.h"
#include "runtime/kernel.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/container_util.h"

/* Function name of func attr `attr` (NULL when absent). */
static const char* func_attr(const TF_Operation* op, const char* attr) {
  const mt_attr_value* v = mt_op_attr(op, attr);
  return v && !v->is_list && v->kind == MT_ATTR_FUNC ? v->v.s.data : NULL;
}

/* Calls `name` with inputs[first..] and checks the results' dtypes against
 * the op's outputs. */
static void call(mt_kernel_ctx* ctx, const char* name, int first) {
  mt_function_call(ctx->op, name, ctx->state, ctx->intra_threads, ctx->ctl, ctx->inputs + first,
                   ctx->ninputs - first, ctx->outputs, ctx->noutputs, ctx->status);
  for (int k = 0; k < ctx->noutputs && mt_ok(ctx->status); k++)
    if (ctx->outputs[k] && ctx->outputs[k]->dtype != mt_dtype_base(ctx->op->output_types[k]))
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Function %s returned %s for output %d; the op expects %s", name,
                     mt_dtype_name(ctx->outputs[k]->dtype), k,
                     mt_dtype_name(mt_dtype_base(ctx->op->output_types[k])));
}

static void partitioned_call_kernel(mt_kernel_ctx* ctx) { call(ctx, func_attr(ctx->op, "f"), 0); }

/* TensorFlow's ToBool for a predicate: a scalar's value (a string: not
 * empty); any other shape: whether it has elements. */
static int to_bool(const TF_Tensor* t) {
  if (t->ndims != 0) return mt_tensor_nelems(t) > 0;
  const void* p = mt_tensor_data(t);
  switch (t->dtype) {
    case TF_BOOL: return *(const unsigned char*)p != 0;
    case TF_FLOAT: return *(const float*)p != 0;
    case TF_DOUBLE: return *(const double*)p != 0;
    case TF_INT8: return *(const int8_t*)p != 0;
    case TF_UINT8: return *(const uint8_t*)p != 0;
    case TF_INT16: return *(const int16_t*)p != 0;
    case TF_UINT16: return *(const uint16_t*)p != 0;
    case TF_INT32: return *(const int32_t*)p != 0;
    case TF_UINT32: return *(const uint32_t*)p != 0;
    case TF_INT64: return *(const int64_t*)p != 0;
    case TF_UINT64: return *(const uint64_t*)p != 0;
    case TF_HALF:
    case TF_BFLOAT16: return (*(const uint16_t*)p & 0x7fff) != 0;
    case TF_STRING: return TF_StringGetSize((const TF_TString*)p) > 0;
    default: return 1;
  }
}

static void if_kernel(mt_kernel_ctx* ctx) {
  const char* branch = func_attr(ctx->op, to_bool(ctx->inputs[0]) ? "then_branch" : "else_branch");
  call(ctx, branch, 1);
}

/* Case: branch_index outside [0, n) runs the last branch (the default). */
static void case_kernel(mt_kernel_ctx* ctx) {
  const mt_attr_value* v = mt_op_attr(ctx->op, "branches");
  int n = v && v->is_list ? v->list.n : 0;
  if (ctx->inputs[0]->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "branch_index must be scalar");
    return;
  }
  int32_t b = *(const int32_t*)mt_tensor_data(ctx->inputs[0]);
  if (b < 0 || b >= n) b = n - 1;
  call(ctx, v->list.s[b].data, 1);
}

static void free_all(TF_Tensor** t, int n) {
  for (int k = 0; k < n; k++) {
    mt_tensor_free(t[k]);
    t[k] = NULL;
  }
}

/* One evaluation of the loop condition on `vars`: 1 true, 0 false, -1 error. */
static int loop_cond(mt_kernel_ctx* ctx, mt_fn_entry* cond, TF_Tensor* const* vars, int n) {
  TF_Tensor* pred = NULL;
  mt_function_run(cond, ctx->state, ctx->intra_threads, ctx->ctl, vars, n, &pred, 1, ctx->status);
  int b = mt_ok(ctx->status) ? to_bool(pred) : -1;
  /* TensorFlow's kernel would read a non-empty vector as true and never
   * stop; in graph mode TF lowers the loop and its LoopCond refuses the
   * vector, so that is what a TF1 user sees: an error, not a hang. */
  if (b >= 0 && pred->ndims != 0) {
    char buf[128];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "The loop condition must be a scalar, but "
                   "it has shape %s", mt_cu_dims_str(pred, buf, sizeof buf));
    b = -1;
  }
  mt_tensor_free(pred);
  return b;
}

/* cond and body are looked up once; each iteration is two calls. Between
 * iterations the loop stops when its step is cancelled or past its
 * deadline (TF_CANCELLED / TF_DEADLINE_EXCEEDED), as a v1 loop does at its
 * LoopCond. */
static void while_kernel(mt_kernel_ctx* ctx) {
  mt_fn_entry* cond = mt_function_ready(ctx->op, func_attr(ctx->op, "cond"), ctx->status);
  mt_fn_entry* body = cond ? mt_function_ready(ctx->op, func_attr(ctx->op, "body"), ctx->status)
                           : NULL;
  if (!body) return;
  int n = ctx->ninputs;
  TF_Tensor** vars = mt_calloc((size_t)n + 1, sizeof(TF_Tensor*), ctx->status);
  TF_Tensor** next = mt_calloc((size_t)n + 1, sizeof(TF_Tensor*), ctx->status);
  if (!vars || !next) goto done;
  for (int k = 0; k < n; k++) vars[k] = mt_tensor_share(ctx->inputs[k]);
  int go;
  while ((go = loop_cond(ctx, cond, vars, n)) == 1) {
    if (mt_run_ctl_stopped(ctx->ctl, ctx->status)) {
      go = -1;
      break;
    }
    /* the body takes the variables: a TensorArray it writes is updated in place */
    mt_function_run_donated(body, ctx->state, ctx->intra_threads, ctx->ctl, vars, n, next, n,
                            ctx->status);
    if (!mt_ok(ctx->status)) break;
    free_all(vars, n);
    memcpy(vars, next, sizeof(TF_Tensor*) * (size_t)n);
    memset(next, 0, sizeof(TF_Tensor*) * (size_t)n);
  }
  if (go == 0)
    for (int k = 0; k < n; k++) {
      ctx->outputs[k] = vars[k];
      vars[k] = NULL;
    }
done:
  if (vars) free_all(vars, n);
  if (next) free_all(next, n);
  free(vars);
  free(next);
}

/* output_shapes when given (their count must match), else `fallback`:
 * unknown shapes (If, Case) or the inputs' (While). */
static void shapes_from_attr(mt_shape_ctx* ctx, int inputs_as_fallback) {
  const mt_attr_value* v = mt_op_attr(ctx->op, "output_shapes");
  int n = v && v->is_list ? v->list.n : 0;
  if (n == 0) {
    for (int k = 0; inputs_as_fallback && k < ctx->noutputs && k < ctx->ninputs; k++)
      ctx->out[k] = ctx->in[k];
    return;
  }
  if (n != ctx->noutputs) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "`output_shapes` must be the same length as num outputs (%d vs. %d", n,
                   ctx->noutputs);
    return;
  }
  for (int k = 0; k < n; k++) ctx->out[k] = v->list.shape[k];
}

static void branch_shape(mt_shape_ctx* ctx) { shapes_from_attr(ctx, 0); }
static void while_shape(mt_shape_ctx* ctx) { shapes_from_attr(ctx, 1); }

#define CALL_ATTRS \
  "Tin: list(type) >= 0; Tout: list(type) >= 0; f: func; config: string = ''; " \
  "config_proto: string = ''; executor_type: string = ''"
#define IF_ATTRS \
  "Tcond: type; Tin: list(type) >= 0; Tout: list(type) >= 0; then_branch: func; " \
  "else_branch: func; output_shapes: list(shape) = []"
#define CASE_ATTRS \
  "Tin: list(type) >= 0; Tout: list(type) >= 0; branches: list(func) >= 1; " \
  "output_shapes: list(shape) = []"
#define WHILE_ATTRS \
  "T: list(type) >= 0; cond: func; body: func; output_shapes: list(shape) = []; " \
  "parallel_iterations: int = 10"

static const mt_op_spec functional_specs[] = {
    {.name = "PartitionedCall", .inputs = "args: Tin", .outputs = "output: Tout",
     .attrs = CALL_ATTRS, .kernel = partitioned_call_kernel},
    {.name = "StatefulPartitionedCall", .inputs = "args: Tin", .outputs = "output: Tout",
     .attrs = CALL_ATTRS, .kernel = partitioned_call_kernel,
     .flags = MT_OP_STATEFUL | MT_OP_DISTRIBUTED_COMMUNICATION},
    {.name = "If", .inputs = "cond: Tcond, input: Tin", .outputs = "output: Tout",
     .attrs = IF_ATTRS, .shape = branch_shape, .kernel = if_kernel, .flags = MT_OP_STATEFUL},
    {.name = "StatelessIf", .inputs = "cond: Tcond, input: Tin", .outputs = "output: Tout",
     .attrs = IF_ATTRS, .shape = branch_shape, .kernel = if_kernel},
    {.name = "Case", .inputs = "branch_index: int32, input: Tin", .outputs = "output: Tout",
     .attrs = CASE_ATTRS, .shape = branch_shape, .kernel = case_kernel, .flags = MT_OP_STATEFUL},
    {.name = "StatelessCase", .inputs = "branch_index: int32, input: Tin",
     .outputs = "output: Tout", .attrs = CASE_ATTRS, .shape = branch_shape,
     .kernel = case_kernel},
    {.name = "While", .inputs = "input: T", .outputs = "output: T", .attrs = WHILE_ATTRS,
     .shape = while_shape, .kernel = while_kernel, .flags = MT_OP_STATEFUL},
    {.name = "StatelessWhile", .inputs = "input: T", .outputs = "output: T",
     .attrs = WHILE_ATTRS, .shape = while_shape, .kernel = while_kernel},
};

void mt_register_functional_ops(void) {
  mt_register_ops(functional_specs, (int)(sizeof functional_specs / sizeof functional_specs[0]));
}
