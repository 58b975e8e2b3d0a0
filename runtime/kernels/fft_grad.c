/* Gradients of the FFT family (runtime/gradient.h), node for node as TensorFlow 2.21's
 * signal/fft_ops.py: FFT's is n IFFT(grad), IFFT's FFT(grad) / n (2D, 3D alike, n the
 * product of the transformed lengths of grad). RFFT/IRFFT and the ND forms have no
 * gradient in TensorFlow either. */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/array_grad_util.h"

static TF_DataType real_of(TF_DataType c) { return c == TF_COMPLEX128 ? TF_DOUBLE : TF_FLOAT; }

/* _fft_size_for_grad: reduce_prod(shape(grad)[-rank:]) (int32). */
static TF_Output fft_size(mt_grad_ctx* g, int rank) {
  TF_Output sh = gu_shape(g, g->dy[0], TF_INT32);
  TF_Output tail = gu_getitem(g, sh, 0, 1, gu_i(-rank), 0, gu_i(0));
  int32_t zero = 0;
  TF_Output axes = mt_g_const_i32(g, &zero, 1, 1, "Const");
  mt_gnode p = mt_g_begin(g, "Prod", NULL);
  mt_g_in(&p, tail);
  mt_g_in(&p, axes);
  mt_g_attr_bool(&p, "keep_dims", 0);
  return mt_g_end0(&p);
}

static TF_Output cast(mt_grad_ctx* g, TF_Output x, TF_DataType dt) {
  mt_gnode n = mt_g_begin(g, "Cast", NULL);
  mt_g_in(&n, x);
  mt_g_attr_type(&n, "DstT", dt);
  return mt_g_end0(&n);
}

static void fwd_grad(mt_grad_ctx* g, int rank, const char* inverse) {
  TF_DataType dt = mt_g_dtype(g->dy[0]);
  TF_Output size = cast(g, fft_size(g, rank), dt);
  TF_Output t = mt_g_unary(g, inverse, g->dy[0]);
  g->dx[0] = gu_op2(g, "Mul", "mul", t, size);
}

static void inv_grad(mt_grad_ctx* g, int rank, const char* forward) {
  TF_DataType dt = mt_g_dtype(g->dy[0]);
  TF_Output size = cast(g, fft_size(g, rank), real_of(dt));
  TF_Output r = gu_binop(g, "RealDiv", "truediv", gu_i(1), gu_t(size));
  TF_Output rsize = cast(g, r, dt);
  TF_Output t = mt_g_unary(g, forward, g->dy[0]);
  g->dx[0] = gu_op2(g, "Mul", "mul", t, rsize);
}

static void fft_grad(mt_grad_ctx* g) { fwd_grad(g, 1, "IFFT"); }
static void ifft_grad(mt_grad_ctx* g) { inv_grad(g, 1, "FFT"); }
static void fft2d_grad(mt_grad_ctx* g) { fwd_grad(g, 2, "IFFT2D"); }
static void ifft2d_grad(mt_grad_ctx* g) { inv_grad(g, 2, "FFT2D"); }
static void fft3d_grad(mt_grad_ctx* g) { fwd_grad(g, 3, "IFFT3D"); }
static void ifft3d_grad(mt_grad_ctx* g) { inv_grad(g, 3, "FFT3D"); }

static const mt_grad_spec fft_grads[] = {
    {"FFT", fft_grad},     {"IFFT", ifft_grad},     {"FFT2D", fft2d_grad},
    {"IFFT2D", ifft2d_grad}, {"FFT3D", fft3d_grad}, {"IFFT3D", ifft3d_grad},
};

void mt_register_fft_grads(void) {
  mt_register_gradients(fft_grads, (int)(sizeof fft_grads / sizeof fft_grads[0]));
}
