/* The array family (X(array) in all_ops.h), split by sub-family into the
 * files of this folder: constants and identities, shapes and reshapes,
 * transposition and reversal, concatenation and splitting, tiling,
 * broadcasting, fills and ranges, and Unique/ListDiff. Helpers they share
 * are in array_util.h. */
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/array/array_util.h"

void mt_register_array_ops(void) {
  mt_register_array_constant_ops();
  mt_register_array_shape_ops();
  mt_register_array_transpose_ops();
  mt_register_array_concat_ops();
  mt_register_array_fill_ops();
  mt_register_array_unique_ops();
  mt_register_array_scatter_ops();
}
