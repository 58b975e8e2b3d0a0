/* What the string kernel files (runtime/kernels/string/) share. */
#ifndef MINITF_RUNTIME_KERNELS_STRING_STRING_UTIL_H_
#define MINITF_RUNTIME_KERNELS_STRING_STRING_UTIL_H_
#include <stddef.h>
#include <stdint.h>

#include "runtime/kernel.h"
#include "runtime/kernels/kernel_util.h"

static inline const TF_TString* mt_str_in(const TF_Tensor* t) {
  return (const TF_TString*)mt_tensor_data(t);
}

static inline TF_TString* mt_str_out(TF_Tensor* t) { return (TF_TString*)mt_tensor_data(t); }

/* Number of UTF-8 characters: the bytes that do not continue one (TF's
 * StringLength with unit UTF8_CHAR counts the same way). */
int64_t mt_utf8_len(const char* s, size_t n);

/* Registration of each file's ops (called from string_ops.c). */
void mt_register_string_basic_ops(void);
void mt_register_string_hash_ops(void);
void mt_register_string_split_ops(void);

#endif
