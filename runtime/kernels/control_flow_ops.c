/* Control-flow ops. NoOp: no inputs or outputs; used as a target that
 * groups control dependencies (tf.group). */
#include "runtime/kernels/all_ops.h"
#include "runtime/kernel.h"

/* Nothing to compute: running it means its control inputs ran. */
static void noop_kernel(mt_kernel_ctx* ctx) { (void)ctx; }

static const mt_op_spec control_flow_specs[] = {
    {.name = "NoOp", .kernel = noop_kernel},
};

void mt_register_control_flow_ops(void) {
  mt_register_ops(control_flow_specs,
                  (int)(sizeof control_flow_specs / sizeof control_flow_specs[0]));
}
