/* Gradients of the special-function family (runtime/gradient.h), node for node as
 * TensorFlow 2.21's math_grad.py builds them: most inside `control_dependencies([grad])`
 * (grad_ctl.h), the binary ones reduced over BroadcastGradientArgs. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/grad_ctl.h"

#include <stdio.h>

static TF_Output binary_named(mt_grad_ctx* g, const char* op_type, const char* name,
                                   TF_Output x, TF_Output y) {
  mt_gnode n = mt_g_begin(g, op_type, name);
  mt_g_in(&n, x);
  mt_g_in(&n, y);
  return mt_g_end0(&n);
}

/* grad * c * f for a Const c made before the block (Erfc, Erfinv, Ndtri). */
static TF_Output grad_times_const(mt_ctl* c, double v) {
  mt_grad_ctx* g = c->g;
  TF_Output k = mt_g_scalar_like(g, g->dy[0], v, "Const");
  return mt_ctl_2(c, "Mul", "mul", g->dy[0], k);
}

/* erfc' = -2/sqrt(pi) exp(-x^2) */
static void erfc_grad(mt_grad_ctx* g) {
  mt_ctl c = mt_ctl_begin(g);
  TF_Output m = grad_times_const(&c, -1.1283791670955126);
  TF_Output sq = mt_ctl_1(&c, "Square", NULL, mt_ctl_conj(&c, mt_g_x(g, 0)));
  TF_Output e = mt_ctl_1(&c, "Exp", NULL, mt_ctl_1(&c, "Neg", NULL, sq));
  g->dx[0] = mt_ctl_2(&c, "Mul", "mul_1", m, e);
}

/* erfinv' = sqrt(pi)/2 exp(y^2) */
static void erfinv_grad(mt_grad_ctx* g) {
  mt_ctl c = mt_ctl_begin(g);
  TF_Output m = grad_times_const(&c, 0.88622692545275801);
  TF_Output e = mt_ctl_1(&c, "Exp", NULL, mt_ctl_1(&c, "Square", NULL, mt_g_y(g, 0)));
  g->dx[0] = mt_ctl_2(&c, "Mul", "mul_1", m, e);
}

/* ndtri' = sqrt(2 pi) exp(y^2 / 2) */
static void ndtri_grad(mt_grad_ctx* g) {
  mt_ctl c = mt_ctl_begin(g);
  TF_Output m = grad_times_const(&c, 2.5066282746310002);
  TF_Output sq = mt_ctl_1(&c, "Square", NULL, mt_g_y(g, 0));
  TF_Output two = mt_ctl_const(&c, mt_g_dtype(sq), 2.0, "truediv/y");
  TF_Output e = mt_ctl_1(&c, "Exp", NULL, mt_ctl_2(&c, "RealDiv", "truediv", sq, two));
  g->dx[0] = mt_ctl_2(&c, "Mul", "mul_1", m, e);
}

/* lgamma' = digamma */
static void lgamma_grad(mt_grad_ctx* g) {
  mt_ctl c = mt_ctl_begin(g);
  TF_Output d = mt_ctl_1(&c, "Digamma", NULL, mt_ctl_conj(&c, mt_g_x(g, 0)));
  g->dx[0] = mt_ctl_2(&c, "Mul", "mul", g->dy[0], d);
}

/* digamma' = polygamma(1, x) */
static void digamma_grad(mt_grad_ctx* g) {
  mt_ctl c = mt_ctl_begin(g);
  TF_Output x = mt_ctl_conj(&c, mt_g_x(g, 0));
  TF_Output one = mt_ctl_const(&c, mt_g_dtype(x), 1.0, "Const");
  TF_Output p = mt_ctl_2(&c, "Polygamma", NULL, one, x);
  g->dx[0] = mt_ctl_2(&c, "Mul", "mul", g->dy[0], p);
}

/* I0' = I1; I0e' = I1e - sign(x) I0e. */
static void bessel_i0_grad(mt_grad_ctx* g) {
  mt_ctl c = mt_ctl_begin(g);
  TF_Output i1 = mt_ctl_1(&c, "BesselI1", "bessel_i1/BesselI1", mt_g_x(g, 0));
  g->dx[0] = mt_ctl_2(&c, "Mul", "mul", g->dy[0], i1);
}

static void bessel_i0e_grad(mt_grad_ctx* g) {
  mt_ctl c = mt_ctl_begin(g);
  TF_Output x = mt_g_x(g, 0);
  TF_Output i1e = mt_ctl_1(&c, "BesselI1e", "bessel_i1e/BesselI1e", x);
  TF_Output sy = mt_ctl_2(&c, "Mul", "mul", mt_ctl_1(&c, "Sign", NULL, x), mt_g_y(g, 0));
  TF_Output d = mt_ctl_2(&c, "Sub", "sub", i1e, sy);
  g->dx[0] = mt_ctl_2(&c, "Mul", "mul_1", g->dy[0], d);
}

/* math_ops.cast(v, dtype) of a Python float inside the block: a float32 Const
 * "<scope>/x", then a Cast named scope unless dtype is float32. */
static TF_Output cast_const(mt_ctl* c, double v, TF_DataType dt, const char* scope,
                            const char* const_name) {
  TF_Output k = mt_ctl_const(c, TF_FLOAT, v, const_name);
  if (dt == TF_FLOAT) return k;
  mt_gnode n = mt_g_begin(c->g, "Cast", scope);
  mt_g_in(&n, k);
  mt_g_attr_type(&n, "DstT", dt);
  return mt_ctl_end(c, &n, &k, 1);
}

/* where(x == 0, at_zero, main) * grad (the BesselI1 / BesselI1e gradients). */
static TF_Output where_zero(mt_ctl* c, TF_Output x, double at_zero, TF_Output main_of(mt_ctl*),
                            const char* mul_name) {
  mt_grad_ctx* g = c->g;
  TF_Output zero = mt_ctl_const(c, mt_g_dtype(x), 0.0, "Equal/y");
  TF_Output eq = mt_ctl_2(c, "Equal", "Equal", x, zero);
  TF_Output k = cast_const(c, at_zero, mt_g_dtype(x), "Cast", "Cast/x");
  TF_Output m = main_of(c);
  TF_Output ins[3] = {eq, k, m};
  TF_Output sel = mt_ctl_op(c, "SelectV2", NULL, ins, 3);
  return mt_ctl_2(c, "Mul", mul_name, g->dy[0], sel);
}

/* I1' = I0 - I1 / x (1 at 0) */
static TF_Output bessel_i1_main(mt_ctl* c) {
  TF_Output x = mt_g_x(c->g, 0);
  TF_Output i0 = mt_ctl_1(c, "BesselI0", "bessel_i0/BesselI0", x);
  TF_Output div = mt_ctl_2(c, "RealDiv", "div", mt_g_y(c->g, 0), x);
  return mt_ctl_2(c, "Sub", "sub", i0, div);
}
static void bessel_i1_grad(mt_grad_ctx* g) {
  mt_ctl c = mt_ctl_begin(g);
  g->dx[0] = where_zero(&c, mt_g_x(g, 0), 1.0, bessel_i1_main, "mul");
}

/* I1e' = I0e - I1e (sign(x) + 1/x) (1/2 at 0) */
static TF_Output bessel_i1e_main(mt_ctl* c) {
  TF_Output x = mt_g_x(c->g, 0);
  TF_Output i0e = mt_ctl_1(c, "BesselI0e", "bessel_i0e/BesselI0e", x);
  TF_Output s = mt_ctl_1(c, "Sign", NULL, x);
  TF_Output r = mt_ctl_1(c, "Reciprocal", NULL, x);
  TF_Output m = mt_ctl_2(c, "Mul", "mul", mt_g_y(c->g, 0), mt_ctl_2(c, "AddV2", "add", s, r));
  return mt_ctl_2(c, "Sub", "sub", i0e, m);
}
static void bessel_i1e_grad(mt_grad_ctx* g) {
  mt_ctl c = mt_ctl_begin(g);
  g->dx[0] = where_zero(&c, mt_g_x(g, 0), 0.5, bessel_i1e_main, "mul_1");
}

/* ---- binary: Shape, Shape_1, BroadcastGradientArgs, then per input
 * Reshape(Sum(partial * grad, r), shape) ---- */

typedef struct bcast {
  TF_Output sx, sy, rx, ry;
} bcast;

static bcast bcast_args(mt_grad_ctx* g) {
  bcast b;
  b.sx = mt_g_shape(g, mt_g_x(g, 0));
  b.sy = mt_g_shape(g, mt_g_x(g, 1));
  mt_gnode n = mt_g_begin(g, "BroadcastGradientArgs", NULL);
  mt_g_in(&n, b.sx);
  mt_g_in(&n, b.sy);
  TF_Operation* op = mt_g_end(&n);
  b.rx = (TF_Output){op, 0};
  b.ry = (TF_Output){op, 1};
  return b;
}

static TF_Output reduce_to(mt_ctl* c, TF_Output partial, TF_Output r, TF_Output shape,
                           const char* mul, const char* sum, const char* reshape) {
  TF_Output m = mt_ctl_2(c, "Mul", mul, partial, c->g->dy[0]);
  mt_gnode n = mt_g_begin(c->g, "Sum", sum);
  mt_g_in(&n, m);
  mt_g_in(&n, r);
  mt_g_attr_bool(&n, "keep_dims", 0);
  TF_Output ins[2] = {m, r};
  TF_Output s = mt_ctl_end(c, &n, ins, 2);
  return mt_ctl_2(c, "Reshape", reshape, s, shape);
}

/* x - v or x + v with v a Const "<name>/y" made in the block. */
static TF_Output arith_const(mt_ctl* c, const char* op, const char* name, TF_Output x, double v) {
  char cname[64];
  snprintf(cname, sizeof cname, "%s/y", name);
  TF_Output k = mt_ctl_const(c, mt_g_dtype(x), v, cname);
  return mt_ctl_2(c, op, name, x, k);
}

/* P_x = exp(-x + (a - 1) log x - lgamma(a)); P_a = IgammaGradA(a, x). */
static void igamma_grads(mt_grad_ctx* g, TF_Output* da, TF_Output* dx) {
  TF_Output a = mt_g_x(g, 0), x = mt_g_x(g, 1);
  bcast b = bcast_args(g);
  mt_ctl c = mt_ctl_begin(g);
  TF_Output pa = mt_ctl_2(&c, "IgammaGradA", NULL, a, x);
  TF_Output neg = mt_ctl_1(&c, "Neg", NULL, x);
  TF_Output am1 = arith_const(&c, "Sub", "sub", a, 1.0);
  TF_Output t = mt_ctl_2(&c, "Mul", "mul", am1, mt_ctl_1(&c, "Log", NULL, x));
  TF_Output s = mt_ctl_2(&c, "AddV2", "add", neg, t);
  s = mt_ctl_2(&c, "Sub", "sub_1", s, mt_ctl_1(&c, "Lgamma", NULL, a));
  TF_Output px = mt_ctl_1(&c, "Exp", NULL, s);
  *da = reduce_to(&c, pa, b.rx, b.sx, "mul_1", "Sum", "Reshape");
  *dx = reduce_to(&c, px, b.ry, b.sy, "mul_2", "Sum_1", "Reshape_1");
}

static void igamma_grad(mt_grad_ctx* g) { igamma_grads(g, &g->dx[0], &g->dx[1]); }

static void igammac_grad(mt_grad_ctx* g) {
  TF_Output da, dx;
  igamma_grads(g, &da, &dx);
  g->dx[0] = mt_g_unary(g, "Neg", da);
  g->dx[1] = mt_g_unary(g, "Neg", dx);
}

/* dzeta/dq = -x zeta(x + 1, q); none for x. */
static void zeta_grad(mt_grad_ctx* g) {
  bcast b = bcast_args(g);
  mt_ctl c = mt_ctl_begin(g);
  TF_Output x = mt_ctl_conj(&c, mt_g_x(g, 0)), q = mt_ctl_conj(&c, mt_g_x(g, 1));
  TF_Output neg = mt_ctl_1(&c, "Neg", NULL, x);
  TF_Output z = mt_ctl_2(&c, "Zeta", NULL, arith_const(&c, "AddV2", "add", x, 1.0), q);
  TF_Output pq = mt_ctl_2(&c, "Mul", "mul", neg, z);
  g->dx[1] = reduce_to(&c, pq, b.ry, b.sy, "mul_1", "Sum", "Reshape");
}

/* dpolygamma(n, x)/dx = polygamma(n + 1, x); none for n. */
static void polygamma_grad(mt_grad_ctx* g) {
  bcast b = bcast_args(g);
  mt_ctl c = mt_ctl_begin(g);
  TF_Output n = mt_ctl_conj(&c, mt_g_x(g, 0)), x = mt_ctl_conj(&c, mt_g_x(g, 1));
  TF_Output p = mt_ctl_2(&c, "Polygamma", NULL, arith_const(&c, "AddV2", "add", n, 1.0), x);
  g->dx[1] = reduce_to(&c, p, b.ry, b.sy, "mul", "Sum", "Reshape");
}

/* cast(x != 0, x.dtype): the shared start of the Xlogy/Xdivy/Xlog1py gradients. */
static TF_Output not_zero(mt_ctl* c, TF_Output x) {
  TF_DataType dt = mt_g_dtype(x);
  TF_Output zero = cast_const(c, 0.0, dt, "Cast", "Cast/x");
  TF_Output ne = mt_ctl_2(c, "NotEqual", "NotEqual", x, zero);
  mt_gnode n = mt_g_begin(c->g, "Cast", "Cast_1");
  mt_g_in(&n, ne);
  mt_g_attr_type(&n, "DstT", dt);
  return mt_ctl_end(c, &n, &ne, 1);
}

/* kind 0: Xlogy (px = xlogy(nz, y), py = xdivy(x, y));
 * 1: Xlog1py (px = xlog1py(nz, y), py = xdivy(x, y + 1));
 * 2: Xdivy (px = xdivy(nz, y), py = xdivy(-x, y^2)). */
static void xlog_grad(mt_grad_ctx* g, int kind) {
  TF_Output x = mt_g_x(g, 0), y = mt_g_x(g, 1);
  bcast b = bcast_args(g);
  mt_ctl c = mt_ctl_begin(g);
  TF_Output nz = not_zero(&c, x);
  static const char* const kOps[] = {"Xlogy", "Xlog1py", "Xdivy"};
  TF_Output px = mt_ctl_2(&c, kOps[kind], NULL, nz, y), py;
  if (kind == 0) {
    py = mt_ctl_2(&c, "Xdivy", NULL, x, y);
  } else if (kind == 1) {
    py = mt_ctl_2(&c, "Xdivy", NULL, x, arith_const(&c, "AddV2", "add", y, 1.0));
  } else {
    TF_Output neg = mt_ctl_1(&c, "Neg", NULL, x);
    TF_Output sq = arith_const(&c, "Pow", "pow", y, 2.0);
    py = mt_ctl_2(&c, "Xdivy", NULL, neg, sq);
  }
  g->dx[0] = reduce_to(&c, px, b.rx, b.sx, "mul", "Sum", "Reshape");
  g->dx[1] = reduce_to(&c, py, b.ry, b.sy, "mul_1", "Sum_1", "Reshape_1");
}
static void xlogy_grad(mt_grad_ctx* g) { xlog_grad(g, 0); }
static void xlog1py_grad(mt_grad_ctx* g) { xlog_grad(g, 1); }
static void xdivy_grad(mt_grad_ctx* g) { xlog_grad(g, 2); }

/* dI_x(a, b)/dx = exp(xlog1py(b - 1, -x) + xlogy(a - 1, x) - log B(a, b)); none for a, b.
 * TensorFlow builds it outside a control-dependency block. */
static void betainc_grad(mt_grad_ctx* g) {
  TF_Output a = mt_g_x(g, 0), b = mt_g_x(g, 1), x = mt_g_x(g, 2);
  TF_Output sa = mt_g_shape(g, a), sx = mt_g_shape(g, x);
  mt_gnode n = mt_g_begin(g, "BroadcastGradientArgs", NULL);
  mt_g_in(&n, sa);
  mt_g_in(&n, sx);
  TF_Output rx = {mt_g_end(&n), 1};
  TF_Output la = mt_g_unary(g, "Lgamma", a), lb = mt_g_unary(g, "Lgamma", b);
  TF_Output sum = binary_named(g, "AddV2", "add", la, lb);
  TF_Output lab = mt_g_unary(g, "Lgamma", binary_named(g, "AddV2", "add_1", a, b));
  TF_Output log_beta = binary_named(g, "Sub", "sub", sum, lab);
  TF_Output bm1 = binary_named(g, "Sub", "sub_1", b, mt_g_scalar_like(g, b, 1.0, "sub_1/y"));
  TF_Output t1 = binary_named(g, "Xlog1py", "xlog1py/Xlog1py", bm1, mt_g_unary(g, "Neg", x));
  TF_Output am1 = binary_named(g, "Sub", "sub_2", a, mt_g_scalar_like(g, a, 1.0, "sub_2/y"));
  TF_Output t2 = mt_g_binary(g, "Xlogy", am1, x);
  TF_Output e = binary_named(g, "AddV2", "add_2", t1, t2);
  TF_Output px = mt_g_unary(g, "Exp", binary_named(g, "Sub", "sub_3", e, log_beta));
  TF_Output m = binary_named(g, "Mul", "mul", px, g->dy[0]);
  mt_gnode s = mt_g_begin(g, "Sum", NULL);
  mt_g_in(&s, m);
  mt_g_in(&s, rx);
  mt_g_attr_bool(&s, "keep_dims", 0);
  g->dx[2] = binary_named(g, "Reshape", "Reshape", mt_g_end0(&s), sx);
}

static const mt_grad_spec special_grads[] = {
    {"Erfc", erfc_grad},           {"Erfinv", erfinv_grad},
    {"Ndtri", ndtri_grad},         {"Lgamma", lgamma_grad},
    {"Digamma", digamma_grad},     {"BesselI0", bessel_i0_grad},
    {"BesselI0e", bessel_i0e_grad}, {"BesselI1", bessel_i1_grad},
    {"BesselI1e", bessel_i1e_grad}, {"Igamma", igamma_grad},
    {"Igammac", igammac_grad},     {"Zeta", zeta_grad},
    {"Polygamma", polygamma_grad}, {"Xlogy", xlogy_grad},
    {"Xlog1py", xlog1py_grad},     {"Xdivy", xdivy_grad},
    {"Betainc", betainc_grad},
};

void mt_register_special_grads(void) {
  mt_register_gradients(special_grads, (int)(sizeof special_grads / sizeof special_grads[0]));
}
