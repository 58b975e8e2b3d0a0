/* Gradients of the math family (runtime/gradient.h), node for node as
 * TensorFlow 2.21's math_grad.py builds them. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

static int is_complex(TF_DataType t) { return t == TF_COMPLEX64 || t == TF_COMPLEX128; }

/* math_ops.conj: a Conj node for complex tensors, the tensor itself else. */
static TF_Output conj_of(mt_grad_ctx* g, TF_Output x) {
  return is_complex(mt_g_dtype(x)) ? mt_g_unary(g, "Conj", x) : x;
}

static void add_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0), y = mt_g_x(g, 1), grad = g->dy[0];
  if (mt_g_shapes_equal_full(x, y, grad)) {
    g->dx[0] = g->dx[1] = grad;
    return;
  }
  mt_g_reduce_broadcast(g, x, y, grad, grad, &g->dx[0], &g->dx[1]);
}

static void sub_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0), y = mt_g_x(g, 1), grad = g->dy[0];
  TF_Output neg = mt_g_unary(g, "Neg", grad);
  if (mt_g_shapes_equal_full(x, y, grad)) {
    g->dx[0] = grad;
    g->dx[1] = neg;
    return;
  }
  mt_g_reduce_broadcast(g, x, y, grad, neg, &g->dx[0], &g->dx[1]);
}

static void mul_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0), y = mt_g_x(g, 1), grad = g->dy[0];
  TF_DataType t = mt_g_dtype(grad);
  if (mt_g_shapes_equal_full(x, y, grad) && (t == TF_INT32 || t == TF_FLOAT)) {
    g->dx[0] = mt_g_binary(g, "Mul", grad, y);
    g->dx[1] = mt_g_binary(g, "Mul", grad, x);
    return;
  }
  TF_Output gx = mt_g_binary(g, "Mul", grad, conj_of(g, y));
  TF_Output gy = mt_g_binary(g, "Mul", conj_of(g, x), grad);
  mt_g_reduce_broadcast(g, x, y, gx, gy, &g->dx[0], &g->dx[1]);
}

static void neg_grad(mt_grad_ctx* g) { g->dx[0] = mt_g_unary(g, "Neg", g->dy[0]); }

static TF_Output matmul(mt_grad_ctx* g, TF_Output a, TF_Output b, int ta, int tb,
                        const char* grad_attr) {
  mt_gnode n = mt_g_begin(g, "MatMul", NULL);
  mt_g_in(&n, a);
  mt_g_in(&n, b);
  mt_g_attr_bool(&n, "transpose_a", ta);
  mt_g_attr_bool(&n, "transpose_b", tb);
  mt_g_attr_bool(&n, grad_attr, 1);
  return mt_g_end0(&n);
}

static void matmul_grad(mt_grad_ctx* g) {
  int ta = mt_op_attr_bool(g->op, "transpose_a", 0);
  int tb = mt_op_attr_bool(g->op, "transpose_b", 0);
  TF_Output a = conj_of(g, mt_g_x(g, 0)), b = conj_of(g, mt_g_x(g, 1)), grad = g->dy[0];
  if (!ta && !tb) {
    g->dx[0] = matmul(g, grad, b, 0, 1, "grad_a");
    g->dx[1] = matmul(g, a, grad, 1, 0, "grad_b");
  } else if (!ta && tb) {
    g->dx[0] = matmul(g, grad, b, 0, 0, "grad_a");
    g->dx[1] = matmul(g, grad, a, 1, 0, "grad_b");
  } else if (ta && !tb) {
    g->dx[0] = matmul(g, b, grad, 0, 1, "grad_a");
    g->dx[1] = matmul(g, a, grad, 0, 0, "grad_b");
  } else {
    g->dx[0] = matmul(g, b, grad, 1, 1, "grad_a");
    g->dx[1] = matmul(g, grad, a, 1, 1, "grad_b");
  }
}

static const mt_grad_spec math_grads[] = {
    {"Add", add_grad}, {"AddV2", add_grad}, {"Sub", sub_grad},       {"Mul", mul_grad},
    {"Neg", neg_grad}, {"MatMul", matmul_grad},
};

void mt_register_math_grads(void) {
  mt_register_gradients(math_grads, (int)(sizeof math_grads / sizeof math_grads[0]));
}
