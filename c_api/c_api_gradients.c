/* Gradients in the C API: TF_AddGradients[WithPrefix] and the per-op entry
 * point tf.gradients uses (MT_AddOpGradient), over runtime/gradient.c. */
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/python_api.h"

#include "runtime/gradient.h"
#include "runtime/status.h"

void TF_AddGradientsWithPrefix(TF_Graph* g, const char* prefix, TF_Output* y, int ny,
                               TF_Output* x, int nx, TF_Output* dx, TF_Status* status,
                               TF_Output* dy) {
  TF_SetStatus(status, TF_OK, NULL);
  if (!g || ny < 0 || nx < 0 || (ny && !y) || (nx && (!x || !dy))) {
    TF_SetStatus(status, TF_INVALID_ARGUMENT, "TF_AddGradients: invalid arguments");
    return;
  }
  mt_add_gradients(g, prefix, y, ny, x, nx, dx, dy, status);
}

void TF_AddGradients(TF_Graph* g, TF_Output* y, int ny, TF_Output* x, int nx, TF_Output* dx,
                     TF_Status* status, TF_Output* dy) {
  TF_AddGradientsWithPrefix(g, NULL, y, ny, x, nx, dx, status, dy);
}

int MT_AddOpGradient(TF_Graph* graph, TF_Operation* op, const char* grad_type, const char* scope,
                     const TF_Output* dy, int ndy, TF_Output* dx, TF_Output* dx_indices,
                     TF_Output* dx_dense_shape, int ndx, size_t* first_new_op,
                     TF_Status* status) {
  TF_SetStatus(status, TF_OK, NULL);
  if (!graph || !op || op->graph != graph || ndy != op->noutputs || ndx != op->ninputs) {
    TF_SetStatus(status, TF_INVALID_ARGUMENT, "MT_AddOpGradient: invalid arguments");
    return -1;
  }
  for (int i = 0; i < ndy; i++) {
    if (dy[i].oper && (dy[i].oper->graph != graph || dy[i].index < 0 ||
                       dy[i].index >= dy[i].oper->noutputs)) {
      TF_SetStatus(status, TF_INVALID_ARGUMENT, "MT_AddOpGradient: gradient not of this graph");
      return -1;
    }
  }
  if (first_new_op) *first_new_op = (size_t)graph->nops;
  return mt_add_op_gradient(graph, op, grad_type, scope ? scope : "", dy, dx, dx_indices,
                            dx_dense_shape, status);
}

int MT_GradientRegistered(const char* op_type) {
  mt_grad_fn fn = NULL;
  if (!op_type || !mt_gradient_lookup(op_type, &fn)) return 0;
  return fn ? 1 : 2;
}
