/* Nodes a gradient builds inside TensorFlow's `with ops.control_dependencies([grad]):`
 * block (most of math_grad.py's elementwise gradients). TensorFlow gives a node made in
 * the block a control input on grad's op unless one of its data inputs was itself made in
 * the block, or is grad's op (Graph._control_dependencies_for_inputs); mt_ctl tracks the
 * block's nodes to decide that the same way. Header-only; used by unary_grad.c and
 * special_grad.c. */
#ifndef MINITF_RUNTIME_KERNELS_GRAD_CTL_H_
#define MINITF_RUNTIME_KERNELS_GRAD_CTL_H_

#include "runtime/gradient.h"
#include "runtime/kernels/half.h"
#include "runtime/tensor.h"

#define MT_CTL_MAX 48

typedef struct mt_ctl {
  mt_grad_ctx* g;
  TF_Operation* made[MT_CTL_MAX];
  int n;
} mt_ctl;

static inline mt_ctl mt_ctl_begin(mt_grad_ctx* g) {
  mt_ctl c = {.g = g, .n = 0};
  return c;
}

static inline int mt_ctl_made(const mt_ctl* c, TF_Operation* op) {
  for (int i = 0; i < c->n; i++)
    if (c->made[i] == op) return 1;
  return 0;
}

static inline TF_Output mt_ctl_end(mt_ctl* c, mt_gnode* n, const TF_Output* ins, int nin) {
  TF_Operation* grad = c->g->dy[0].oper;
  int dominated = 0, has_grad = 0;
  for (int i = 0; i < nin; i++) {
    dominated |= mt_ctl_made(c, ins[i].oper);
    has_grad |= ins[i].oper == grad;
  }
  if (!dominated && !has_grad) mt_g_control(n, grad);
  TF_Output out = mt_g_end0(n);
  if (out.oper && c->n < MT_CTL_MAX) c->made[c->n++] = out.oper;
  return out;
}

/* op_type(ins[0..nin)) named name (NULL = the op type), made in the block. */
static inline TF_Output mt_ctl_op(mt_ctl* c, const char* op_type, const char* name,
                                  const TF_Output* ins, int nin) {
  mt_gnode n = mt_g_begin(c->g, op_type, name);
  for (int i = 0; i < nin; i++) mt_g_in(&n, ins[i]);
  return mt_ctl_end(c, &n, ins, nin);
}

static inline TF_Output mt_ctl_1(mt_ctl* c, const char* op_type, const char* name, TF_Output a) {
  return mt_ctl_op(c, op_type, name, &a, 1);
}

static inline TF_Output mt_ctl_2(mt_ctl* c, const char* op_type, const char* name, TF_Output a,
                                 TF_Output b) {
  TF_Output ins[2] = {a, b};
  return mt_ctl_op(c, op_type, name, ins, 2);
}

/* A scalar Const of dtype dt made in the block (constant_op.constant(v, dtype)). */
static inline TF_Output mt_ctl_const(mt_ctl* c, TF_DataType dt, double v, const char* name) {
  TF_Output none = {NULL, 0};
  mt_grad_ctx* g = c->g;
  if (!mt_g_ok(g)) return none;
  TF_Tensor* t = mt_tensor_new(dt, NULL, 0, g->status);
  if (!t) return none;
  void* p = mt_tensor_data(t);
  switch (dt) {
    case TF_FLOAT: *(float*)p = (float)v; break;
    case TF_DOUBLE: *(double*)p = v; break;
    case TF_HALF: *(mt_half*)p = mt_float_to_half((float)v); break;
    case TF_BFLOAT16: *(mt_bfloat16*)p = mt_float_to_bfloat16((float)v); break;
    case TF_COMPLEX64: ((float*)p)[0] = (float)v; ((float*)p)[1] = 0; break;
    case TF_COMPLEX128: ((double*)p)[0] = v; ((double*)p)[1] = 0; break;
    case TF_INT32: *(int32_t*)p = (int32_t)v; break;
    case TF_INT64: *(int64_t*)p = (int64_t)v; break;
    default: break;
  }
  mt_gnode n = mt_g_begin(g, "Const", name);
  mt_attr_value av = mt_attr_scalar(MT_ATTR_TENSOR);
  av.v.tensor = t;
  if (n.d)
    mt_desc_set_attr(n.d, "value", &av);
  else
    mt_attr_value_clear(&av);
  mt_g_attr_type(&n, "dtype", dt);
  return mt_ctl_end(c, &n, NULL, 0);
}

/* math_ops.conj inside the block: a Conj node for complex x, x itself else. */
static inline TF_Output mt_ctl_conj(mt_ctl* c, TF_Output x) {
  TF_DataType t = mt_g_dtype(x);
  return t == TF_COMPLEX64 || t == TF_COMPLEX128 ? mt_ctl_1(c, "Conj", NULL, x) : x;
}

#endif
