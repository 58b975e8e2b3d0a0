/* The V1 read path of RestoreV2 (runtime/kernels/io_v1_ops.c). */
#ifndef MINITF_RUNTIME_KERNELS_IO_V1_H_
#define MINITF_RUNTIME_KERNELS_IO_V1_H_

#include "runtime/kernel.h"

/* RestoreV2's kernel for a prefix with no `.index`: reads inputs (prefix as
 * a glob pattern, tensor_names, shape_and_slices) from a V1 checkpoint into
 * the outputs, one tensor after another as TensorFlow's RestoreTensor; stops
 * at the first error (the executor frees the outputs already set). */
void mt_restore_v1_tensors(mt_kernel_ctx* ctx);

#endif
