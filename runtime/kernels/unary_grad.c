/* Gradients of the elementwise unary ops (runtime/gradient.h), as TensorFlow 2.21's
 * math_grad.py: the ones with a gradient kernel use it ((y, dy) argument order), the others
 * are a product with the derivative; Floor, Ceil, Round, Rint and Sign have none. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/grad_ctl.h"

#include <string.h>

/* kernel(y, dy) with y the op's output (TensorFlow's SigmoidGrad, TanhGrad, ...). */
static void output_kernel_grad(mt_grad_ctx* g, const char* kernel) {
  g->dx[0] = mt_g_binary(g, kernel, mt_g_y(g, 0), g->dy[0]);
}
static void sigmoid_grad(mt_grad_ctx* g) { output_kernel_grad(g, "SigmoidGrad"); }
static void tanh_grad(mt_grad_ctx* g) { output_kernel_grad(g, "TanhGrad"); }
static void sqrt_grad(mt_grad_ctx* g) { output_kernel_grad(g, "SqrtGrad"); }
static void rsqrt_grad(mt_grad_ctx* g) { output_kernel_grad(g, "RsqrtGrad"); }
static void reciprocal_grad(mt_grad_ctx* g) { output_kernel_grad(g, "ReciprocalGrad"); }

static TF_Output mul(mt_grad_ctx* g, TF_Output a, TF_Output b) {
  mt_gnode n = mt_g_begin(g, "Mul", "mul");
  mt_g_in(&n, a);
  mt_g_in(&n, b);
  return mt_g_end0(&n);
}

/* grad * f(x) where f is one op applied to x (or to y), run after grad as TensorFlow does. */
static TF_Output after_grad(mt_grad_ctx* g, const char* op_type, TF_Output x) {
  mt_gnode n = mt_g_begin(g, op_type, NULL);
  mt_g_in(&n, x);
  mt_g_control(&n, g->dy[0].oper);
  return mt_g_end0(&n);
}

static void abs_grad(mt_grad_ctx* g) {
  g->dx[0] = mul(g, g->dy[0], mt_g_unary(g, "Sign", mt_g_x(g, 0)));
}

static void exp_grad(mt_grad_ctx* g) { g->dx[0] = mul(g, g->dy[0], mt_g_y(g, 0)); }

static void log_grad(mt_grad_ctx* g) {
  g->dx[0] = mul(g, g->dy[0], after_grad(g, "Reciprocal", mt_g_x(g, 0)));
}

/* d/dx log1p(x) = 1 / (1 + x) */
static void log1p_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0);
  TF_Output one = mt_g_scalar_like(g, x, 1.0, "add/x");
  mt_gnode a = mt_g_begin(g, "AddV2", "add");
  mt_g_in(&a, one);
  mt_g_in(&a, x);
  TF_Output sum = mt_g_end0(&a);
  g->dx[0] = mul(g, g->dy[0], mt_g_unary(g, "Reciprocal", sum));
}

static void expm1_grad(mt_grad_ctx* g) {
  g->dx[0] = mul(g, g->dy[0], after_grad(g, "Exp", mt_g_x(g, 0)));
}

/* d/dx x^2 = 2x */
static void square_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0);
  double two = 2.0;
  TF_Output k = mt_g_const(g, mt_g_dtype(x), NULL, 0, &two, "Const");
  mt_gnode m = mt_g_begin(g, "Mul", NULL);
  mt_g_in(&m, x);
  mt_g_in(&m, k);
  TF_Output twice = mt_g_end0(&m);
  mt_gnode o = mt_g_begin(g, "Mul", NULL);
  mt_g_in(&o, g->dy[0]);
  mt_g_in(&o, twice);
  g->dx[0] = mt_g_end0(&o);
}

static void sin_grad(mt_grad_ctx* g) {
  g->dx[0] = mul(g, g->dy[0], after_grad(g, "Cos", mt_g_x(g, 0)));
}

static void cos_grad(mt_grad_ctx* g) {
  TF_Output s = after_grad(g, "Sin", mt_g_x(g, 0));
  g->dx[0] = mul(g, mt_g_unary(g, "Neg", g->dy[0]), s); /* TF: -grad * sin(x) */
}

/* tan' = sec^2 */
static void tan_grad(mt_grad_ctx* g) {
  TF_Output sec = mt_g_unary(g, "Reciprocal", after_grad(g, "Cos", mt_g_x(g, 0)));
  g->dx[0] = mul(g, g->dy[0], mt_g_unary(g, "Square", sec));
}

/* erf' = 2 / sqrt(pi) exp(-x^2) */
static void erf_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0);
  TF_Output k = mt_g_scalar_like(g, x, 1.1283791670955126, "Const");
  TF_Output e = mt_g_unary(g, "Exp", mt_g_unary(g, "Neg", mt_g_unary(g, "Square", x)));
  g->dx[0] = mul(g, mul(g, g->dy[0], k), e);
}

/* Sign's gradient is zero (not None), as TensorFlow's _SignGrad. */
static void sign_grad(mt_grad_ctx* g) {
  mt_gnode n = mt_g_begin(g, "ZerosLike", "zeros_like");
  mt_g_in(&n, mt_g_x(g, 0));
  g->dx[0] = mt_g_end0(&n);
}

/* ---- inverse trigonometric and hyperbolic functions, as math_grad.py (every node inside
 * `control_dependencies([grad])`, grad_ctl.h) ---- */

/* grad * kernel(conj(x)) (Sinh, Cosh) or grad / kernel(conj(y)) (Asinh, Acosh). */
static void conj_then(mt_grad_ctx* g, TF_Output v, const char* kernel, int divide) {
  mt_ctl c = mt_ctl_begin(g);
  TF_Output k = mt_ctl_1(&c, kernel, NULL, mt_ctl_conj(&c, v));
  g->dx[0] = divide ? mt_ctl_2(&c, "RealDiv", "truediv", g->dy[0], k)
                    : mt_ctl_2(&c, "Mul", "mul", g->dy[0], k);
}
static void sinh_grad(mt_grad_ctx* g) { conj_then(g, mt_g_x(g, 0), "Cosh", 0); }
static void cosh_grad(mt_grad_ctx* g) { conj_then(g, mt_g_x(g, 0), "Sinh", 0); }
static void asinh_grad(mt_grad_ctx* g) { conj_then(g, mt_g_y(g, 0), "Cosh", 1); }
static void acosh_grad(mt_grad_ctx* g) { conj_then(g, mt_g_y(g, 0), "Sinh", 1); }

/* 1 (op) x^2 for conj(x): the shared start of the Asin/Acos/Atan/Atanh gradients. */
static TF_Output one_op_x2(mt_ctl* c, const char* op, const char* name, int one_first) {
  mt_grad_ctx* g = c->g;
  TF_Output x2 = mt_ctl_1(c, "Square", NULL, mt_ctl_conj(c, mt_g_x(g, 0)));
  TF_Output one = mt_ctl_const(c, mt_g_dtype(g->dy[0]), 1.0, "Const");
  return one_first ? mt_ctl_2(c, op, name, one, x2) : mt_ctl_2(c, op, name, x2, one);
}

/* asin' = 1 / sqrt(1 - x^2); acos' = -asin'. */
static void asin_acos_grad(mt_grad_ctx* g, int negate) {
  mt_ctl c = mt_ctl_begin(g);
  TF_Output den = mt_ctl_1(&c, "Sqrt", NULL, one_op_x2(&c, "Sub", "Sub", 1));
  TF_Output inv = mt_ctl_1(&c, "Reciprocal", NULL, den);
  TF_Output grad = negate ? mt_ctl_1(&c, "Neg", NULL, g->dy[0]) : g->dy[0];
  g->dx[0] = mt_ctl_2(&c, "Mul", "mul", grad, inv);
}
static void asin_grad(mt_grad_ctx* g) { asin_acos_grad(g, 0); }
static void acos_grad(mt_grad_ctx* g) { asin_acos_grad(g, 1); }

/* atan' = 1 / (1 + x^2); atanh' = 1 / (1 - x^2). */
static void atan_grad(mt_grad_ctx* g) {
  mt_ctl c = mt_ctl_begin(g);
  TF_Output inv = mt_ctl_1(&c, "Reciprocal", NULL, one_op_x2(&c, "AddV2", "Add", 1));
  g->dx[0] = mt_ctl_2(&c, "Mul", "mul", g->dy[0], inv);
}
static void atanh_grad(mt_grad_ctx* g) {
  mt_ctl c = mt_ctl_begin(g);
  TF_Output inv = mt_ctl_1(&c, "Reciprocal", NULL, one_op_x2(&c, "Sub", "Sub", 1));
  g->dx[0] = mt_ctl_2(&c, "Mul", "mul", g->dy[0], inv);
}

/* ---- gradients of the gradient kernels (second derivatives), as TensorFlow's
 * _SigmoidGradGrad, ...: every node runs after the incoming gradient. For kernel(y, dy),
 * dx[0] is the gradient for y and dx[1] the one for dy. ---- */

/* op_type(a, b) named `name`, after the incoming gradient. */
static TF_Output gated(mt_grad_ctx* g, const char* op_type, const char* name, TF_Output a,
                       TF_Output b) {
  mt_gnode n = mt_g_begin(g, op_type, name);
  mt_g_in(&n, a);
  if (b.oper) mt_g_in(&n, b);
  mt_g_control(&n, g->dy[0].oper);
  return mt_g_end0(&n);
}

static TF_Output gated_scalar(mt_grad_ctx* g, double v, const char* name) {
  return mt_g_scalar_like(g, g->dy[0], v, name);
}

static const TF_Output NONE = {NULL, 0};

/* SigmoidGrad(y, dy) = dy y (1 - y): d/dy = grad dy - 2 grad dy y; d/d dy = SigmoidGrad(y,
 * grad). */
static void sigmoid_grad_grad(mt_grad_ctx* g) {
  TF_Output a = mt_g_x(g, 0), b = mt_g_x(g, 1), grad = g->dy[0];
  TF_Output gb = gated(g, "Mul", "mul", grad, b);
  TF_Output two_gb = gated(g, "Mul", "mul_1", gated_scalar(g, 2.0, "mul_1/x"), gb);
  g->dx[0] = gated(g, "Sub", "sub", gb, gated(g, "Mul", "mul_2", two_gb, a));
  g->dx[1] = gated(g, "SigmoidGrad", NULL, a, grad);
}

/* TanhGrad(y, dy) = dy (1 - y^2): d/dy = grad (-2) dy y; d/d dy = TanhGrad(y, grad). */
static void tanh_grad_grad(mt_grad_ctx* g) {
  TF_Output a = mt_g_x(g, 0), b = mt_g_x(g, 1), grad = g->dy[0];
  TF_Output m = gated(g, "Mul", "mul", grad, gated_scalar(g, -2.0, "mul/y"));
  g->dx[0] = gated(g, "Mul", "mul_2", gated(g, "Mul", "mul_1", m, b), a);
  g->dx[1] = gated(g, "TanhGrad", NULL, a, grad);
}

/* RsqrtGrad(y, dy) = -0.5 dy y^3: d/dy = -1.5 grad dy y^2; d/d dy = RsqrtGrad(y, grad). */
static void rsqrt_grad_grad(mt_grad_ctx* g) {
  TF_Output a = mt_g_x(g, 0), b = mt_g_x(g, 1), grad = g->dy[0];
  TF_Output m = gated(g, "Mul", "mul", gated_scalar(g, -1.5, "mul/x"), grad);
  TF_Output mb = gated(g, "Mul", "mul_1", m, b);
  g->dx[0] = gated(g, "Mul", "mul_2", mb, gated(g, "Square", NULL, a, NONE));
  g->dx[1] = gated(g, "RsqrtGrad", NULL, a, grad);
}

/* SqrtGrad(y, dy) = 0.5 dy / y = out: d/dy = -(grad / y) out; d/d dy = 0.5 grad / y. */
static void sqrt_grad_grad(mt_grad_ctx* g) {
  TF_Output a = mt_g_x(g, 0), out = mt_g_y(g, 0), grad = g->dy[0];
  TF_Output ga = gated(g, "RealDiv", "truediv", grad, a);
  g->dx[0] = gated(g, "Mul", "mul", gated(g, "Neg", NULL, ga, NONE), out);
  g->dx[1] = gated(g, "Mul", "mul_1", gated_scalar(g, 0.5, "mul_1/x"), ga);
}

/* ReciprocalGrad(y, dy) = -dy y^2: d/dy = grad (-2) dy y; d/d dy = ReciprocalGrad(y, grad). */
static void reciprocal_grad_grad(mt_grad_ctx* g) {
  TF_Output a = mt_g_x(g, 0), b = mt_g_x(g, 1), grad = g->dy[0];
  TF_Output m = gated(g, "Mul", "mul", grad, gated_scalar(g, -2.0, "mul/y"));
  g->dx[0] = gated(g, "Mul", "mul_2", gated(g, "Mul", "mul_1", m, b), a);
  g->dx[1] = gated(g, "ReciprocalGrad", NULL, a, grad);
}

static const mt_grad_spec unary_grads[] = {
    {"Tan", tan_grad},         {"Erf", erf_grad},
    {"Sigmoid", sigmoid_grad}, {"Tanh", tanh_grad},
    {"Sqrt", sqrt_grad},       {"Rsqrt", rsqrt_grad},
    {"Reciprocal", reciprocal_grad},
    {"Inv", reciprocal_grad},  {"Abs", abs_grad},
    {"Exp", exp_grad},         {"Log", log_grad},
    {"Log1p", log1p_grad},     {"Expm1", expm1_grad},
    {"Square", square_grad},   {"Sin", sin_grad},
    {"Cos", cos_grad},         {"Floor", NULL},
    {"Ceil", NULL},            {"Round", NULL},
    {"Rint", NULL},            {"Sign", sign_grad},
    {"SigmoidGrad", sigmoid_grad_grad},
    {"TanhGrad", tanh_grad_grad},
    {"RsqrtGrad", rsqrt_grad_grad},
    {"SqrtGrad", sqrt_grad_grad},
    {"ReciprocalGrad", reciprocal_grad_grad},
    {"Sinh", sinh_grad},       {"Cosh", cosh_grad},
    {"Asinh", asinh_grad},     {"Acosh", acosh_grad},
    {"Asin", asin_grad},       {"Acos", acos_grad},
    {"Atan", atan_grad},       {"Atanh", atanh_grad},
};

void mt_register_unary_grads(void) {
  mt_register_gradients(unary_grads, (int)(sizeof unary_grads / sizeof unary_grads[0]));
}
