/* Control-flow ops: NoOp (a target that groups control dependencies, as
 * tf.group makes) and TensorFlow 1's dataflow control-flow primitives
 * (Switch, Merge, Enter, Exit, NextIteration, LoopCond, ControlTrigger)
 * plus Abort. Their kernels only move tensors; what makes them control
 * flow is the executor (runtime/frames.c): a Switch output left unset is a
 * dead tensor, Merge forwards the first live input, Enter/Exit/
 * NextIteration move values between frames and iterations. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernel.h"

/* Nothing to compute: running it means its control inputs ran. */
static void noop_kernel(mt_kernel_ctx* ctx) { (void)ctx; }

/* ---- shape functions (TensorFlow's control_flow_ops.cc) ---- */

/* pred must be a scalar; both outputs have data's shape. */
static void switch_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 1, 0)) return;
  ctx->out[0] = ctx->in[0];
  ctx->out[1] = ctx->in[0];
}

/* The inputs' common shape: unknown rank unless all ranks are known and
 * equal; a dim where inputs differ becomes unknown. value_index: scalar. */
static void merge_shape(mt_shape_ctx* ctx) {
  mt_shape out = ctx->in[0];
  for (int i = 1; i < ctx->ninputs && out.rank >= 0; i++) {
    const mt_shape* in = &ctx->in[i];
    if (in->rank != out.rank) {
      out = mt_shape_unknown();
      break;
    }
    for (int d = 0; d < out.rank; d++)
      if (in->dims[d] != out.dims[d]) out.dims[d] = -1;
  }
  ctx->out[0] = out;
  ctx->out[1] = mt_shape_scalar();
}

/* A loop variable's shape may change across iterations: unknown, unless
 * the Enter is a loop invariant (is_constant). */
static void enter_shape(mt_shape_ctx* ctx) {
  ctx->out[0] = mt_op_attr_bool(ctx->op, "is_constant", 0) ? ctx->in[0] : mt_shape_unknown();
}

/* LoopCond: a scalar bool in, the same out. */
static void loop_cond_shape(mt_shape_ctx* ctx) {
  if (!mt_shape_with_rank(ctx, 0, 0)) return;
  ctx->out[0] = ctx->in[0];
}

/* ---- kernels ---- */

/* Forwards data to output_true or output_false; the other output stays
 * unset, which the executor treats as a dead tensor. */
static void switch_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* pred = ctx->inputs[1];
  if (pred->ndims != 0) {
    char buf[256];
    mt_shape sh = mt_shape_make(pred->dims, pred->ndims);
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "The second input must be a scalar, but it has shape %s",
                   mt_shape_str(&sh, buf, sizeof buf));
    return;
  }
  int port = *(const unsigned char*)mt_tensor_data(pred) ? 1 : 0;
  mt_ctx_set_shared(ctx, port, ctx->inputs[0]);
}

/* value_index scalars 0 .. N_INDEX - 1, made once and shared by every
 * Merge (a loop's Merge runs every iteration; its index rarely has a
 * reader). Never freed: the table keeps a reference, so no kernel ever
 * writes into one in place. */
#define N_INDEX 16
static TF_Tensor* index_values[N_INDEX];
static pthread_once_t index_once = PTHREAD_ONCE_INIT;

static void make_index_values(void) {
  TF_Status* s = TF_NewStatus();
  for (int i = 0; i < N_INDEX; i++)
    if ((index_values[i] = mt_tensor_new(TF_INT32, NULL, 0, s)) != NULL)
      *(int32_t*)mt_tensor_data(index_values[i]) = i;
  TF_DeleteStatus(s);
}

const TF_Tensor* mt_merge_index_value(int i) {
  pthread_once(&index_once, make_index_values);
  return i >= 0 && i < N_INDEX ? index_values[i] : NULL;
}

/* The executor passes only the input that arrived live (others NULL):
 * forward it and its index. */
static void merge_kernel(mt_kernel_ctx* ctx) {
  for (int i = 0; i < ctx->ninputs; i++) {
    if (!ctx->inputs[i]) continue;
    mt_ctx_set_shared(ctx, 0, ctx->inputs[i]);
    const TF_Tensor* index = mt_merge_index_value(i);
    if (index) {
      mt_ctx_set_shared(ctx, 1, index);
      return;
    }
    TF_Tensor* idx = mt_ctx_alloc(ctx, 1, TF_INT32, NULL, 0);
    if (idx) *(int32_t*)mt_tensor_data(idx) = i;
    return;
  }
}

/* Enter, Exit, NextIteration: the value moves unchanged; the executor
 * moves it to another frame or iteration. */
static void forward_kernel(mt_kernel_ctx* ctx) { mt_ctx_set_shared(ctx, 0, ctx->inputs[0]); }

/* LoopCond is where a loop notices that its step was cancelled (TF's
 * LoopCondOp checks the step's cancellation manager). */
static void loop_cond_kernel(mt_kernel_ctx* ctx) {
  if (ctx->cancelled && __atomic_load_n(ctx->cancelled, __ATOMIC_RELAXED)) {
    mt_status_setf(ctx->status, TF_CANCELLED, "Loop execution was cancelled.");
    return;
  }
  mt_ctx_set_shared(ctx, 0, ctx->inputs[0]);
}

/* Ends the process, as TensorFlow's Abort kernel does. */
static void abort_kernel(mt_kernel_ctx* ctx) {
  if (mt_op_attr_bool(ctx->op, "exit_without_error", 0)) {
    fprintf(stderr, "Exit without error requested. Exiting...\n");
    exit(0);
  }
  fprintf(stderr, "Abort_op intentional failure; %s\n", mt_op_attr_str(ctx->op, "error_msg", ""));
  abort();
}

#define ENTER_ATTRS "T: type; frame_name: string; is_constant: bool = false; " \
                    "parallel_iterations: int = 10"

static const mt_op_spec control_flow_specs[] = {
    {.name = "NoOp", .kernel = noop_kernel},
    {.name = "ControlTrigger", .kernel = noop_kernel},
    {.name = "Abort", .attrs = "error_msg: string = ''; exit_without_error: bool = false",
     .kernel = abort_kernel},
    {.name = "Switch", .inputs = "data: T, pred: bool",
     .outputs = "output_false: T, output_true: T", .attrs = "T: type", .shape = switch_shape,
     .kernel = switch_kernel},
    {.name = "RefSwitch", .inputs = "data: Ref(T), pred: bool",
     .outputs = "output_false: Ref(T), output_true: Ref(T)", .attrs = "T: type",
     .shape = switch_shape, .kernel = switch_kernel, .flags = MT_OP_ALLOWS_UNINITIALIZED_INPUT},
    {.name = "Merge", .inputs = "inputs: N * T", .outputs = "output: T, value_index: int32",
     .attrs = "T: type; N: int >= 1", .shape = merge_shape, .kernel = merge_kernel},
    {.name = "RefMerge", .inputs = "inputs: Ref(N * T)",
     .outputs = "output: Ref(T), value_index: int32", .attrs = "T: type; N: int >= 1",
     .shape = merge_shape, .kernel = merge_kernel},
    {.name = "Enter", .inputs = "data: T", .outputs = "output: T", .attrs = ENTER_ATTRS,
     .shape = enter_shape, .kernel = forward_kernel},
    {.name = "RefEnter", .inputs = "data: Ref(T)", .outputs = "output: Ref(T)",
     .attrs = ENTER_ATTRS, .shape = enter_shape, .kernel = forward_kernel},
    {.name = "Exit", .inputs = "data: T", .outputs = "output: T", .attrs = "T: type",
     .shape = mt_unchanged_shape, .kernel = forward_kernel},
    {.name = "RefExit", .inputs = "data: Ref(T)", .outputs = "output: Ref(T)",
     .attrs = "T: type", .shape = mt_unchanged_shape, .kernel = forward_kernel},
    {.name = "NextIteration", .inputs = "data: T", .outputs = "output: T", .attrs = "T: type",
     .shape = mt_unchanged_shape, .kernel = forward_kernel},
    {.name = "RefNextIteration", .inputs = "data: Ref(T)", .outputs = "output: Ref(T)",
     .attrs = "T: type", .shape = mt_unchanged_shape, .kernel = forward_kernel},
    {.name = "LoopCond", .inputs = "input: bool", .outputs = "output: bool",
     .shape = loop_cond_shape, .kernel = loop_cond_kernel},
};

void mt_register_control_flow_ops(void) {
  mt_register_ops(control_flow_specs,
                  (int)(sizeof control_flow_specs / sizeof control_flow_specs[0]));
}
