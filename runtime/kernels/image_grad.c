/* Gradients of the image family (runtime/gradient.h), node for node as
 * TensorFlow 2.21's image_grad.py: ResizeBilinear through the
 * ResizeBilinearGrad kernel, ResizeNearestNeighbor through
 * ResizeNearestNeighborGrad; ResizeBilinearGrad, DrawBoundingBoxes and the first
 * NonMaxSuppression versions have none (TensorFlow's NotDifferentiable). */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/grad_util.h"

static void copy_resize_attrs(mt_gnode* n) {
  mt_g_copy_attr(n, "align_corners");
  mt_g_copy_attr(n, "half_pixel_centers");
}

static void resize_bilinear_grad(mt_grad_ctx* g) {
  mt_gnode n = mt_g_begin(g, "ResizeBilinearGrad", NULL);
  mt_g_in(&n, g->dy[0]);
  mt_g_in(&n, mt_g_x(g, 0));
  copy_resize_attrs(&n);
  g->dx[0] = mt_g_end0(&n);
}

/* The image's height and width: a Const "<node>/size" when static, else
 * Shape(image)[1:3]. */
static void resize_nearest_grad(mt_grad_ctx* g) {
  TF_Output image = mt_g_x(g, 0);
  const mt_shape* s = mt_g_static_shape(image);
  const int known = s->rank >= 3 && s->dims[1] >= 0 && s->dims[2] >= 0;
  TF_Output size = {NULL, 0};
  if (!known) {
    int32_t b = 1, e = 3, st = 1;
    size = mt_gu_strided_slice(g, mt_g_shape(g, image), &b, &e, &st, 1, 0, 0, 0);
  }
  mt_gnode n = mt_g_begin(g, "ResizeNearestNeighborGrad", NULL);
  mt_g_in(&n, g->dy[0]);
  if (known) {
    const int32_t hw[2] = {(int32_t)s->dims[1], (int32_t)s->dims[2]};
    mt_g_in_const_i32(&n, "size", hw, 2, 1);
  } else {
    mt_g_in(&n, size);
  }
  copy_resize_attrs(&n);
  g->dx[0] = mt_g_end0(&n);
}

static const mt_grad_spec image_grads[] = {
    {"ResizeBilinear", resize_bilinear_grad},
    {"ResizeNearestNeighbor", resize_nearest_grad},
    {"ResizeBilinearGrad", NULL},
    /* not differentiable in TensorFlow (ops.NotDifferentiable) */
    {"DrawBoundingBoxes", NULL},
    {"NonMaxSuppression", NULL},
    {"NonMaxSuppressionV2", NULL},
    {"NonMaxSuppressionWithOverlaps", NULL},
};

void mt_register_image_grads(void) {
  mt_register_gradients(image_grads, (int)(sizeof image_grads / sizeof image_grads[0]));
}
