/* Optimizer update ops (TensorFlow's training_ops): Apply<Optimizer> (ref variables),
 * ResourceApply<Optimizer> (resource variables) and their Sparse forms, which update only the
 * rows `indices` names.
 *
 * Each optimizer's update is written once, per element, as a `formula` (the arithmetic and its
 * order follow TensorFlow's CPU functors, so float results agree to the last bits); one generic
 * kernel (run_apply) serves all four forms. It locks every variable it updates (in address
 * order, so concurrent updates of overlapping variables cannot deadlock), checks shapes and
 * indices with TensorFlow's messages before changing anything (a bad update leaves every
 * variable as it was), makes the buffers private (copy-on-write, so a value read earlier in
 * the run keeps its contents), then updates. float and double (half and bfloat16 widened to
 * float per element); other types of TensorFlow's
 * OpDef fail with Unimplemented naming the op. Ref forms forward the variable to `out`. */
#include "runtime/kernels/all_ops.h"
#include "runtime/kernel.h"
#include "runtime/graph.h"
#include "runtime/kernels/half.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/resource.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VARS 4
#define MAX_SCALARS 6

/* One optimizer's element update over n contiguous elements: v[k] are the variable (k = 0)
 * and its slots, g the gradient, s the scalar inputs (as double; cast to T where used),
 * flag the formula's boolean attr (use_nesterov, update_slots, multiply_linear_by_lr). */
typedef void (*upd_fn)(void* const* v, const void* g, int64_t n, const double* s, int flag);

typedef struct formula {
  int nvars;
  const char* scalars[MAX_SCALARS]; /* input names, in the order the update reads them */
  const char* flag_attr;            /* NULL when none */
  int flag_default;
  upd_fn f32, f64;
} formula;

#define SGN(x) ((x) == (T)0 ? (T)0 : ((x) < (T)0 ? (T)-1 : (T)1))
#define MAXT(a, b) ((a) > (b) ? (a) : (b))
#define ABST(x) ((x) < (T)0 ? -(x) : (x))
#define SQRTT(x) ((T)sqrt((double)(x)))
#define RSQRTT(x) ((T)1 / SQRTT(x))
#define POWT(x, p) ((T)pow((double)(x), (double)(p)))
#define V(k) v[k][i]
#define G g[i]
#define S(k) ((T)s[k])

#define FORMULA(NAME, BODY)                                                               \
  static void NAME##_f32(void* const* vv, const void* gv, int64_t n, const double* s,     \
                         int flag) {                                                      \
    typedef float T;                                                                      \
    T* const* v = (T* const*)vv;                                                          \
    const T* g = gv;                                                                      \
    (void)flag;                                                                           \
    for (int64_t i = 0; i < n; i++) { BODY }                                              \
  }                                                                                       \
  static void NAME##_f64(void* const* vv, const void* gv, int64_t n, const double* s,     \
                         int flag) {                                                      \
    typedef double T;                                                                     \
    T* const* v = (T* const*)vv;                                                          \
    const T* g = gv;                                                                      \
    (void)flag;                                                                           \
    for (int64_t i = 0; i < n; i++) { BODY }                                              \
  }

/* var -= grad * alpha */
FORMULA(gd, V(0) -= G * S(0);)

/* Fobos: prox = var - grad * alpha, then shrink by alpha * l1 and scale by 1 / (1 + alpha l2). */
FORMULA(proximal_gd, {
  const T prox = V(0) - G * S(0);
  const T scale = (T)1 + S(2) * S(0);
  V(0) = S(1) > (T)0 ? SGN(prox) * MAXT(ABST(prox) - S(0) * S(1), (T)0) / scale : prox / scale;
})

/* accum = rho accum + (1 - rho) g^2; update = sqrt(accum_update + eps) / sqrt(accum + eps) g;
 * var -= lr update; accum_update = rho accum_update + (1 - rho) update^2 */
FORMULA(adadelta, {
  V(1) = V(1) * S(1) + G * G * ((T)1 - S(1));
  const T update = SQRTT(V(2) + S(2)) * RSQRTT(V(1) + S(2)) * G;
  V(0) -= update * S(0);
  V(2) = V(2) * S(1) + update * update * ((T)1 - S(1));
})

/* accum += g^2 (update_slots); var -= g lr / sqrt(accum) */
FORMULA(adagrad, {
  if (flag) V(1) += G * G;
  V(0) -= G * S(0) * RSQRTT(V(1));
})

/* as Adagrad, with var -= g lr / (sqrt(accum) + epsilon) */
FORMULA(adagrad_v2, {
  if (flag) V(1) += G * G;
  V(0) -= G * S(0) / (SQRTT(V(1)) + S(1));
})

/* accum += g^2; rate = lr / sqrt(accum); then Fobos as ProximalGradientDescent with rate. */
FORMULA(proximal_adagrad, {
  V(1) += G * G;
  const T rate = S(0) * RSQRTT(V(1));
  const T prox = V(0) - G * rate;
  const T scale = (T)1 + S(2) * rate;
  V(0) = S(1) > (T)0 ? SGN(prox) * MAXT(ABST(prox) - rate * S(1), (T)0) / scale : prox / scale;
})

/* Dual averaging: gacc += g; gsq += g^2; var = -lr shrink(gacc, step l1) / (l2 step lr +
 * sqrt(gsq)); s[3] is global_step (TensorFlow rounds it to float). */
FORMULA(adagrad_da, {
  V(1) += G;
  V(2) += G * G;
  const T step = (T)(float)s[3];
  const T denom = S(2) * (T)((float)s[3] * S(0)) + SQRTT(V(2));
  V(0) = S(1) > (T)0
             ? S(0) * (T)-1 * SGN(V(1)) * MAXT(ABST(V(1)) - step * S(1), (T)0) / denom
             : S(0) * V(1) * (T)-1 / denom;
})

/* FTRL-proximal; GS is the gradient used for `linear` (with l2 shrinkage for V2), LR_POWER the
 * index of lr_power among the scalars. */
#define FTRL_BODY(GS, LR_POWER)                                                            \
  {                                                                                        \
    const T lr = S(0), l1 = S(1), l2 = S(2), lr_power = S(LR_POWER);                       \
    const T gs = (GS);                                                                     \
    const T new_accum = V(1) + G * G;                                                      \
    const int half = lr_power == (T)-0.5;                                                  \
    const T d = half ? SQRTT(new_accum) - SQRTT(V(1))                                      \
                     : POWT(new_accum, -lr_power) - POWT(V(1), -lr_power);                 \
    if (flag)                                                                              \
      V(2) += gs * lr - d * V(0);                                                          \
    else                                                                                   \
      V(2) += gs - d / lr * V(0);                                                          \
    const T l1e = flag ? l1 * lr : l1;                                                     \
    const T x = l1e * SGN(V(2)) - V(2);                                                    \
    const T p = half ? SQRTT(new_accum) : POWT(new_accum, -lr_power);                      \
    const T y = flag ? p + (T)2 * l2 * lr : p / lr + (T)2 * l2;                            \
    V(0) = ABST(V(2)) > l1e ? x / y : (T)0;                                                \
    V(1) += G * G;                                                                         \
  }
FORMULA(ftrl, FTRL_BODY(G, 3))
FORMULA(ftrl_v2, FTRL_BODY(G + (T)2 * S(3) * V(0), 4))

/* accum = accum momentum + g; var -= lr accum (Nesterov: var -= g lr + accum momentum lr) */
FORMULA(momentum, {
  V(1) = V(1) * S(1) + G;
  V(0) -= flag ? G * S(0) + V(1) * S(1) * S(0) : V(1) * S(0);
})

/* Keras: accum = accum momentum - g lr; var += accum (Nesterov: += accum momentum - g lr) */
FORMULA(keras_momentum, {
  V(1) = V(1) * S(1) - G * S(0);
  V(0) += flag ? V(1) * S(1) - G * S(0) : V(1);
})

/* Adam (ApplyAdamNonCuda): alpha = lr sqrt(1 - beta2^t) / (1 - beta1^t); m += (g - m)(1 -
 * beta1); v += (g^2 - v)(1 - beta2); var -= alpha m / (sqrt(v) + eps) (Nesterov: (g (1 -
 * beta1) + beta1 m) in place of m) */
FORMULA(adam, {
  const T alpha = S(2) * SQRTT((T)1 - S(1)) / ((T)1 - S(0));
  V(1) += (G - V(1)) * ((T)1 - S(3));
  V(2) += (G * G - V(2)) * ((T)1 - S(4));
  const T num = flag ? G * ((T)1 - S(3)) + S(3) * V(1) : V(1);
  V(0) -= (num * alpha) / (SQRTT(V(2)) + S(5));
})

/* Adam with vhat = max(vhat, v) in the denominator */
FORMULA(adam_amsgrad, {
  const T alpha = S(2) * SQRTT((T)1 - S(1)) / ((T)1 - S(0));
  V(1) += (G - V(1)) * ((T)1 - S(3));
  V(2) += (G * G - V(2)) * ((T)1 - S(4));
  V(3) = MAXT(V(3), V(2));
  V(0) -= (V(1) * alpha) / (SQRTT(V(3)) + S(5));
})

/* AdaMax: m += (g - m)(1 - beta1); v = max(beta2 v, |g|); var -= lr / (1 - beta1^t) m / (v +
 * eps) */
FORMULA(ada_max, {
  V(1) += (G - V(1)) * ((T)1 - S(2));
  V(2) = MAXT(S(3) * V(2), ABST(G));
  V(0) -= S(1) / ((T)1 - S(0)) * (V(1) / (V(2) + S(4)));
})

/* ms += (g^2 - ms)(1 - rho); mom = mom momentum + g lr / sqrt(ms + eps); var -= mom */
FORMULA(rms_prop, {
  V(1) += (G * G - V(1)) * ((T)1 - S(1));
  V(2) = V(2) * S(2) + (G * S(0)) / SQRTT(V(1) + S(3));
  V(0) -= V(2);
})

/* centered: mg += (g - mg)(1 - rho) too, and the denominator is sqrt(ms - mg^2 + eps) */
FORMULA(centered_rms_prop, {
  V(2) += (G * G - V(2)) * ((T)1 - S(1));
  V(1) += (G - V(1)) * ((T)1 - S(1));
  const T denom = (V(2) - V(1) * V(1)) + S(3);
  V(3) = V(3) * S(2) + (G * S(0)) / SQRTT(denom);
  V(0) -= V(3);
})

/* AddSign: m = beta m + (1 - beta) g; var -= lr (alpha + sign_decay sign(g) sign(m)) g */
FORMULA(add_sign, {
  V(1) = V(1) * S(3) + G * ((T)1 - S(3));
  const T sign_gm = SGN(G) * SGN(V(1));
  V(0) -= S(0) * (S(1) + S(2) * sign_gm) * G;
})

/* PowerSign: as AddSign with the scale exp(logbase sign_decay sign(g) sign(m)) */
FORMULA(power_sign, {
  V(1) = V(1) * S(3) + G * ((T)1 - S(3));
  const T sign_gm = SGN(G) * SGN(V(1));
  V(0) -= S(0) * (T)exp((double)(S(1) * S(2) * sign_gm)) * G;
})

#define F(NAME) .f32 = NAME##_f32, .f64 = NAME##_f64
static const formula F_GD = {1, {"alpha"}, NULL, 0, F(gd)};
static const formula F_PROXIMAL_GD = {1, {"alpha", "l1", "l2"}, NULL, 0, F(proximal_gd)};
static const formula F_ADADELTA = {3, {"lr", "rho", "epsilon"}, NULL, 0, F(adadelta)};
static const formula F_ADAGRAD = {2, {"lr"}, "update_slots", 1, F(adagrad)};
static const formula F_ADAGRAD_V2 = {2, {"lr", "epsilon"}, "update_slots", 1, F(adagrad_v2)};
static const formula F_PROXIMAL_ADAGRAD = {2, {"lr", "l1", "l2"}, NULL, 0, F(proximal_adagrad)};
static const formula F_ADAGRAD_DA = {3, {"lr", "l1", "l2", "global_step"}, NULL, 0, F(adagrad_da)};
static const formula F_FTRL = {3, {"lr", "l1", "l2", "lr_power"}, "multiply_linear_by_lr", 0,
                               F(ftrl)};
static const formula F_FTRL_V2 = {3, {"lr", "l1", "l2", "l2_shrinkage", "lr_power"},
                                  "multiply_linear_by_lr", 0, F(ftrl_v2)};
static const formula F_MOMENTUM = {2, {"lr", "momentum"}, "use_nesterov", 0, F(momentum)};
static const formula F_KERAS_MOMENTUM = {2, {"lr", "momentum"}, "use_nesterov", 0,
                                         F(keras_momentum)};
static const formula F_ADAM = {3, {"beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon"},
                               "use_nesterov", 0, F(adam)};
static const formula F_ADAM_AMSGRAD = {
    4, {"beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon"}, NULL, 0,
    F(adam_amsgrad)};
static const formula F_ADA_MAX = {3, {"beta1_power", "lr", "beta1", "beta2", "epsilon"}, NULL, 0,
                                  F(ada_max)};
static const formula F_RMS_PROP = {3, {"lr", "rho", "momentum", "epsilon"}, NULL, 0, F(rms_prop)};
static const formula F_CENTERED_RMS_PROP = {4, {"lr", "rho", "momentum", "epsilon"}, NULL, 0,
                                            F(centered_rms_prop)};
static const formula F_ADD_SIGN = {2, {"lr", "alpha", "sign_decay", "beta"}, NULL, 0, F(add_sign)};
static const formula F_POWER_SIGN = {2, {"lr", "logbase", "sign_decay", "beta"}, NULL, 0,
                                     F(power_sign)};

/* ---- the generic kernel ---- */

enum { M_RESOURCE = 0, M_REF = 1, M_SPARSE = 2 };

typedef struct upd_vars {
  int n;
  mt_var* v[MAX_VARS];
} upd_vars;

static int cmp_ptr(const void* a, const void* b) {
  uintptr_t x = (uintptr_t) * (mt_var* const*)a, y = (uintptr_t) * (mt_var* const*)b;
  return x < y ? -1 : x > y;
}

/* The distinct variables of u in address order (the lock order); their count. */
static int lock_order(const upd_vars* u, mt_var** order) {
  memcpy(order, u->v, sizeof(mt_var*) * (size_t)u->n);
  qsort(order, (size_t)u->n, sizeof(mt_var*), cmp_ptr);
  int n = 0;
  for (int i = 0; i < u->n; i++)
    if (n == 0 || order[n - 1] != order[i]) order[n++] = order[i];
  return n;
}

static void unlock_all(const upd_vars* u) {
  mt_var* order[MAX_VARS];
  const int n = lock_order(u, order);
  for (int i = 0; i < n; i++) pthread_mutex_unlock(&order[i]->mu);
}

static int input_index(const mt_kernel_ctx* ctx, const char* name) {
  for (int i = 0; i < ctx->op->def->ninputs; i++)
    if (strcmp(ctx->op->def->inputs[i].name, name) == 0) return i;
  return -1;
}

static const char* input_name(const mt_kernel_ctx* ctx, int i) {
  return ctx->op->def->inputs[i].name;
}

/* The variable behind input i (a resource handle, or a ref); 0 + status when missing. */
static int find_var(mt_kernel_ctx* ctx, int i, int ref, mt_var** out) {
  if (ref) {
    *out = mt_ref_var(ctx->inputs[i]);
    if (!*out)
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input %d (%s) of %s is not a ref", i,
                     input_name(ctx, i), ctx->op->name);
    return *out != NULL;
  }
  const mt_resource_handle* h = mt_resource_get(ctx->inputs[i], ctx->status);
  if (!h) return 0;
  *out = mt_var_lookup(ctx->state, h, 0);
  if (!*out || !mt_var_initialized(ctx->state, h)) {
    char why[1024];
    mt_var_not_found(ctx->state, h, why, sizeof why);
    mt_status_setf(ctx->status, TF_FAILED_PRECONDITION,
                   "Error while reading resource variable %s from Container: %s. This could "
                   "mean that the variable was uninitialized. %s",
                   h->name, h->container, why);
    return 0;
  }
  return 1;
}

/* Finds and locks the first n inputs' variables; then checks each holds a value of dtype dt.
 * 0 + status (nothing left locked) otherwise. */
static int lock_vars(mt_kernel_ctx* ctx, int n, int ref, TF_DataType dt, upd_vars* u) {
  u->n = n;
  for (int i = 0; i < n; i++)
    if (!find_var(ctx, i, ref, &u->v[i])) return 0;
  mt_var* order[MAX_VARS];
  const int m = lock_order(u, order);
  for (int i = 0; i < m; i++) pthread_mutex_lock(&order[i]->mu);
  for (int i = 0; i < n; i++) {
    const TF_Tensor* val = u->v[i]->value;
    if (!val) {
      const TF_Output src = ctx->op->inputs[i]; /* TensorFlow names the input's node */
      mt_status_setf(ctx->status, TF_FAILED_PRECONDITION,
                     "Attempting to use uninitialized value %s", src.oper->name);
    } else if (val->dtype != dt) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Variable and value dtypes don't match; respectively, %s and %s",
                     mt_dtype_name(val->dtype), mt_dtype_name(dt));
    } else {
      continue;
    }
    unlock_all(u);
    return 0;
  }
  return 1;
}

static int same_shape(const TF_Tensor* a, const TF_Tensor* b) {
  return a->ndims == b->ndims && memcmp(a->dims, b->dims, sizeof(int64_t) * (size_t)a->ndims) == 0;
}

static int64_t index_at(const TF_Tensor* ind, int64_t k) {
  return ind->dtype == TF_INT64 ? ((const int64_t*)mt_tensor_data(ind))[k]
                                : ((const int32_t*)mt_tensor_data(ind))[k];
}

/* TensorFlow's checks of a sparse update: var at least 1-D, indices a vector of in-range
 * rows, grad [N] + var.shape[1:]. Sets *inner to the row length. */
static int check_sparse(mt_kernel_ctx* ctx, const TF_Tensor* var, const TF_Tensor* grad,
                        const TF_Tensor* ind, int64_t* inner) {
  if (var->ndims < 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "var must be at least 1 dimensional");
    return 0;
  }
  if (ind->ndims != 1) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "indices must be one-dimensional");
    return 0;
  }
  if (grad->ndims != var->ndims) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "var and grad do not have the same number of dimensions: %d vs %d",
                   var->ndims, grad->ndims);
    return 0;
  }
  *inner = 1;
  for (int d = 1; d < var->ndims; d++) {
    if (var->dims[d] != grad->dims[d]) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "var and grad must match in dimension %d",
                     d);
      return 0;
    }
    *inner *= var->dims[d];
  }
  const int64_t n = ind->dims[0];
  if (grad->dims[0] != n) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "grad must be the same size as indices in the first dimension.");
    return 0;
  }
  for (int64_t k = 0; k < n; k++) {
    const int64_t row = index_at(ind, k);
    if (row < 0 || row >= var->dims[0]) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Index %lld at offset %lld in indices is out of range", (long long)row,
                     (long long)k);
      return 0;
    }
  }
  return 1;
}

/* "var and <input i> do not have the same shape[..] [..]" unless t has var's shape. */
static int same_as_var(mt_kernel_ctx* ctx, const TF_Tensor* var, const TF_Tensor* t, int i) {
  if (same_shape(var, t)) return 1;
  char a[256], b[256];
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "var and %s do not have the same shape%s %s",
                 input_name(ctx, i), mt_dims_str(var->dims, var->ndims, a, sizeof a),
                 mt_dims_str(t->dims, t->ndims, b, sizeof b));
  return 0;
}

/* Scalars are scalars, slots have the variable's shape, the gradient (input gi) fits (dense:
 * same shape; sparse: check_sparse). */
static int validate(mt_kernel_ctx* ctx, const formula* f, const upd_vars* u, const int* sidx,
                    int ns, int gi, const TF_Tensor* ind, int64_t* inner) {
  char a[256];
  const TF_Tensor* var = u->v[0]->value;
  for (int k = 0; k < ns; k++) {
    const TF_Tensor* t = ctx->inputs[sidx[k]];
    if (t->ndims != 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s is not a scalar: %s",
                     input_name(ctx, sidx[k]), mt_dims_str(t->dims, t->ndims, a, sizeof a));
      return 0;
    }
  }
  for (int i = 1; i < f->nvars; i++)
    if (!same_as_var(ctx, var, u->v[i]->value, i)) return 0;
  if (ind) return check_sparse(ctx, var, ctx->inputs[gi], ind, inner);
  return same_as_var(ctx, var, ctx->inputs[gi], gi);
}

static int is_half(TF_DataType dt) { return dt == TF_HALF || dt == TF_BFLOAT16; }

static float half_at(TF_DataType dt, const void* p, int64_t i) {
  return dt == TF_HALF ? mt_half_to_float(((const mt_half*)p)[i])
                       : mt_bfloat16_to_float(((const mt_bfloat16*)p)[i]);
}

static void half_store(TF_DataType dt, void* p, int64_t i, float v) {
  if (dt == TF_HALF) ((mt_half*)p)[i] = mt_float_to_half(v);
  else ((mt_bfloat16*)p)[i] = mt_float_to_bfloat16(v);
}

static double scalar_value(const TF_Tensor* t) {
  switch (t->dtype) {
    case TF_HALF: case TF_BFLOAT16: return (double)half_at(t->dtype, mt_tensor_data(t), 0);
    case TF_DOUBLE: return *(const double*)mt_tensor_data(t);
    case TF_FLOAT: return (double)*(const float*)mt_tensor_data(t);
    case TF_INT64: return (double)*(const int64_t*)mt_tensor_data(t);
    default: return (double)*(const int32_t*)mt_tensor_data(t);
  }
}

/* fn over n elements of 16-bit floats: widened to float, updated, rounded back (TensorFlow's
 * Eigen::half rounds after every operation, so results may differ in the last bit). */
static void update_half(const formula* f, TF_DataType dt, void* const* v, const void* g,
                        int64_t n, const double* s, int flag, float* work) {
  float* wv[MAX_VARS];
  for (int k = 0; k < f->nvars; k++) {
    wv[k] = work + (size_t)k * (size_t)n;
    for (int64_t i = 0; i < n; i++) wv[k][i] = half_at(dt, v[k], i);
  }
  float* wg = work + (size_t)f->nvars * (size_t)n;
  for (int64_t i = 0; i < n; i++) wg[i] = half_at(dt, g, i);
  f->f32((void* const*)wv, wg, n, s, flag);
  for (int k = 0; k < f->nvars; k++)
    for (int64_t i = 0; i < n; i++) half_store(dt, v[k], i, wv[k][i]);
}

/* Applies f: dense over every element, sparse row by row in index order (a row named twice
 * is updated twice, in turn). 0 + status when the 16-bit work buffer cannot be allocated. */
static int update(mt_kernel_ctx* ctx, const formula* f, const upd_vars* u, const TF_Tensor* grad,
                  const TF_Tensor* ind, int64_t inner, const double* s, int flag) {
  const TF_DataType dt = grad->dtype;
  const upd_fn fn = dt == TF_DOUBLE ? f->f64 : f->f32;
  const size_t es = TF_DataTypeSize(dt);
  const int64_t run = ind ? inner : mt_tensor_nelems(grad);
  float* work = NULL;
  if (is_half(dt)) {
    work = mt_malloc(sizeof(float) * (size_t)(f->nvars + 1) * (size_t)(run > 0 ? run : 1),
                     ctx->status);
    if (!work) return 0;
  }
  void* base[MAX_VARS];
  for (int i = 0; i < f->nvars; i++) base[i] = mt_tensor_data(u->v[i]->value);
  const int64_t nrows = ind ? ind->dims[0] : 1;
  const char* g = mt_tensor_data(grad);
  for (int64_t k = 0; k < nrows; k++) {
    void* rows[MAX_VARS];
    const size_t off = ind ? (size_t)index_at(ind, k) * (size_t)inner * es : 0;
    for (int i = 0; i < f->nvars; i++) rows[i] = (char*)base[i] + off;
    const char* gk = g + (size_t)k * (size_t)run * es;
    if (work) update_half(f, dt, rows, gk, run, s, flag, work);
    else fn(rows, gk, run, s, flag);
  }
  free(work);
  return 1;
}

static void run_apply(mt_kernel_ctx* ctx, const formula* f, int mode) {
  const int ref = mode & M_REF;
  int gi = input_index(ctx, "grad");
  if (gi < 0) gi = input_index(ctx, "delta");
  const TF_Tensor* grad = ctx->inputs[gi];
  const TF_Tensor* ind = (mode & M_SPARSE) ? ctx->inputs[input_index(ctx, "indices")] : NULL;
  if (grad->dtype != TF_FLOAT && grad->dtype != TF_DOUBLE && !is_half(grad->dtype)) {
    mt_status_setf(ctx->status, TF_UNIMPLEMENTED,
                   "%s is implemented for half, bfloat16, float and double, not %s",
                   ctx->op->op_type, mt_dtype_name(grad->dtype));
    return;
  }
  int sidx[MAX_SCALARS], ns = 0;
  double s[MAX_SCALARS];
  for (; ns < MAX_SCALARS && f->scalars[ns]; ns++) sidx[ns] = input_index(ctx, f->scalars[ns]);
  upd_vars u;
  if (!lock_vars(ctx, f->nvars, ref, grad->dtype, &u)) return;
  int64_t inner = 0;
  int ok = validate(ctx, f, &u, sidx, ns, gi, ind, &inner);
  for (int i = 0; ok && i < f->nvars; i++) ok = mt_var_make_unique(u.v[i], ctx->status);
  if (ok) {
    for (int k = 0; k < ns; k++) s[k] = scalar_value(ctx->inputs[sidx[k]]);
    const int flag = f->flag_attr ? mt_op_attr_bool(ctx->op, f->flag_attr, f->flag_default) : 0;
    ok = update(ctx, f, &u, grad, ind, inner, s, flag);
  }
  unlock_all(&u);
  if (ok && ref) mt_ctx_set_shared(ctx, 0, ctx->inputs[0]);
}

/* The kernels of one formula: Apply / ResourceApply, and SparseApply / ResourceSparseApply. */
#define APPLY_KERNEL(NAME, FORMULA_, MODE) \
  static void NAME(mt_kernel_ctx* ctx) { run_apply(ctx, &FORMULA_, MODE); }
#define DENSE_KERNELS(NAME, FORMULA_)        \
  APPLY_KERNEL(NAME##_ref, FORMULA_, M_REF) \
  APPLY_KERNEL(NAME##_res, FORMULA_, M_RESOURCE)
#define SPARSE_KERNELS(NAME, FORMULA_)                           \
  APPLY_KERNEL(NAME##_sparse_ref, FORMULA_, M_REF | M_SPARSE)    \
  APPLY_KERNEL(NAME##_sparse_res, FORMULA_, M_RESOURCE | M_SPARSE)
#define ALL_KERNELS(NAME, FORMULA_) DENSE_KERNELS(NAME, FORMULA_) SPARSE_KERNELS(NAME, FORMULA_)
DENSE_KERNELS(gd, F_GD)
ALL_KERNELS(proximal_gd, F_PROXIMAL_GD)
ALL_KERNELS(adadelta, F_ADADELTA)
ALL_KERNELS(adagrad, F_ADAGRAD)
ALL_KERNELS(adagrad_v2, F_ADAGRAD_V2)
ALL_KERNELS(proximal_adagrad, F_PROXIMAL_ADAGRAD)
ALL_KERNELS(adagrad_da, F_ADAGRAD_DA)
ALL_KERNELS(ftrl, F_FTRL)
ALL_KERNELS(ftrl_v2, F_FTRL_V2)
ALL_KERNELS(momentum, F_MOMENTUM)
APPLY_KERNEL(keras_momentum_res, F_KERAS_MOMENTUM, M_RESOURCE)
APPLY_KERNEL(keras_momentum_sparse_res, F_KERAS_MOMENTUM, M_RESOURCE | M_SPARSE)
DENSE_KERNELS(adam, F_ADAM)
APPLY_KERNEL(adam_amsgrad_res, F_ADAM_AMSGRAD, M_RESOURCE)
DENSE_KERNELS(ada_max, F_ADA_MAX)
ALL_KERNELS(rms_prop, F_RMS_PROP)
ALL_KERNELS(centered_rms_prop, F_CENTERED_RMS_PROP)
DENSE_KERNELS(add_sign, F_ADD_SIGN)
DENSE_KERNELS(power_sign, F_POWER_SIGN)

/* ---- shape function: TensorFlow's checks at graph construction ---- */

/* The variable shape behind resource input i when its handle comes (through Identity) from a
 * VarHandleOp with a shape attr; unknown otherwise. */
static mt_shape handle_shape(const mt_shape_ctx* ctx, int i) {
  mt_shape unknown = {.rank = -1};
  const TF_Operation* op = ctx->op->inputs[i].oper;
  while (op && strcmp(op->op_type, "Identity") == 0 && op->ninputs == 1) op = op->inputs[0].oper;
  if (!op || strcmp(op->op_type, "VarHandleOp") != 0) return unknown;
  const mt_attr_value* v = mt_op_attr(op, "shape");
  return v && v->kind == MT_ATTR_SHAPE && !v->is_list ? v->v.shape : unknown;
}

/* var, slots and grad agree (sparse: grad is [len(indices)] + var.shape[1:]); the scalars are
 * scalars; a ref form's output has var's shape. Errors are ValueError at construction in
 * Python, InvalidArgument from TF_FinishOperation. */
static void apply_shape(mt_shape_ctx* ctx) {
  const mt_op_def* def = ctx->op->def;
  int nvars = 0;
  while (nvars < def->ninputs && (def->inputs[nvars].is_ref ||
                                  def->inputs[nvars].type == TF_RESOURCE))
    nvars++;
  const int ref = nvars > 0 && def->inputs[0].is_ref;
  mt_shape var = ref ? ctx->in[0] : handle_shape(ctx, 0);
  for (int i = 1; i < nvars; i++) {
    mt_shape slot = ref ? ctx->in[i] : handle_shape(ctx, i);
    if (!mt_merge_shape(ctx, &var, &slot, &var)) return;
  }
  int gi = -1, ii = -1;
  for (int i = nvars; i < def->ninputs; i++) {
    const char* n = def->inputs[i].name;
    if (strcmp(n, "grad") == 0 || strcmp(n, "delta") == 0) gi = i;
    else if (strcmp(n, "indices") == 0) ii = i;
    else if (strcmp(n, "global_step") != 0 && !mt_shape_with_rank(ctx, i, 0)) return;
  }
  if (gi >= 0 && ii < 0) {
    if (!mt_merge_shape(ctx, &var, &ctx->in[gi], &var)) return;
  } else if (gi >= 0) {
    if (!mt_shape_with_rank(ctx, ii, 1) || !mt_shape_with_rank_at_least(ctx, gi, 1)) return;
    const mt_shape* g = &ctx->in[gi];
    int64_t n;
    if (g->rank > 0 && ctx->in[ii].rank == 1 &&
        !mt_merge_dim(ctx, g->dims[0], ctx->in[ii].dims[0], &n))
      return;
    if (g->rank >= 0 && var.rank >= 0) {
      if (g->rank != var.rank) {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "Shapes must be equal rank, but are %d and %d", var.rank, g->rank);
        return;
      }
      for (int d = 1; d < var.rank; d++)
        if (!mt_merge_dim(ctx, var.dims[d], g->dims[d], &var.dims[d])) return;
    }
  }
  if (ctx->noutputs > 0) ctx->out[0] = var;
}

/* ---- OpDefs (TensorFlow 2.21's) ---- */

#define NUMBER                                                                               \
  "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, " \
  "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}"
#define LOCK "; use_locking: bool = false"
#define SPARSE_T NUMBER "; Tindices: {int32, int64}" LOCK
#define OUT "out: Ref(T)"

/* Ref form: var/slots "name: Ref(T)", output out, shape of var. */
#define REF_OP(OPNAME, INPUTS, ATTRS, KERNEL)                                                 \
  {.name = OPNAME, .inputs = INPUTS, .outputs = OUT, .attrs = ATTRS,                         \
   .shape = apply_shape, .kernel = KERNEL}
#define RES_OP(OPNAME, INPUTS, ATTRS, KERNEL) \
  {.name = OPNAME, .inputs = INPUTS, .attrs = ATTRS, .shape = apply_shape, .kernel = KERNEL, \
   .flags = MT_OP_STATEFUL}

static const mt_op_spec training_specs[] = {
    /* GradientDescent */
    REF_OP("ApplyGradientDescent", "var: Ref(T), alpha: T, delta: T", NUMBER LOCK, gd_ref),
    RES_OP("ResourceApplyGradientDescent", "var: resource, alpha: T, delta: T", NUMBER LOCK,
           gd_res),
    /* ProximalGradientDescent */
    REF_OP("ApplyProximalGradientDescent", "var: Ref(T), alpha: T, l1: T, l2: T, delta: T",
           NUMBER LOCK, proximal_gd_ref),
    RES_OP("ResourceApplyProximalGradientDescent",
           "var: resource, alpha: T, l1: T, l2: T, delta: T", NUMBER LOCK, proximal_gd_res),
    REF_OP("SparseApplyProximalGradientDescent",
           "var: Ref(T), alpha: T, l1: T, l2: T, grad: T, indices: Tindices", SPARSE_T,
           proximal_gd_sparse_ref),
    RES_OP("ResourceSparseApplyProximalGradientDescent",
           "var: resource, alpha: T, l1: T, l2: T, grad: T, indices: Tindices", SPARSE_T,
           proximal_gd_sparse_res),
    /* Adadelta */
    REF_OP("ApplyAdadelta",
           "var: Ref(T), accum: Ref(T), accum_update: Ref(T), lr: T, rho: T, epsilon: T, grad: T",
           NUMBER LOCK, adadelta_ref),
    RES_OP("ResourceApplyAdadelta",
           "var: resource, accum: resource, accum_update: resource, lr: T, rho: T, epsilon: T, "
           "grad: T",
           NUMBER LOCK, adadelta_res),
    REF_OP("SparseApplyAdadelta",
           "var: Ref(T), accum: Ref(T), accum_update: Ref(T), lr: T, rho: T, epsilon: T, grad: T, "
           "indices: Tindices",
           SPARSE_T, adadelta_sparse_ref),
    RES_OP("ResourceSparseApplyAdadelta",
           "var: resource, accum: resource, accum_update: resource, lr: T, rho: T, epsilon: T, "
           "grad: T, indices: Tindices",
           SPARSE_T, adadelta_sparse_res),
    /* Adagrad */
    REF_OP("ApplyAdagrad", "var: Ref(T), accum: Ref(T), lr: T, grad: T",
           NUMBER LOCK "; update_slots: bool = true", adagrad_ref),
    RES_OP("ResourceApplyAdagrad", "var: resource, accum: resource, lr: T, grad: T",
           NUMBER LOCK "; update_slots: bool = true", adagrad_res),
    REF_OP("SparseApplyAdagrad", "var: Ref(T), accum: Ref(T), lr: T, grad: T, indices: Tindices",
           SPARSE_T "; update_slots: bool = true", adagrad_sparse_ref),
    RES_OP("ResourceSparseApplyAdagrad",
           "var: resource, accum: resource, lr: T, grad: T, indices: Tindices",
           SPARSE_T "; update_slots: bool = true", adagrad_sparse_res),
    /* AdagradV2 */
    REF_OP("ApplyAdagradV2", "var: Ref(T), accum: Ref(T), lr: T, epsilon: T, grad: T",
           NUMBER LOCK "; update_slots: bool = true", adagrad_v2_ref),
    RES_OP("ResourceApplyAdagradV2", "var: resource, accum: resource, lr: T, epsilon: T, grad: T",
           NUMBER LOCK "; update_slots: bool = true", adagrad_v2_res),
    REF_OP("SparseApplyAdagradV2",
           "var: Ref(T), accum: Ref(T), lr: T, epsilon: T, grad: T, indices: Tindices",
           SPARSE_T "; update_slots: bool = true", adagrad_v2_sparse_ref),
    RES_OP("ResourceSparseApplyAdagradV2",
           "var: resource, accum: resource, lr: T, epsilon: T, grad: T, indices: Tindices",
           SPARSE_T "; update_slots: bool = true", adagrad_v2_sparse_res),
    /* ProximalAdagrad */
    REF_OP("ApplyProximalAdagrad", "var: Ref(T), accum: Ref(T), lr: T, l1: T, l2: T, grad: T",
           NUMBER LOCK, proximal_adagrad_ref),
    RES_OP("ResourceApplyProximalAdagrad",
           "var: resource, accum: resource, lr: T, l1: T, l2: T, grad: T", NUMBER LOCK,
           proximal_adagrad_res),
    REF_OP("SparseApplyProximalAdagrad",
           "var: Ref(T), accum: Ref(T), lr: T, l1: T, l2: T, grad: T, indices: Tindices", SPARSE_T,
           proximal_adagrad_sparse_ref),
    RES_OP("ResourceSparseApplyProximalAdagrad",
           "var: resource, accum: resource, lr: T, l1: T, l2: T, grad: T, indices: Tindices",
           SPARSE_T, proximal_adagrad_sparse_res),
    /* AdagradDA */
    REF_OP("ApplyAdagradDA",
           "var: Ref(T), gradient_accumulator: Ref(T), gradient_squared_accumulator: Ref(T), "
           "grad: T, lr: T, l1: T, l2: T, global_step: int64",
           NUMBER LOCK, adagrad_da_ref),
    RES_OP("ResourceApplyAdagradDA",
           "var: resource, gradient_accumulator: resource, gradient_squared_accumulator: resource,"
           " grad: T, lr: T, l1: T, l2: T, global_step: int64",
           NUMBER LOCK, adagrad_da_res),
    REF_OP("SparseApplyAdagradDA",
           "var: Ref(T), gradient_accumulator: Ref(T), gradient_squared_accumulator: Ref(T), "
           "grad: T, indices: Tindices, lr: T, l1: T, l2: T, global_step: int64",
           SPARSE_T, adagrad_da_sparse_ref),
    RES_OP("ResourceSparseApplyAdagradDA",
           "var: resource, gradient_accumulator: resource, gradient_squared_accumulator: resource,"
           " grad: T, indices: Tindices, lr: T, l1: T, l2: T, global_step: int64",
           SPARSE_T, adagrad_da_sparse_res),
    /* Ftrl */
    REF_OP("ApplyFtrl",
           "var: Ref(T), accum: Ref(T), linear: Ref(T), grad: T, lr: T, l1: T, l2: T, lr_power: T",
           NUMBER LOCK "; multiply_linear_by_lr: bool = false", ftrl_ref),
    RES_OP("ResourceApplyFtrl",
           "var: resource, accum: resource, linear: resource, grad: T, lr: T, l1: T, l2: T, "
           "lr_power: T",
           NUMBER LOCK "; multiply_linear_by_lr: bool = false", ftrl_res),
    REF_OP("SparseApplyFtrl",
           "var: Ref(T), accum: Ref(T), linear: Ref(T), grad: T, indices: Tindices, lr: T, l1: T, "
           "l2: T, lr_power: T",
           SPARSE_T "; multiply_linear_by_lr: bool = false", ftrl_sparse_ref),
    RES_OP("ResourceSparseApplyFtrl",
           "var: resource, accum: resource, linear: resource, grad: T, indices: Tindices, lr: T, "
           "l1: T, l2: T, lr_power: T",
           SPARSE_T "; multiply_linear_by_lr: bool = false", ftrl_sparse_res),
    /* FtrlV2 */
    REF_OP("ApplyFtrlV2",
           "var: Ref(T), accum: Ref(T), linear: Ref(T), grad: T, lr: T, l1: T, l2: T, "
           "l2_shrinkage: T, lr_power: T",
           NUMBER LOCK "; multiply_linear_by_lr: bool = false", ftrl_v2_ref),
    RES_OP("ResourceApplyFtrlV2",
           "var: resource, accum: resource, linear: resource, grad: T, lr: T, l1: T, l2: T, "
           "l2_shrinkage: T, lr_power: T",
           NUMBER LOCK "; multiply_linear_by_lr: bool = false", ftrl_v2_res),
    REF_OP("SparseApplyFtrlV2",
           "var: Ref(T), accum: Ref(T), linear: Ref(T), grad: T, indices: Tindices, lr: T, l1: T, "
           "l2: T, l2_shrinkage: T, lr_power: T",
           SPARSE_T "; multiply_linear_by_lr: bool = false", ftrl_v2_sparse_ref),
    RES_OP("ResourceSparseApplyFtrlV2",
           "var: resource, accum: resource, linear: resource, grad: T, indices: Tindices, lr: T, "
           "l1: T, l2: T, l2_shrinkage: T, lr_power: T",
           SPARSE_T "; multiply_linear_by_lr: bool = false", ftrl_v2_sparse_res),
    /* Momentum */
    REF_OP("ApplyMomentum", "var: Ref(T), accum: Ref(T), lr: T, grad: T, momentum: T",
           NUMBER LOCK "; use_nesterov: bool = false", momentum_ref),
    RES_OP("ResourceApplyMomentum", "var: resource, accum: resource, lr: T, grad: T, momentum: T",
           NUMBER LOCK "; use_nesterov: bool = false", momentum_res),
    REF_OP("SparseApplyMomentum",
           "var: Ref(T), accum: Ref(T), lr: T, grad: T, indices: Tindices, momentum: T",
           SPARSE_T "; use_nesterov: bool = false", momentum_sparse_ref),
    RES_OP("ResourceSparseApplyMomentum",
           "var: resource, accum: resource, lr: T, grad: T, indices: Tindices, momentum: T",
           SPARSE_T "; use_nesterov: bool = false", momentum_sparse_res),
    /* KerasMomentum (resource only, as TensorFlow) */
    RES_OP("ResourceApplyKerasMomentum",
           "var: resource, accum: resource, lr: T, grad: T, momentum: T",
           NUMBER LOCK "; use_nesterov: bool = false", keras_momentum_res),
    RES_OP("ResourceSparseApplyKerasMomentum",
           "var: resource, accum: resource, lr: T, grad: T, indices: Tindices, momentum: T",
           SPARSE_T "; use_nesterov: bool = false", keras_momentum_sparse_res),
    /* Adam, AdamWithAmsgrad (resource only), AdaMax */
    REF_OP("ApplyAdam",
           "var: Ref(T), m: Ref(T), v: Ref(T), beta1_power: T, beta2_power: T, lr: T, beta1: T, "
           "beta2: T, epsilon: T, grad: T",
           NUMBER LOCK "; use_nesterov: bool = false", adam_ref),
    RES_OP("ResourceApplyAdam",
           "var: resource, m: resource, v: resource, beta1_power: T, beta2_power: T, lr: T, "
           "beta1: T, beta2: T, epsilon: T, grad: T",
           NUMBER LOCK "; use_nesterov: bool = false", adam_res),
    RES_OP("ResourceApplyAdamWithAmsgrad",
           "var: resource, m: resource, v: resource, vhat: resource, beta1_power: T, "
           "beta2_power: T, lr: T, beta1: T, beta2: T, epsilon: T, grad: T",
           NUMBER LOCK, adam_amsgrad_res),
    REF_OP("ApplyAdaMax",
           "var: Ref(T), m: Ref(T), v: Ref(T), beta1_power: T, lr: T, beta1: T, beta2: T, "
           "epsilon: T, grad: T",
           NUMBER LOCK, ada_max_ref),
    RES_OP("ResourceApplyAdaMax",
           "var: resource, m: resource, v: resource, beta1_power: T, lr: T, beta1: T, beta2: T, "
           "epsilon: T, grad: T",
           NUMBER LOCK, ada_max_res),
    /* RMSProp, CenteredRMSProp */
    REF_OP("ApplyRMSProp",
           "var: Ref(T), ms: Ref(T), mom: Ref(T), lr: T, rho: T, momentum: T, epsilon: T, grad: T",
           NUMBER LOCK, rms_prop_ref),
    RES_OP("ResourceApplyRMSProp",
           "var: resource, ms: resource, mom: resource, lr: T, rho: T, momentum: T, epsilon: T, "
           "grad: T",
           NUMBER LOCK, rms_prop_res),
    REF_OP("SparseApplyRMSProp",
           "var: Ref(T), ms: Ref(T), mom: Ref(T), lr: T, rho: T, momentum: T, epsilon: T, grad: T, "
           "indices: Tindices",
           SPARSE_T, rms_prop_sparse_ref),
    RES_OP("ResourceSparseApplyRMSProp",
           "var: resource, ms: resource, mom: resource, lr: T, rho: T, momentum: T, epsilon: T, "
           "grad: T, indices: Tindices",
           SPARSE_T, rms_prop_sparse_res),
    REF_OP("ApplyCenteredRMSProp",
           "var: Ref(T), mg: Ref(T), ms: Ref(T), mom: Ref(T), lr: T, rho: T, momentum: T, "
           "epsilon: T, grad: T",
           NUMBER LOCK, centered_rms_prop_ref),
    RES_OP("ResourceApplyCenteredRMSProp",
           "var: resource, mg: resource, ms: resource, mom: resource, lr: T, rho: T, momentum: T,"
           " epsilon: T, grad: T",
           NUMBER LOCK, centered_rms_prop_res),
    REF_OP("SparseApplyCenteredRMSProp",
           "var: Ref(T), mg: Ref(T), ms: Ref(T), mom: Ref(T), lr: T, rho: T, momentum: T, "
           "epsilon: T, grad: T, indices: Tindices",
           SPARSE_T, centered_rms_prop_sparse_ref),
    RES_OP("ResourceSparseApplyCenteredRMSProp",
           "var: resource, mg: resource, ms: resource, mom: resource, lr: T, rho: T, momentum: T,"
           " epsilon: T, grad: T, indices: Tindices",
           SPARSE_T, centered_rms_prop_sparse_res),
    /* AddSign, PowerSign */
    REF_OP("ApplyAddSign",
           "var: Ref(T), m: Ref(T), lr: T, alpha: T, sign_decay: T, beta: T, grad: T", NUMBER LOCK,
           add_sign_ref),
    RES_OP("ResourceApplyAddSign",
           "var: resource, m: resource, lr: T, alpha: T, sign_decay: T, beta: T, grad: T",
           NUMBER LOCK, add_sign_res),
    REF_OP("ApplyPowerSign",
           "var: Ref(T), m: Ref(T), lr: T, logbase: T, sign_decay: T, beta: T, grad: T",
           NUMBER LOCK, power_sign_ref),
    RES_OP("ResourceApplyPowerSign",
           "var: resource, m: resource, lr: T, logbase: T, sign_decay: T, beta: T, grad: T",
           NUMBER LOCK, power_sign_res),
};

void mt_register_training_ops(void) {
  mt_register_ops(training_specs, (int)(sizeof training_specs / sizeof training_specs[0]));
}
