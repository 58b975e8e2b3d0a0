/* Python callables as graph nodes (TensorFlow's script_ops / py_func.cc):
 * PyFunc, PyFuncStateless, EagerPyFunc. The kernel calls the callback
 * registered through runtime/py_func.h with the node's token; the
 * callback runs the Python function (taking the GIL) and hands back
 * tensors, which are checked here against Tout. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernel.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/py_func.h"

static pthread_mutex_t hook_mu = PTHREAD_MUTEX_INITIALIZER;
static mt_py_func_callback hook_fn;
static void* hook_arg;

void mt_set_py_func_callback(mt_py_func_callback fn, void* arg) {
  pthread_mutex_lock(&hook_mu);
  hook_fn = fn;
  hook_arg = arg;
  pthread_mutex_unlock(&hook_mu);
}

/* Every output present and of its Tout type, in TensorFlow's words. */
static int check_outputs(mt_kernel_ctx* ctx, const char* token) {
  const mt_attr_value* tout = mt_op_attr(ctx->op, "Tout");
  for (int k = 0; k < ctx->noutputs; k++) {
    const TF_Tensor* t = ctx->outputs[k];
    const TF_DataType want = tout && k < tout->list.n ? tout->list.type[k] : TF_FLOAT;
    if (!t) {
      mt_status_setf(ctx->status, TF_INTERNAL, "%d-th value returned by %s is missing", k, token);
      return 0;
    }
    if (t->dtype != want) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "%d-th value returned by %s is %s, but expects %s", k, token,
                     mt_dtype_name(t->dtype), mt_dtype_name(want));
      return 0;
    }
  }
  return 1;
}

static void call_py_func(mt_kernel_ctx* ctx, int eager) {
  pthread_mutex_lock(&hook_mu);
  mt_py_func_callback fn = hook_fn;
  void* arg = hook_arg;
  pthread_mutex_unlock(&hook_mu);
  if (!fn) {
    /* No Python in this process (a C program ran a graph with a py_func). */
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Missing py trampoline. Most likely, it is a link error.");
    return;
  }
  const char* token = mt_op_attr_str(ctx->op, "token", "");
  /* The callable gets its own handles: NumPy views of them must not
   * outlive the executor's references unnoticed. */
  TF_Tensor** args = calloc((size_t)ctx->ninputs + 1, sizeof(TF_Tensor*));
  if (!args) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "out of memory calling %s", token);
    return;
  }
  for (int k = 0; k < ctx->ninputs; k++) args[k] = mt_tensor_share(ctx->inputs[k]);
  fn(arg, token, eager, args, ctx->ninputs, ctx->outputs, ctx->noutputs, ctx->status);
  free(args);
  if (TF_GetCode(ctx->status) != TF_OK) return;
  check_outputs(ctx, token);
}

static void py_func_kernel(mt_kernel_ctx* ctx) { call_py_func(ctx, 0); }
static void eager_py_func_kernel(mt_kernel_ctx* ctx) { call_py_func(ctx, 1); }

#define PY_FUNC_ATTRS "token: string; Tin: list(type) >= 0; Tout: list(type) >= 0"

static const mt_op_spec py_func_specs[] = {
    {.name = "PyFunc", .inputs = "input: Tin", .outputs = "output: Tout", .attrs = PY_FUNC_ATTRS,
     .kernel = py_func_kernel, .flags = MT_OP_STATEFUL},
    {.name = "PyFuncStateless", .inputs = "input: Tin", .outputs = "output: Tout",
     .attrs = PY_FUNC_ATTRS, .kernel = py_func_kernel},
    {.name = "EagerPyFunc", .inputs = "input: Tin", .outputs = "output: Tout",
     .attrs = "token: string; is_async: bool = false; Tin: list(type) >= 0; "
              "Tout: list(type) >= 0",
     .kernel = eager_py_func_kernel, .flags = MT_OP_STATEFUL},
};

void mt_register_py_func_ops(void) {
  mt_register_ops(py_func_specs, (int)(sizeof py_func_specs / sizeof py_func_specs[0]));
}
