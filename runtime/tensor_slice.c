/* Slice geometry shared by the V2 bundle (runtime/bundle.c) and the V1
 * format (runtime/checkpoint_v1.c). */
#include "runtime/tensor_slice.h"

#include <stdio.h>
#include <string.h>
#include "tensorflow/c/tf_tstring.h"

void mt_slice_str(const mt_tensor_slice* sl, char* buf, size_t cap) {
  size_t k = 0;
  buf[0] = 0;
  for (int d = 0; d < sl->ndims && k < cap; d++) {
    if (sl->length[d] < 0)
      k += (size_t)snprintf(buf + k, cap - k, "%s-", d ? ":" : "");
    else
      k += (size_t)snprintf(buf + k, cap - k, "%s%lld,%lld", d ? ":" : "",
                            (long long)sl->start[d], (long long)sl->length[d]);
  }
}

int mt_slice_fits(const mt_tensor_slice* sl, const mt_shape* full, int* bad_dim) {
  if (bad_dim) *bad_dim = -1;
  if (sl->ndims != full->rank) return 0;
  for (int d = 0; d < sl->ndims; d++) {
    if (sl->length[d] < 0) continue;
    if (sl->start[d] < 0 || sl->start[d] > full->dims[d] ||
        sl->length[d] > full->dims[d] - sl->start[d]) {
      if (bad_dim) *bad_dim = d;
      return 0;
    }
  }
  return 1;
}

int64_t mt_slice_nelems(const mt_tensor_slice* sl, const mt_shape* full) {
  int64_t n = 1;
  for (int d = 0; d < full->rank; d++) n *= mt_slice_end(sl, d, full) - mt_slice_start(sl, d);
  return n;
}

int mt_slice_intersect(const mt_tensor_slice* a, const mt_tensor_slice* b, const mt_shape* full,
                       mt_tensor_slice* out) {
  out->ndims = full->rank;
  for (int d = 0; d < full->rank; d++) {
    int64_t sa = mt_slice_start(a, d), sb = mt_slice_start(b, d);
    int64_t ea = mt_slice_end(a, d, full), eb = mt_slice_end(b, d, full);
    int64_t lo = sa > sb ? sa : sb, hi = ea < eb ? ea : eb;
    if (hi <= lo) return 0;
    out->start[d] = lo;
    out->length[d] = hi - lo;
  }
  return 1;
}

void mt_slice_copy(const void* src, const mt_tensor_slice* src_sl, void* dst,
                   const mt_tensor_slice* dst_sl, const mt_tensor_slice* region,
                   const mt_shape* full, TF_DataType dt) {
  int rank = full->rank;
  size_t es = dt == TF_STRING ? sizeof(TF_TString) : TF_DataTypeSize(dt);
  int64_t sdim[MT_MAX_DIMS], ddim[MT_MAX_DIMS], idx[MT_MAX_DIMS];
  for (int d = 0; d < rank; d++) {
    sdim[d] = mt_slice_end(src_sl, d, full) - mt_slice_start(src_sl, d);
    ddim[d] = mt_slice_end(dst_sl, d, full) - mt_slice_start(dst_sl, d);
    idx[d] = 0;
  }
  int64_t total = mt_slice_nelems(region, full);
  int64_t inner = rank ? region->length[rank - 1] : 1;
  for (int64_t done = 0; done < total; done += inner) {
    int64_t so = 0, dof = 0; /* element offsets of this row in src and dst */
    for (int d = 0; d < rank; d++) {
      int64_t at = region->start[d] + idx[d];
      so = so * sdim[d] + (at - mt_slice_start(src_sl, d));
      dof = dof * ddim[d] + (at - mt_slice_start(dst_sl, d));
    }
    if (dt == TF_STRING) {
      const TF_TString* from = (const TF_TString*)src + so;
      TF_TString* to = (TF_TString*)dst + dof;
      for (int64_t k = 0; k < inner; k++)
        TF_StringCopy(&to[k], TF_StringGetDataPointer(&from[k]), TF_StringGetSize(&from[k]));
    } else {
      memcpy((uint8_t*)dst + dof * es, (const uint8_t*)src + so * es, (size_t)inner * es);
    }
    for (int d = rank - 2; d >= 0; d--) { /* odometer over the outer dims */
      if (++idx[d] < region->length[d]) break;
      idx[d] = 0;
    }
  }
}
