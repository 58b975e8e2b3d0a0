/* The one place that lists the op families (see all_ops.h). */
#include "runtime/kernels/all_ops.h"

#include <stddef.h>

void mt_register_all_ops(void) {
#define MT_CALL_FAMILY(name) \
  if (mt_register_##name##_ops != NULL) mt_register_##name##_ops();
  MT_OP_FAMILIES(MT_CALL_FAMILY)
#undef MT_CALL_FAMILY
}
