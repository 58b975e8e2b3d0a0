/* Gradients of the complex-number family (runtime/gradient.h), node for node as
 * TensorFlow 2.21's math_grad.py builds them. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/array_grad_util.h"
#include "runtime/kernels/grad_ctl.h"

static TF_DataType complex_of(TF_DataType real) {
  return real == TF_DOUBLE ? TF_COMPLEX128 : TF_COMPLEX64;
}
static TF_DataType real_of(TF_DataType c) { return c == TF_COMPLEX128 ? TF_DOUBLE : TF_FLOAT; }

/* math_ops.complex(re, im): a Complex node named "Complex". */
static TF_Output make_complex(mt_grad_ctx* g, TF_Output re, TF_Output im, mt_ctl* c) {
  mt_gnode n = mt_g_begin(g, "Complex", "Complex");
  mt_g_in(&n, re);
  mt_g_in(&n, im);
  mt_g_attr_type(&n, "Tout", complex_of(mt_g_dtype(re)));
  if (c) {
    TF_Output ins[2] = {re, im};
    return mt_ctl_end(c, &n, ins, 2);
  }
  return mt_g_end0(&n);
}

/* math_ops.real / imag of a complex tensor. */
static TF_Output project(mt_grad_ctx* g, const char* op_type, TF_Output z, mt_ctl* c) {
  mt_gnode n = mt_g_begin(g, op_type, op_type);
  mt_g_in(&n, z);
  mt_g_attr_type(&n, "Tout", real_of(mt_g_dtype(z)));
  if (c) return mt_ctl_end(c, &n, &z, 1);
  return mt_g_end0(&n);
}

static void complex_grad(mt_grad_ctx* g) {
  TF_Output gx = project(g, "Real", g->dy[0], NULL);
  TF_Output gy = project(g, "Imag", g->dy[0], NULL);
  mt_g_reduce_broadcast(g, mt_g_x(g, 0), mt_g_x(g, 1), gx, gy, &g->dx[0], &g->dx[1]);
}

static void real_grad(mt_grad_ctx* g) {
  TF_Output zero = mt_g_scalar_like(g, g->dy[0], 0.0, "Const");
  g->dx[0] = make_complex(g, g->dy[0], zero, NULL);
}

static void imag_grad(mt_grad_ctx* g) {
  TF_Output zero = mt_g_scalar_like(g, g->dy[0], 0.0, "Const");
  g->dx[0] = make_complex(g, zero, g->dy[0], NULL);
}

/* angle' : -complex(grad, 0) / complex(Im x, Re x) */
static void angle_grad(mt_grad_ctx* g) {
  mt_ctl c = mt_ctl_begin(g);
  TF_Output x = mt_g_x(g, 0);
  TF_Output re = project(g, "Real", x, &c), im = project(g, "Imag", x, &c);
  TF_Output z = mt_ctl_1(&c, "Reciprocal", NULL, make_complex(g, im, re, &c));
  TF_Output zero = mt_ctl_const(&c, mt_g_dtype(g->dy[0]), 0.0, "Const");
  TF_Output cg = make_complex(g, g->dy[0], zero, &c);
  g->dx[0] = mt_ctl_2(&c, "Mul", "mul", mt_ctl_1(&c, "Neg", NULL, cg), z);
}

static void conj_grad(mt_grad_ctx* g) { g->dx[0] = mt_g_unary(g, "Conj", g->dy[0]); }

/* |z|' : div_no_nan(complex(grad, 0) * z, complex(|z|, 0)) */
static void complex_abs_grad(mt_grad_ctx* g) {
  TF_Output grad = g->dy[0], y = mt_g_y(g, 0);
  TF_Output zg = gu_zeros_like(g, grad);
  TF_Output cg = make_complex(g, grad, zg, NULL);
  mt_gnode m = mt_g_begin(g, "Mul", "mul");
  mt_g_in(&m, cg);
  mt_g_in(&m, mt_g_x(g, 0));
  TF_Output num = mt_g_end0(&m);
  TF_Output zy = gu_zeros_like(g, y);
  TF_Output den = make_complex(g, y, zy, NULL);
  mt_gnode d = mt_g_begin(g, "DivNoNan", "div_no_nan");
  mt_g_in(&d, num);
  mt_g_in(&d, den);
  g->dx[0] = mt_g_end0(&d);
}

static const mt_grad_spec complex_grads[] = {
    {"Complex", complex_grad}, {"Real", real_grad},
    {"Imag", imag_grad},       {"Angle", angle_grad},
    {"Conj", conj_grad},       {"ComplexAbs", complex_abs_grad},
};

void mt_register_complex_grads(void) {
  mt_register_gradients(complex_grads, (int)(sizeof complex_grads / sizeof complex_grads[0]));
}
