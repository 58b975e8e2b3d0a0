/* TF_TString: 24-byte strings with small-string optimization, laid out as
 * TensorFlow's tf_tstring.h on little-endian machines: the low two bits of
 * the first byte hold the type, the rest of the size field the length. */
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/tf_tstring.h"

#define SMALL_CAP (sizeof(((TF_TString_Small*)0)->str) - 1) /* keep a NUL */

void TF_StringInit(TF_TString* t) { memset(t, 0, sizeof(*t)); }

TF_TString_Type TF_StringGetType(const TF_TString* t) {
  return (TF_TString_Type)(t->u.smll.size & TF_TSTR_TYPE_MASK);
}

size_t TF_StringGetSize(const TF_TString* t) {
  switch (TF_StringGetType(t)) {
    case TF_TSTR_SMALL: return t->u.smll.size >> 2;
    case TF_TSTR_LARGE: return t->u.large.size >> 2;
    default: return t->u.view.size >> 2;
  }
}

size_t TF_StringGetCapacity(const TF_TString* t) {
  switch (TF_StringGetType(t)) {
    case TF_TSTR_SMALL: return SMALL_CAP;
    case TF_TSTR_LARGE: return t->u.large.cap;
    default: return 0;
  }
}

const char* TF_StringGetDataPointer(const TF_TString* t) {
  switch (TF_StringGetType(t)) {
    case TF_TSTR_SMALL: return t->u.smll.str;
    case TF_TSTR_LARGE: return t->u.large.ptr;
    default: return t->u.view.ptr;
  }
}

void TF_StringDealloc(TF_TString* t) {
  if (TF_StringGetType(t) == TF_TSTR_LARGE) free(t->u.large.ptr);
  TF_StringInit(t);
}

void TF_StringCopy(TF_TString* dst, const char* src, size_t size) {
  TF_StringDealloc(dst);
  if (size <= SMALL_CAP) {
    dst->u.smll.size = (uint8_t)(size << 2) | TF_TSTR_SMALL;
    if (size) memcpy(dst->u.smll.str, src, size);
    dst->u.smll.str[size] = '\0';
    return;
  }
  char* p = malloc(size + 1);
  if (!p) return; /* stays empty: callers that care check TF_StringGetSize */
  memcpy(p, src, size);
  p[size] = '\0';
  dst->u.large.size = (size << 2) | TF_TSTR_LARGE;
  dst->u.large.cap = size;
  dst->u.large.ptr = p;
}

void TF_StringAssignView(TF_TString* dst, const char* src, size_t size) {
  TF_StringDealloc(dst);
  dst->u.view.size = (size << 2) | TF_TSTR_VIEW;
  dst->u.view.ptr = src;
}
