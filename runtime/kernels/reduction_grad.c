/* Gradients of the reductions (runtime/gradient.h), node for node as TensorFlow 2.21's
 * math_grad.py: Sum and Mean. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

#include <string.h>

/* The reduction axes as int64 when they are a Const; -1 otherwise. */
static int const_axes(TF_Output axes, int64_t* out, int cap) {
  const TF_Tensor* t = mt_g_const_value(axes);
  if (!t || t->ndims > 1) return -1;
  int64_t n = mt_tensor_nelems(t);
  if (n > cap) return -1;
  for (int64_t i = 0; i < n; i++)
    out[i] = t->dtype == TF_INT64 ? ((const int64_t*)mt_tensor_data(t))[i]
                                  : ((const int32_t*)mt_tensor_data(t))[i];
  return (int)n;
}

static TF_Output tile(mt_grad_ctx* g, TF_Output x, TF_Output multiples) {
  return mt_g_binary(g, "Tile", x, multiples);
}

/* TensorFlow's _SumGrad: a Reshape to the kept-dims shape and a Tile back to the input's. */
static TF_Output sum_grad_of(mt_grad_ctx* g) {
  TF_Output x = mt_g_x(g, 0), grad = g->dy[0];
  const mt_shape* xs = mt_g_static_shape(x);
  int64_t axes[MT_MAX_DIMS + 1];
  int nax = xs->rank >= 0 ? const_axes(mt_g_x(g, 1), axes, MT_MAX_DIMS + 1) : -1;
  if (nax >= 0) {
    int all = nax == xs->rank;
    for (int i = 0; all && i < nax; i++) all = axes[i] == i;
    if (all) { /* every dim reduced, in order */
      int32_t ones[MT_MAX_DIMS];
      for (int i = 0; i < xs->rank; i++) ones[i] = 1;
      mt_gnode r = mt_g_begin(g, "Reshape", NULL);
      mt_g_in(&r, grad);
      mt_g_in_const_i32(&r, "shape", ones, xs->rank, 1);
      TF_Output reshaped = mt_g_end0(&r);
      TF_Output shape;
      if (mt_g_fully_defined(xs)) {
        int32_t dims[MT_MAX_DIMS];
        for (int i = 0; i < xs->rank; i++) dims[i] = (int32_t)xs->dims[i];
        shape = mt_g_const_i32(g, dims, xs->rank, 1, "Const");
      } else {
        mt_gnode s = mt_g_begin(g, "Shape", NULL);
        mt_g_in(&s, x);
        mt_g_attr_type(&s, "out_type", TF_INT32);
        shape = mt_g_end0(&s);
      }
      return tile(g, reshaped, shape);
    }
    if (mt_g_fully_defined(xs)) { /* static kept-dims shape and tile multiples */
      int32_t kept[MT_MAX_DIMS], mult[MT_MAX_DIMS];
      for (int i = 0; i < xs->rank; i++) kept[i] = (int32_t)xs->dims[i];
      for (int i = 0; i < nax; i++) {
        int64_t a = axes[i] < 0 ? axes[i] + xs->rank : axes[i];
        if (a < 0 || a >= xs->rank) {
          mt_status_setf(g->status, TF_INVALID_ARGUMENT, "Invalid reduction axis %lld for %s",
                         (long long)axes[i], g->op->name);
          return (TF_Output){NULL, 0};
        }
        kept[a] = 1;
      }
      for (int i = 0; i < xs->rank; i++) mult[i] = kept[i] ? (int32_t)xs->dims[i] / kept[i] : 0;
      mt_gnode r = mt_g_begin(g, "Reshape", NULL);
      mt_g_in(&r, grad);
      mt_g_in_const_i32(&r, "shape", kept, xs->rank, 1);
      TF_Output reshaped = mt_g_end0(&r);
      mt_gnode t = mt_g_begin(g, "Tile", NULL);
      mt_g_in(&t, reshaped);
      mt_g_in_const_i32(&t, "multiples", mult, xs->rank, 1);
      return mt_g_end0(&t);
    }
  }
  if (mt_op_attr_bool(g->op, "keep_dims", 0)) {
    TF_Output shape = mt_g_shape(g, x);
    return mt_g_binary(g, "BroadcastTo", grad, shape);
  }
  mt_status_setf(g->status, TF_UNIMPLEMENTED,
                 "gradient of %s (%s): reductions over axes only known at run time of a tensor "
                 "whose shape is not fully known are not supported yet",
                 g->op->name, g->op->op_type);
  return (TF_Output){NULL, 0};
}

static void sum_grad(mt_grad_ctx* g) { g->dx[0] = sum_grad_of(g); }

static int64_t num_elements(const mt_shape* s) {
  int64_t n = 1;
  for (int i = 0; i < s->rank; i++) n *= s->dims[i];
  return n;
}

/* TensorFlow's _MeanGrad: the Sum gradient divided by the number of elements averaged. */
static void mean_grad(mt_grad_ctx* g) {
  TF_Output sum = sum_grad_of(g);
  if (!sum.oper) return;
  const mt_shape* xs = mt_g_static_shape(mt_g_x(g, 0));
  const mt_shape* ys = mt_g_static_shape(mt_g_y(g, 0));
  TF_Output factor;
  if (mt_g_fully_defined(xs) && mt_g_fully_defined(ys)) {
    int64_t out = num_elements(ys);
    double f = (double)(num_elements(xs) / (out > 1 ? out : 1));
    factor = mt_g_const(g, mt_g_dtype(sum), NULL, 0, &f, "Const");
  } else {
    TF_Output shape = mt_g_shape(g, mt_g_x(g, 0));
    int32_t rank = xs->rank;
    TF_Output size = xs->rank >= 0 ? mt_g_const_i32(g, &rank, 1, 0, "Size")
                                   : mt_g_unary(g, "Size", shape);
    TF_Output axes = mt_g_x(g, 1);
    if (mt_g_dtype(axes) != TF_INT32) {
      mt_gnode c = mt_g_begin(g, "Cast", NULL);
      mt_g_in(&c, axes);
      mt_g_attr_type(&c, "DstT", TF_INT32);
      axes = mt_g_end0(&c);
    }
    mt_gnode a = mt_g_begin(g, "AddV2", "add");
    mt_g_in(&a, axes);
    mt_g_in(&a, size);
    TF_Output shifted = mt_g_end0(&a);
    mt_gnode m = mt_g_begin(g, "FloorMod", "mod");
    mt_g_in(&m, shifted);
    mt_g_in(&m, size);
    TF_Output canon = mt_g_end0(&m);
    mt_gnode gv = mt_g_begin(g, "GatherV2", NULL);
    mt_g_in(&gv, shape);
    mt_g_in(&gv, canon);
    int32_t zero = 0;
    mt_g_in_const_i32(&gv, "axis", &zero, 1, 0);
    mt_g_attr_int(&gv, "batch_dims", 0);
    TF_Output dims = mt_g_end0(&gv);
    int32_t ax0 = 0;
    TF_Output all = mt_g_const_i32(g, &ax0, 1, 1, "Const");
    mt_gnode p = mt_g_begin(g, "Prod", NULL);
    mt_g_in(&p, dims);
    mt_g_in(&p, all);
    mt_g_attr_bool(&p, "keep_dims", 0);
    TF_Output count = mt_g_end0(&p);
    mt_gnode c = mt_g_begin(g, "Cast", NULL);
    mt_g_in(&c, count);
    mt_g_attr_type(&c, "DstT", mt_g_dtype(sum));
    factor = mt_g_end0(&c);
  }
  mt_gnode d = mt_g_begin(g, "RealDiv", "truediv");
  mt_g_in(&d, sum);
  mt_g_in(&d, factor);
  g->dx[0] = mt_g_end0(&d);
}

static const mt_grad_spec reduction_grads[] = {
    {"Sum", sum_grad},
    {"Mean", mean_grad},
    {"ArgMax", NULL},
    {"ArgMin", NULL},
};

void mt_register_reduction_grads(void) {
  mt_register_gradients(reduction_grads, (int)(sizeof reduction_grads / sizeof reduction_grads[0]));
}
