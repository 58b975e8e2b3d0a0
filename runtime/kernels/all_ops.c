/* The one place that lists the op families. */
#include "runtime/kernels/all_ops.h"

void mt_register_all_ops(void) {
  mt_register_array_ops();
  mt_register_math_ops();
  mt_register_reduction_ops();
  mt_register_nn_ops();
  mt_register_state_ops();
  mt_register_control_flow_ops();
}
