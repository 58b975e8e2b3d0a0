/* Gradients of the space family (runtime/gradient.h), as TensorFlow 2.21's
 * array_grad.py: each rearrangement's gradient is its inverse. */
#include <string.h>

#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/status.h"

/* op_type(grad, block_shape, paddings/crops) with the forward's inputs. */
static void batch_space_grad(mt_grad_ctx* g, const char* op_type) {
  mt_gnode n = mt_g_begin(g, op_type, NULL);
  mt_g_in(&n, g->dy[0]);
  mt_g_in(&n, mt_g_x(g, 1));
  mt_g_in(&n, mt_g_x(g, 2));
  g->dx[0] = mt_g_end0(&n);
}
static void space_to_batch_nd_grad(mt_grad_ctx* g) { batch_space_grad(g, "BatchToSpaceND"); }
static void batch_to_space_nd_grad(mt_grad_ctx* g) { batch_space_grad(g, "SpaceToBatchND"); }

/* op_type(grad, block_size, data_format); NCHW_VECT_C is TensorFlow's
 * ValueError (it needs qint8). */
static void depth_space_grad(mt_grad_ctx* g, const char* op_type) {
  const char* fmt = mt_op_attr_str(g->op, "data_format", "NHWC");
  if (strcmp(fmt, "NCHW_VECT_C") == 0) {
    mt_status_setf(g->status, TF_INVALID_ARGUMENT,
                   "Cannot compute %s gradient with NCHW_VECT_C. NCHW_VECT_C requires qint8 data "
                   "type.",
                   g->op->op_type);
    return;
  }
  mt_gnode n = mt_g_begin(g, op_type, NULL);
  mt_g_in(&n, g->dy[0]);
  mt_g_copy_attr(&n, "block_size");
  mt_g_copy_attr(&n, "data_format");
  g->dx[0] = mt_g_end0(&n);
}
static void space_to_depth_grad(mt_grad_ctx* g) { depth_space_grad(g, "DepthToSpace"); }
static void depth_to_space_grad(mt_grad_ctx* g) { depth_space_grad(g, "SpaceToDepth"); }

static const mt_grad_spec space_grads[] = {
    {"SpaceToBatchND", space_to_batch_nd_grad},
    {"BatchToSpaceND", batch_to_space_nd_grad},
    {"SpaceToDepth", space_to_depth_grad},
    {"DepthToSpace", depth_to_space_grad},
};

void mt_register_space_grads(void) {
  mt_register_gradients(space_grads, (int)(sizeof space_grads / sizeof space_grads[0]));
}
