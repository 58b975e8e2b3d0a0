/* Gradients of the lookup-table ops: TensorFlow declares the table ops it
 * uses in graphs not differentiable (lookup_ops.py, data_flow_ops.py). */
#include "runtime/gradient.h"
#include "runtime/kernels/all_ops.h"

/* NULL: not differentiable (TensorFlow's ops.NotDifferentiable). */
static const mt_grad_spec lookup_grads[] = {
    {"HashTableV2", NULL},
    {"InitializeTableFromTextFileV2", NULL},
    {"InitializeTableV2", NULL},
    {"LookupTableFindV2", NULL},
    {"LookupTableInsertV2", NULL},
    {"LookupTableSizeV2", NULL},
    {"MutableHashTableV2", NULL},
};

void mt_register_lookup_grads(void) {
  mt_register_gradients(lookup_grads, (int)(sizeof lookup_grads / sizeof lookup_grads[0]));
}
