/* Gradients of the math family (runtime/gradient.h), node for node as
 * TensorFlow 2.21's math_grad.py builds them. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/grad_ctl.h"

#include <stdio.h>
#include <string.h>

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

static TF_Output named2(mt_grad_ctx* g, const char* type, const char* name, TF_Output a,
                        TF_Output b) {
  mt_gnode n = mt_g_begin(g, type, name);
  mt_g_in(&n, a);
  mt_g_in(&n, b);
  return mt_g_end0(&n);
}

/* TensorFlow's _RealDivGrad: x / y -> (grad / y, -x / y / y * grad). */
static void realdiv_grad(mt_grad_ctx* g) {
  TF_Output x = conj_of(g, mt_g_x(g, 0)), y = conj_of(g, mt_g_x(g, 1)), grad = g->dy[0];
  TF_Output gx = mt_g_binary(g, "RealDiv", grad, y);
  TF_Output t = mt_g_binary(g, "RealDiv", mt_g_binary(g, "RealDiv", mt_g_unary(g, "Neg", x), y),
                            y);
  TF_Output gy = named2(g, "Mul", "mul", grad, t); /* TF: grad * realdiv(...) */
  mt_g_reduce_broadcast(g, mt_g_x(g, 0), mt_g_x(g, 1), gx, gy, &g->dx[0], &g->dx[1]);
}

/* TensorFlow's _MaximumMinimumGrad: the gradient goes to x where x wins (ties: x). */
static void max_min_grad(mt_grad_ctx* g, const char* cmp) {
  TF_Output x = mt_g_x(g, 0), y = mt_g_x(g, 1), grad = g->dy[0];
  mt_gnode z = mt_g_begin(g, "ZerosLike", "zeros");
  mt_g_in(&z, grad);
  TF_Output zeros = mt_g_end0(&z);
  TF_Output mask = mt_g_binary(g, cmp, x, y);
  mt_gnode a = mt_g_begin(g, "SelectV2", NULL);
  mt_g_in(&a, mask);
  mt_g_in(&a, grad);
  mt_g_in(&a, zeros);
  TF_Output gx = mt_g_end0(&a);
  mt_gnode b = mt_g_begin(g, "SelectV2", NULL);
  mt_g_in(&b, mask);
  mt_g_in(&b, zeros);
  mt_g_in(&b, grad);
  TF_Output gy = mt_g_end0(&b);
  mt_g_reduce_broadcast(g, x, y, gx, gy, &g->dx[0], &g->dx[1]);
}
static void maximum_grad(mt_grad_ctx* g) { max_min_grad(g, "GreaterEqual"); }
static void minimum_grad(mt_grad_ctx* g) { max_min_grad(g, "LessEqual"); }

/* (x - y)^2 -> 2 (x - y) grad, and its negation. */
static void squared_difference_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0), y = mt_g_x(g, 1), grad = g->dy[0];
  TF_Output two = mt_g_scalar_like(g, grad, 2.0, "scalar");
  TF_Output diff = mt_g_binary(g, "Sub", x, y);
  TF_Output xg = named2(g, "Mul", "mul", two, named2(g, "Mul", "mul", grad, diff));
  TF_Output yg = mt_g_unary(g, "Neg", xg);
  mt_g_reduce_broadcast(g, x, y, xg, yg, &g->dx[0], &g->dx[1]);
}

/* x^y -> grad * y * x^(y-1), grad * z * log(x) where x > 0 (0 elsewhere). */
static void pow_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0), y = mt_g_x(g, 1), z = mt_g_y(g, 0), grad = g->dy[0];
  TF_Output one = mt_g_scalar_like(g, y, 1.0, "sub/y");
  TF_Output ym1 = named2(g, "Sub", "sub", y, one);
  TF_Output gx = named2(g, "Mul", "mul", named2(g, "Mul", "mul", grad, y),
                        mt_g_binary(g, "Pow", x, ym1));
  TF_Output zero = mt_g_scalar_like(g, x, 0.0, "zeros");
  TF_Output pos = mt_g_binary(g, "Greater", x, zero);
  mt_gnode z1 = mt_g_begin(g, "ZerosLike", NULL);
  mt_g_in(&z1, x);
  TF_Output zx = mt_g_end0(&z1);
  mt_gnode w = mt_g_begin(g, "SelectV2", NULL);
  mt_g_in(&w, pos);
  mt_g_in(&w, x);
  mt_g_in(&w, mt_g_unary(g, "OnesLike", x));
  TF_Output safe = mt_g_end0(&w);
  mt_gnode l = mt_g_begin(g, "SelectV2", NULL);
  mt_g_in(&l, pos);
  mt_g_in(&l, mt_g_unary(g, "Log", safe));
  mt_g_in(&l, zx);
  TF_Output log_x = mt_g_end0(&l);
  TF_Output gy = named2(g, "Mul", "mul", named2(g, "Mul", "mul", grad, z), log_x);
  mt_g_reduce_broadcast(g, x, y, gx, gy, &g->dx[0], &g->dx[1]);
}

/* Every input of AddN gets the sum's gradient. */
static void add_n_grad(mt_grad_ctx* g) {
  for (int i = 0; i < g->op->ninputs; i++) g->dx[i] = g->dy[0];
}

static int is_float_type(TF_DataType t) {
  return t == TF_HALF || t == TF_BFLOAT16 || t == TF_FLOAT || t == TF_DOUBLE ||
         t == TF_COMPLEX64 || t == TF_COMPLEX128;
}

/* Cast between floating types casts the gradient back; otherwise none. */
static void cast_grad(mt_grad_ctx* g) {
  TF_DataType src = g->op->input_types[0], dst = g->op->output_types[0];
  if (!is_float_type(src) || !is_float_type(dst)) return;
  mt_gnode n = mt_g_begin(g, "Cast", NULL);
  mt_g_in(&n, g->dy[0]);
  mt_g_attr_type(&n, "DstT", src);
  g->dx[0] = mt_g_end0(&n);
}

/* Select(c, x, y): the gradient goes to x where c, to y elsewhere. */
static void select_grad(mt_grad_ctx* g) {
  TF_Output c = mt_g_x(g, 0), grad = g->dy[0];
  mt_gnode z = mt_g_begin(g, "ZerosLike", NULL);
  mt_g_in(&z, grad);
  TF_Output zeros = mt_g_end0(&z);
  const char* type = strcmp(g->op->op_type, "Select") == 0 ? "Select" : "SelectV2";
  mt_gnode a = mt_g_begin(g, type, NULL);
  mt_g_in(&a, c);
  mt_g_in(&a, grad);
  mt_g_in(&a, zeros);
  TF_Output gx = mt_g_end0(&a);
  mt_gnode b = mt_g_begin(g, type, NULL);
  mt_g_in(&b, c);
  mt_g_in(&b, zeros);
  mt_g_in(&b, grad);
  TF_Output gy = mt_g_end0(&b);
  if (strcmp(type, "SelectV2") == 0) {
    /* each side reduced against the output's shape (the condition may broadcast too) */
    TF_Output out = mt_g_y(g, 0), none = {NULL, 0}, unused;
    mt_g_reduce_broadcast(g, mt_g_x(g, 1), out, gx, none, &g->dx[1], &unused);
    mt_g_reduce_broadcast(g, mt_g_x(g, 2), out, gy, none, &g->dx[2], &unused);
  } else {
    g->dx[1] = gx;
    g->dx[2] = gy;
  }
}

/* atan2(y, x): (x, -y) * grad / (x^2 + y^2) */
static void atan2_grad(mt_grad_ctx* g) {
  TF_Output y = mt_g_x(g, 0), x = mt_g_x(g, 1), grad = g->dy[0];
  TF_Output den = named2(g, "AddV2", "add", mt_g_unary(g, "Square", x), mt_g_unary(g, "Square", y));
  TF_Output inv = named2(g, "RealDiv", "truediv", grad, den);
  TF_Output gy = named2(g, "Mul", "mul", x, inv);
  TF_Output gx = named2(g, "Mul", "mul", mt_g_unary(g, "Neg", y), inv);
  mt_g_reduce_broadcast(g, y, x, gy, gx, &g->dx[0], &g->dx[1]);
}

/* div_no_nan(x, y): (div_no_nan(grad, y), grad * div_no_nan(div_no_nan(-x, y), y)) */
static void div_no_nan_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0), y = mt_g_x(g, 1), grad = g->dy[0];
  TF_Output gx = mt_g_binary(g, "DivNoNan", grad, y);
  TF_Output t = mt_g_binary(g, "DivNoNan", mt_g_binary(g, "DivNoNan", mt_g_unary(g, "Neg", x), y), y);
  TF_Output gy = named2(g, "Mul", "mul", grad, t);
  mt_g_reduce_broadcast(g, x, y, gx, gy, &g->dx[0], &g->dx[1]);
}

/* floor_mod(x, y) = x - floor(x / y) y: (grad, -grad floor_div(x, y)) */
static void floor_mod_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0), y = mt_g_x(g, 1), grad = g->dy[0];
  TF_Output q = mt_g_binary(g, "FloorDiv", x, y);
  TF_Output gy = named2(g, "Mul", "mul", grad, mt_g_unary(g, "Neg", q));
  mt_g_reduce_broadcast(g, x, y, grad, gy, &g->dx[0], &g->dx[1]);
}

/* clip_by_value(t, lo, hi): t's gradient where lo <= t <= hi, lo's below, hi's above. */
static void clip_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0), lo = mt_g_x(g, 1), hi = mt_g_x(g, 2), grad = g->dy[0];
  mt_gnode z = mt_g_begin(g, "ZerosLike", "zeros");
  mt_g_in(&z, grad);
  TF_Output zeros = mt_g_end0(&z);
  TF_Output below = mt_g_binary(g, "Less", x, lo);
  TF_Output above = mt_g_binary(g, "Greater", x, hi);
  TF_Output out = mt_g_binary(g, "LogicalOr", below, above);
  TF_Output sel[3][3] = {{out, zeros, grad}, {below, grad, zeros}, {above, grad, zeros}};
  TF_Output parts[3];
  for (int k = 0; k < 3; k++) {
    mt_gnode n = mt_g_begin(g, "SelectV2", NULL);
    for (int i = 0; i < 3; i++) mt_g_in(&n, sel[k][i]);
    parts[k] = mt_g_end0(&n);
  }
  TF_Output none = {NULL, 0}, unused;
  g->dx[0] = parts[0];
  mt_g_reduce_broadcast(g, lo, x, parts[1], none, &g->dx[1], &unused);
  mt_g_reduce_broadcast(g, hi, x, parts[2], none, &g->dx[2], &unused);
}

/* MulNoNan: mul_no_nan(grad, y), mul_no_nan(x, grad), reduced when shapes differ. */
static void mul_no_nan_grad(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0), y = mt_g_x(g, 1), grad = g->dy[0];
  TF_Output gx = mt_g_binary(g, "MulNoNan", grad, y);
  TF_Output gy = mt_g_binary(g, "MulNoNan", x, grad);
  if (mt_g_shapes_equal_full(x, y, grad)) {
    g->dx[0] = gx;
    g->dx[1] = gy;
    return;
  }
  mt_g_reduce_broadcast(g, x, y, gx, gy, &g->dx[0], &g->dx[1]);
}

/* array_ops.ones / zeros(shape) in the block: Fill(shape, Const "<name>/Const"). */
static TF_Output ctl_fill(mt_ctl* c, TF_Output shape, TF_DataType dt, double v,
                          const char* name) {
  char cname[32];
  snprintf(cname, sizeof cname, "%s/Const", name);
  TF_Output k = mt_ctl_const(c, dt, v, cname);
  return mt_ctl_2(c, "Fill", name, shape, k);
}

/* Reshape(Sum(partial * grad, r), shape) in the block. */
static TF_Output ctl_reduce(mt_ctl* c, TF_Output partial, TF_Output r, TF_Output shape,
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

/* NextAfter: 1 for x1, 0 for x2 (TensorFlow's _NextAfterGrad). */
static void next_after_grad(mt_grad_ctx* g) {
  TF_Output x1 = mt_g_x(g, 0), x2 = mt_g_x(g, 1);
  TF_Output s1 = mt_g_shape(g, x1), s2 = mt_g_shape(g, x2);
  mt_gnode n = mt_g_begin(g, "BroadcastGradientArgs", NULL);
  mt_g_in(&n, s1);
  mt_g_in(&n, s2);
  TF_Operation* bga = mt_g_end(&n);
  mt_ctl c = mt_ctl_begin(g);
  TF_Output p1 = ctl_fill(&c, s1, mt_g_dtype(x1), 1.0, "ones");
  TF_Output p2 = ctl_fill(&c, s2, mt_g_dtype(x2), 0.0, "zeros");
  g->dx[0] = ctl_reduce(&c, p1, (TF_Output){bga, 0}, s1, "mul", "Sum", "Reshape");
  g->dx[1] = ctl_reduce(&c, p2, (TF_Output){bga, 1}, s2, "mul_1", "Sum_1", "Reshape_1");
}

static const mt_grad_spec math_grads[] = {
    {"MulNoNan", mul_no_nan_grad}, {"NextAfter", next_after_grad},
    {"Add", add_grad}, {"AddV2", add_grad}, {"Sub", sub_grad},       {"Mul", mul_grad},
    {"Neg", neg_grad}, {"MatMul", matmul_grad},
    {"RealDiv", realdiv_grad}, {"Div", realdiv_grad},
    {"Maximum", maximum_grad}, {"Minimum", minimum_grad},
    {"SquaredDifference", squared_difference_grad}, {"Pow", pow_grad},
    {"AddN", add_n_grad}, {"Cast", cast_grad},
    {"Select", select_grad}, {"SelectV2", select_grad},
    {"Atan2", atan2_grad}, {"DivNoNan", div_no_nan_grad}, {"FloorMod", floor_mod_grad},
    {"ClipByValue", clip_grad},
    {"Less", NULL}, {"LessEqual", NULL}, {"Greater", NULL}, {"GreaterEqual", NULL},
    {"Equal", NULL}, {"NotEqual", NULL}, {"LogicalAnd", NULL}, {"LogicalOr", NULL},
    {"LogicalNot", NULL}, {"FloorDiv", NULL}, {"TruncateDiv", NULL},
    {"BitwiseAnd", NULL}, {"BitwiseOr", NULL}, {"BitwiseXor", NULL}, {"LeftShift", NULL},
};

void mt_register_math_grads(void) {
  mt_register_gradients(math_grads, (int)(sizeof math_grads / sizeof math_grads[0]));
}
