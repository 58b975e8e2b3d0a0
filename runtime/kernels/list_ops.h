/* The TensorList object (TensorFlow's TensorList variant): what a scalar
 * TF_VARIANT tensor made by the list ops holds. Shared by list_ops.c and
 * the tests; see runtime/tensor.h for the variant ownership rules. */
#ifndef MINITF_RUNTIME_KERNELS_LIST_OPS_H_
#define MINITF_RUNTIME_KERNELS_LIST_OPS_H_

#include "runtime/kernel.h"

typedef struct mt_tlist {
  mt_variant base;
  TF_DataType dtype;  /* element_dtype */
  mt_shape eshape;    /* element_shape, partial */
  int64_t max;        /* max_num_elements, -1 = unbounded */
  int64_t n, cap;
  TF_Tensor** items;  /* n items; NULL = not yet set (reads give zeros) */
} mt_tlist;

extern const char mt_tlist_type_name[];

/* AddN over TensorList variants (how gradients of a list are summed):
 * outputs[0] = the element-wise sum of the input lists, TensorFlow's
 * TensorListBinaryAdd. Errors: TF_INVALID_ARGUMENT for lists of different
 * lengths or dtypes. */
void mt_tlist_add_n(mt_kernel_ctx* ctx);

/* ZerosLike of a TensorList (TensorFlow's TensorListZerosLike): a list of
 * the same length whose set items are zeros of their shapes (unset ones
 * stay unset). Returns 0, doing nothing, when input 0 holds no list. */
int mt_tlist_zeros_like(mt_kernel_ctx* ctx);

#endif
