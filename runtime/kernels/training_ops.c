/* Optimizer update ops (TensorFlow's training_ops): ResourceApply<Optimizer> update resource
 * variables in place, one kernel per optimizer whose update formula is written once per
 * element (`*_step`) and applied over the variable and its slots.
 *
 * Each kernel locks every variable it updates (in address order, so concurrent updates of
 * overlapping variables cannot deadlock), makes their buffers private (copy-on-write, so a
 * value read earlier in the run keeps its contents), checks that the gradient and the slots
 * have the variable's shape (InvalidArgument naming the node, nothing changed), then
 * updates. float and double. */
#include "runtime/kernels/all_ops.h"
#include "runtime/kernel.h"
#include "runtime/resource.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SLOTS 4

typedef struct upd_vars {
  int n;
  mt_var* v[MAX_SLOTS];
} upd_vars;

static int cmp_ptr(const void* a, const void* b) {
  uintptr_t x = (uintptr_t) * (mt_var* const*)a, y = (uintptr_t) * (mt_var* const*)b;
  return x < y ? -1 : x > y;
}

static void unlock_all(upd_vars* u) {
  mt_var* order[MAX_SLOTS];
  int n = 0;
  for (int i = 0; i < u->n; i++) {
    int dup = 0;
    for (int k = 0; k < n; k++) dup |= order[k] == u->v[i];
    if (!dup) order[n++] = u->v[i];
  }
  for (int i = 0; i < n; i++) pthread_mutex_unlock(&order[i]->mu);
}

/* Finds the variables behind inputs 0..n-1 and locks them; 0 + status when one is missing or
 * uninitialized, or is not of dtype `dt`. */
static int lock_vars(mt_kernel_ctx* ctx, int n, TF_DataType dt, upd_vars* u) {
  u->n = n;
  if (dt != TF_FLOAT && dt != TF_DOUBLE) {
    mt_status_setf(ctx->status, TF_UNIMPLEMENTED, "%s is implemented for float and double, not %s",
                   ctx->op->op_type, mt_dtype_name(dt));
    return 0;
  }
  for (int i = 0; i < n; i++) {
    const mt_resource_handle* h = mt_resource_get(ctx->inputs[i], ctx->status);
    if (!h) return 0;
    mt_var* v = mt_var_lookup(ctx->state, h, 0);
    if (!v || !mt_var_initialized(ctx->state, h)) {
      char why[1024];
      mt_var_not_found(ctx->state, h, why, sizeof why);
      mt_status_setf(ctx->status, TF_FAILED_PRECONDITION,
                     "Error while reading resource variable %s from Container: %s. This could "
                     "mean that the variable was uninitialized. %s",
                     h->name, h->container, why);
      return 0;
    }
    u->v[i] = v;
  }
  mt_var* order[MAX_SLOTS];
  memcpy(order, u->v, sizeof(mt_var*) * (size_t)n);
  qsort(order, (size_t)n, sizeof(mt_var*), cmp_ptr);
  for (int i = 0; i < n; i++)
    if (i == 0 || order[i] != order[i - 1]) pthread_mutex_lock(&order[i]->mu);
  for (int i = 0; i < n; i++) {
    if (!u->v[i]->value || u->v[i]->value->dtype != dt) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Variable and value dtypes don't match; respectively, %s and %s",
                     mt_dtype_name(u->v[i]->value ? u->v[i]->value->dtype : u->v[i]->dtype),
                     mt_dtype_name(dt));
      unlock_all(u);
      return 0;
    }
  }
  return 1;
}

static int same_shape(const TF_Tensor* a, const TF_Tensor* b) {
  return a->ndims == b->ndims && memcmp(a->dims, b->dims, sizeof(int64_t) * (size_t)a->ndims) == 0;
}

/* Shape checks with TensorFlow's messages, then copy-on-write of each variable. */
static int prepare(mt_kernel_ctx* ctx, upd_vars* u, const TF_Tensor* grad, const char* const* names,
                   const int* scalar_inputs, int nscalars) {
  char a[256], b[256];
  const TF_Tensor* var = u->v[0]->value;
  for (int i = 1; i < u->n; i++) {
    if (!same_shape(var, u->v[i]->value)) {
      mt_dims_str(var->dims, var->ndims, a, sizeof a);
      mt_dims_str(u->v[i]->value->dims, u->v[i]->value->ndims, b, sizeof b);
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "var and %s do not have the same shape%s %s", names[i], a, b);
      return 0;
    }
  }
  for (int k = 0; k < nscalars; k++) {
    const TF_Tensor* t = ctx->inputs[scalar_inputs[k]];
    if (t->ndims != 0) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s is not a scalar: %s",
                     ctx->op->def->inputs[scalar_inputs[k]].name,
                     mt_dims_str(t->dims, t->ndims, a, sizeof a));
      return 0;
    }
  }
  if (!same_shape(var, grad)) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "var and grad do not have the same shape%s %s",
                   mt_dims_str(var->dims, var->ndims, a, sizeof a),
                   mt_dims_str(grad->dims, grad->ndims, b, sizeof b));
    return 0;
  }
  for (int i = 0; i < u->n; i++)
    if (!mt_var_make_unique(u->v[i], ctx->status)) return 0;
  return 1;
}

static double scalar_of(const TF_Tensor* t) {
  return t->dtype == TF_DOUBLE ? *(const double*)mt_tensor_data(t)
                               : (double)*(const float*)mt_tensor_data(t);
}

/* Runs STEP(T, i) over every element for T = float / double. */
#define FOR_EACH_ELEMENT(dt, n, STEP)                 \
  do {                                                \
    if ((dt) == TF_DOUBLE) {                          \
      typedef double T;                               \
      for (int64_t i = 0; i < (n); i++) STEP;         \
    } else {                                          \
      typedef float T;                                \
      for (int64_t i = 0; i < (n); i++) STEP;         \
    }                                                 \
  } while (0)

#define DATA(t) ((T*)mt_tensor_data(t))
#define CDATA(t) ((const T*)mt_tensor_data(t))

/* ---- GradientDescent: var -= alpha * delta ---- */
static void apply_gd_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* delta = ctx->inputs[2];
  upd_vars u;
  if (!lock_vars(ctx, 1, delta->dtype, &u)) return;
  static const char* names[] = {"var"};
  static const int scalars[] = {1};
  if (prepare(ctx, &u, delta, names, scalars, 1)) {
    const double alpha = scalar_of(ctx->inputs[1]);
    TF_Tensor* var = u.v[0]->value;
    FOR_EACH_ELEMENT(delta->dtype, mt_tensor_nelems(var),
                     DATA(var)[i] -= (T)alpha * CDATA(delta)[i]);
  }
  unlock_all(&u);
}

/* ---- Momentum: accum = accum * momentum + grad; var -= lr * accum (Nesterov: var -=
 * lr * grad + lr * momentum * accum) ---- */
static void apply_momentum_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* grad = ctx->inputs[3];
  upd_vars u;
  if (!lock_vars(ctx, 2, grad->dtype, &u)) return;
  static const char* names[] = {"var", "accum"};
  static const int scalars[] = {2, 4};
  if (prepare(ctx, &u, grad, names, scalars, 2)) {
    const double lr = scalar_of(ctx->inputs[2]), mom = scalar_of(ctx->inputs[4]);
    const int nesterov = mt_op_attr_bool(ctx->op, "use_nesterov", 0);
    TF_Tensor *var = u.v[0]->value, *acc = u.v[1]->value;
    FOR_EACH_ELEMENT(grad->dtype, mt_tensor_nelems(var), {
      T a = DATA(acc)[i] * (T)mom + CDATA(grad)[i];
      DATA(acc)[i] = a;
      DATA(var)[i] -= nesterov ? CDATA(grad)[i] * (T)lr + a * (T)mom * (T)lr : a * (T)lr;
    });
  }
  unlock_all(&u);
}

/* ---- Adam (TensorFlow's ApplyAdamNonCuda): lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t);
 * m += (g - m)(1 - beta1); v += (g^2 - v)(1 - beta2); var -= lr_t m / (sqrt(v) + eps)
 * (Nesterov: (g (1 - beta1) + beta1 m) in place of m) ---- */
static void apply_adam_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* grad = ctx->inputs[9];
  upd_vars u;
  if (!lock_vars(ctx, 3, grad->dtype, &u)) return;
  static const char* names[] = {"var", "m", "v"};
  static const int scalars[] = {3, 4, 5, 6, 7, 8};
  if (prepare(ctx, &u, grad, names, scalars, 6)) {
    const double b1p = scalar_of(ctx->inputs[3]), b2p = scalar_of(ctx->inputs[4]);
    const double lr = scalar_of(ctx->inputs[5]), b1 = scalar_of(ctx->inputs[6]);
    const double b2 = scalar_of(ctx->inputs[7]), eps = scalar_of(ctx->inputs[8]);
    const int nesterov = mt_op_attr_bool(ctx->op, "use_nesterov", 0);
    TF_Tensor *var = u.v[0]->value, *m = u.v[1]->value, *v = u.v[2]->value;
    FOR_EACH_ELEMENT(grad->dtype, mt_tensor_nelems(var), {
      const T alpha = (T)lr * (T)sqrt((T)1 - (T)b2p) / ((T)1 - (T)b1p);
      const T g = CDATA(grad)[i];
      T mi = DATA(m)[i] + (g - DATA(m)[i]) * ((T)1 - (T)b1);
      T vi = DATA(v)[i] + (g * g - DATA(v)[i]) * ((T)1 - (T)b2);
      DATA(m)[i] = mi;
      DATA(v)[i] = vi;
      const T num = nesterov ? g * ((T)1 - (T)b1) + (T)b1 * mi : mi;
      DATA(var)[i] -= (num * alpha) / ((T)sqrt(vi) + (T)eps);
    });
  }
  unlock_all(&u);
}

/* ---- Adagrad: accum += g^2 (update_slots); var -= lr g / sqrt(accum) (V2: + epsilon) ---- */
static void adagrad_common(mt_kernel_ctx* ctx, int v2) {
  const TF_Tensor* grad = ctx->inputs[v2 ? 4 : 3];
  upd_vars u;
  if (!lock_vars(ctx, 2, grad->dtype, &u)) return;
  static const char* names[] = {"var", "accum"};
  static const int scalars1[] = {2}, scalars2[] = {2, 3};
  if (prepare(ctx, &u, grad, names, v2 ? scalars2 : scalars1, v2 ? 2 : 1)) {
    const double lr = scalar_of(ctx->inputs[2]);
    const double eps = v2 ? scalar_of(ctx->inputs[3]) : 0.0;
    const int update_slots = mt_op_attr_bool(ctx->op, "update_slots", 1);
    TF_Tensor *var = u.v[0]->value, *acc = u.v[1]->value;
    FOR_EACH_ELEMENT(grad->dtype, mt_tensor_nelems(var), {
      const T g = CDATA(grad)[i];
      if (update_slots) DATA(acc)[i] += g * g;
      DATA(var)[i] -= g * (T)lr / (v2 ? (T)sqrt(DATA(acc)[i]) + (T)eps : (T)sqrt(DATA(acc)[i]));
    });
  }
  unlock_all(&u);
}
static void apply_adagrad_kernel(mt_kernel_ctx* ctx) { adagrad_common(ctx, 0); }
static void apply_adagrad_v2_kernel(mt_kernel_ctx* ctx) { adagrad_common(ctx, 1); }

/* ---- RMSProp: ms = rho ms + (1 - rho) g^2; mom = momentum mom + lr g / sqrt(ms + eps);
 * var -= mom ---- */
static void apply_rms_prop_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* grad = ctx->inputs[7];
  upd_vars u;
  if (!lock_vars(ctx, 3, grad->dtype, &u)) return;
  static const char* names[] = {"var", "ms", "mom"};
  static const int scalars[] = {3, 4, 5, 6};
  if (prepare(ctx, &u, grad, names, scalars, 4)) {
    const double lr = scalar_of(ctx->inputs[3]), rho = scalar_of(ctx->inputs[4]);
    const double momentum = scalar_of(ctx->inputs[5]), eps = scalar_of(ctx->inputs[6]);
    TF_Tensor *var = u.v[0]->value, *ms = u.v[1]->value, *mom = u.v[2]->value;
    FOR_EACH_ELEMENT(grad->dtype, mt_tensor_nelems(var), {
      const T g = CDATA(grad)[i];
      T s = DATA(ms)[i] + (g * g - DATA(ms)[i]) * ((T)1 - (T)rho);
      DATA(ms)[i] = s;
      T m = DATA(mom)[i] * (T)momentum + g * (T)lr / (T)sqrt(s + (T)eps);
      DATA(mom)[i] = m;
      DATA(var)[i] -= m;
    });
  }
  unlock_all(&u);
}

#define FLOATING "T: {half, bfloat16, float, double}"
#define NUMBER                                                                               \
  "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, " \
  "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}"

static const mt_op_spec training_specs[] = {
    {.name = "ResourceApplyGradientDescent", .inputs = "var: resource, alpha: T, delta: T",
     .attrs = NUMBER "; use_locking: bool = false", .kernel = apply_gd_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "ResourceApplyMomentum",
     .inputs = "var: resource, accum: resource, lr: T, grad: T, momentum: T",
     .attrs = NUMBER "; use_locking: bool = false; use_nesterov: bool = false",
     .kernel = apply_momentum_kernel, .flags = MT_OP_STATEFUL},
    {.name = "ResourceApplyAdam",
     .inputs = "var: resource, m: resource, v: resource, beta1_power: T, beta2_power: T, lr: T,"
               " beta1: T, beta2: T, epsilon: T, grad: T",
     .attrs = NUMBER "; use_locking: bool = false; use_nesterov: bool = false",
     .kernel = apply_adam_kernel, .flags = MT_OP_STATEFUL},
    {.name = "ResourceApplyAdagrad", .inputs = "var: resource, accum: resource, lr: T, grad: T",
     .attrs = NUMBER "; use_locking: bool = false; update_slots: bool = true",
     .kernel = apply_adagrad_kernel, .flags = MT_OP_STATEFUL},
    {.name = "ResourceApplyAdagradV2",
     .inputs = "var: resource, accum: resource, lr: T, epsilon: T, grad: T",
     .attrs = NUMBER "; use_locking: bool = false; update_slots: bool = true",
     .kernel = apply_adagrad_v2_kernel, .flags = MT_OP_STATEFUL},
    {.name = "ResourceApplyRMSProp",
     .inputs = "var: resource, ms: resource, mom: resource, lr: T, rho: T, momentum: T,"
               " epsilon: T, grad: T",
     .attrs = NUMBER "; use_locking: bool = false", .kernel = apply_rms_prop_kernel,
     .flags = MT_OP_STATEFUL},
};

void mt_register_training_ops(void) {
  mt_register_ops(training_specs, (int)(sizeof training_specs / sizeof training_specs[0]));
}
