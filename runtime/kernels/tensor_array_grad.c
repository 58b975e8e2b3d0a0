/* Gradients of the TensorArrayV3 ops (runtime/gradient.h), node for node as TensorFlow
 * 2.21's tensor_array_grad.py. The gradient of an array is the gradient array that
 * TensorArrayGradV3 makes for `source` = the gradient's name prefix (up to its last
 * "gradients*" scope), so each tf.gradients call gets its own accumulator: a read's gradient
 * writes into it, a write's gradient reads from it, gather <-> scatter, concat <-> split.
 * Gradients flow between these ops through the float flow tensors. TensorArrayV3,
 * TensorArrayGradV3, GradWithShape, SizeV3 and CloseV3 are not differentiable. */
#include <stdio.h>
#include <string.h>

#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

/* _GetGradSource: the name of `t`'s op up to and including its last
 * component that starts with "gradients". */
static void grad_source(TF_Output t, char* buf, size_t cap) {
  const char* name = t.oper ? t.oper->name : "";
  size_t end = 0;
  for (const char* p = name; *p;) {
    const char* slash = strchr(p, '/');
    const size_t len = slash ? (size_t)(slash - p) : strlen(p);
    if (strncmp(p, "gradients", 9) == 0) end = (size_t)(p - name) + len;
    if (!slash) break;
    p = slash + 1;
  }
  snprintf(buf, cap, "%.*s", (int)end, name);
}

static TF_Output identity(mt_grad_ctx* g, const char* name, TF_Output x, TF_Operation* after) {
  mt_gnode b = mt_g_begin(g, "Identity", name);
  mt_g_in(&b, x);
  mt_g_control(&b, after);
  return mt_g_end0(&b);
}

/* TensorArray(handle).grad(source, flow): the gradient array's handle and
 * its flow ("TensorArrayGrad/gradient_flow", after the array exists). */
static void grad_array(mt_grad_ctx* g, TF_Output handle, TF_Output flow, TF_Output dy,
                       TF_Output* gh, TF_Output* gf) {
  char source[512];
  grad_source(dy, source, sizeof source);
  mt_gnode b = mt_g_begin(g, "TensorArrayGradV3", "TensorArrayGrad/TensorArrayGradV3");
  mt_g_in(&b, handle);
  mt_g_in(&b, flow);
  mt_g_attr_str(&b, "source", source);
  TF_Operation* op = mt_g_end(&b);
  *gh = (TF_Output){op, 0};
  *gf = op ? identity(g, "TensorArrayGrad/gradient_flow", flow, op) : (TF_Output){NULL, 0};
}

/* The write barrier of a write-like op's gradient: the incoming flow
 * gradient, after the forward op's flow_out. */
static TF_Output write_barrier(mt_grad_ctx* g, TF_Output flow_grad) {
  TF_Output flow_out = identity(g, "flow_out", mt_g_y(g, 0), NULL);
  return identity(g, "write_barrier", flow_grad, flow_out.oper);
}

static TF_DataType attr_type(mt_grad_ctx* g, const char* name) {
  return mt_op_attr_type(g->op, name, TF_FLOAT);
}

/* Read and Gather (one index or a vector of them, input 1): the gradient
 * writes dy into the gradient array at the same indices with `op_type`. */
static void put_back(mt_grad_ctx* g, const char* op_type, const char* name) {
  TF_Output gh, gf;
  grad_array(g, mt_g_x(g, 0), mt_g_x(g, 2), g->dy[0], &gh, &gf);
  mt_gnode w = mt_g_begin(g, op_type, name);
  mt_g_in(&w, gh);
  mt_g_in(&w, mt_g_x(g, 1));
  mt_g_in(&w, g->dy[0]);
  mt_g_in(&w, gf);
  g->dx[2] = mt_g_end0(&w);
}

/* Write and Scatter: the gradient of the value reads the gradient array at
 * the same indices with `op_type`; the flow's gradient is the barrier. */
static void take_back(mt_grad_ctx* g, const char* op_type) {
  TF_Output barrier = write_barrier(g, g->dy[0]), gh, gf;
  grad_array(g, mt_g_x(g, 0), barrier, g->dy[0], &gh, &gf);
  mt_gnode r = mt_g_begin(g, op_type, NULL);
  mt_g_in(&r, gh);
  mt_g_in(&r, mt_g_x(g, 1));
  mt_g_in(&r, gf);
  mt_g_attr_type(&r, "dtype", attr_type(g, "T"));
  g->dx[2] = mt_g_end0(&r);
  g->dx[3] = barrier;
}

static void read_grad(mt_grad_ctx* g) {
  put_back(g, "TensorArrayWriteV3", "TensorArrayWrite/TensorArrayWriteV3");
}
static void gather_grad(mt_grad_ctx* g) {
  put_back(g, "TensorArrayScatterV3", "TensorArrayScatter/TensorArrayScatterV3");
}
static void write_grad(mt_grad_ctx* g) { take_back(g, "TensorArrayReadV3"); }
static void scatter_grad(mt_grad_ctx* g) { take_back(g, "TensorArrayGatherV3"); }

static void concat_grad(mt_grad_ctx* g) {
  TF_Output gh, gf;
  grad_array(g, mt_g_x(g, 0), mt_g_x(g, 1), g->dy[0], &gh, &gf);
  mt_gnode s = mt_g_begin(g, "TensorArraySplitV3", "TensorArraySplit/TensorArraySplitV3");
  mt_g_in(&s, gh);
  mt_g_in(&s, g->dy[0]);
  mt_g_in(&s, mt_g_y(g, 1));
  mt_g_in(&s, gf);
  g->dx[1] = mt_g_end0(&s);
}

static void split_grad(mt_grad_ctx* g) {
  TF_Output barrier = write_barrier(g, g->dy[0]), gh, gf;
  grad_array(g, mt_g_x(g, 0), barrier, g->dy[0], &gh, &gf);
  mt_gnode c = mt_g_begin(g, "TensorArrayConcatV3", NULL);
  mt_g_in(&c, gh);
  mt_g_in(&c, gf);
  mt_g_attr_type(&c, "dtype", attr_type(g, "T"));
  g->dx[1] = mt_g_end0(&c);
  g->dx[3] = barrier;
}

static const mt_grad_spec tensor_array_grads[] = {
    {"TensorArrayReadV3", read_grad},      {"TensorArrayWriteV3", write_grad},
    {"TensorArrayGatherV3", gather_grad},  {"TensorArrayScatterV3", scatter_grad},
    {"TensorArrayConcatV3", concat_grad},  {"TensorArraySplitV3", split_grad},
    {"TensorArrayV3", NULL},               {"TensorArrayGradV3", NULL},
    {"TensorArrayGradWithShape", NULL},    {"TensorArraySizeV3", NULL},
    {"TensorArrayCloseV3", NULL},
};

void mt_register_tensor_array_grads(void) {
  mt_register_gradients(tensor_array_grads,
                        (int)(sizeof tensor_array_grads / sizeof tensor_array_grads[0]));
}
