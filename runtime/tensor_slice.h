/* Slices of a tensor (TensorFlow's TensorSlice): the geometry both checkpoint
 * formats need to save and restore parts of partitioned variables. */
#ifndef MINITF_RUNTIME_TENSOR_SLICE_H_
#define MINITF_RUNTIME_TENSOR_SLICE_H_

#include <stddef.h>
#include <stdint.h>
#include "runtime/attr.h"

/* One TensorSliceProto: per dimension a start and a length (-1 = the whole
 * dimension, TensorFlow's "-" and kFullExtent). */
typedef struct mt_tensor_slice {
  int ndims;
  int64_t start[MT_MAX_DIMS];
  int64_t length[MT_MAX_DIMS];
} mt_tensor_slice;

/* Dimension d of sl in a tensor of shape full: [mt_slice_start, mt_slice_end). */
static inline int64_t mt_slice_start(const mt_tensor_slice* sl, int d) {
  return sl->length[d] < 0 ? 0 : sl->start[d];
}
static inline int64_t mt_slice_end(const mt_tensor_slice* sl, int d, const mt_shape* full) {
  return sl->length[d] < 0 ? full->dims[d] : sl->start[d] + sl->length[d];
}

/* TensorSlice::DebugString: "-" or "start,length" per dim, ':'-joined, into buf. */
void mt_slice_str(const mt_tensor_slice* sl, char* buf, size_t cap);

/* Whether sl has full's rank and every explicit extent lies inside full;
 * *bad_dim (if not NULL) is the first dimension out of bounds, -1 for a rank
 * mismatch. */
int mt_slice_fits(const mt_tensor_slice* sl, const mt_shape* full, int* bad_dim);

/* Elements of sl in a tensor of shape full. */
int64_t mt_slice_nelems(const mt_tensor_slice* sl, const mt_shape* full);

/* The intersection of a and b into *out (explicit extents); 0 when empty. */
int mt_slice_intersect(const mt_tensor_slice* a, const mt_tensor_slice* b, const mt_shape* full,
                       mt_tensor_slice* out);

/* Copies `region` (absolute coordinates, inside both slices) from `src`, the
 * elements of slice src_sl, into `dst`, the elements of slice dst_sl, of a
 * tensor of shape full and dtype dt (TF_TString elements are copied deeply),
 * as TensorFlow's CopyDataFromTensorSliceToTensorSlice. */
void mt_slice_copy(const void* src, const mt_tensor_slice* src_sl, void* dst,
                   const mt_tensor_slice* dst_sl, const mt_tensor_slice* region,
                   const mt_shape* full, TF_DataType dt);

#endif  // MINITF_RUNTIME_TENSOR_SLICE_H_
