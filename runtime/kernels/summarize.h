/* Text of tensor values as TensorFlow prints them: Tensor::SummarizeValue
 * in its two forms (v1: Assert, Print; v2: StringFormat, tf.print), and
 * the growable string the logging kernels build messages in. */
#ifndef MINITF_RUNTIME_KERNELS_SUMMARIZE_H_
#define MINITF_RUNTIME_KERNELS_SUMMARIZE_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api.h"

/* A growable NUL-terminated string; `failed` is set (and later appends are
 * dropped) when an allocation fails. Free `s` with free(). */
typedef struct mt_strbuf {
  char* s;
  size_t len, cap;
  int failed;
} mt_strbuf;

void mt_sb_add(mt_strbuf* b, const char* s, size_t n);
void mt_sb_str(mt_strbuf* b, const char* s);

/* StrCat of a float / double: the shortest of %.6g and %.9g (%.15g and
 * %.17g for doubles) that reads back as the same value; "nan", "inf". */
const char* mt_fmt_float(float f, char* buf, size_t cap);
const char* mt_fmt_double(double f, char* buf, size_t cap);

/* Appends absl::Utf8SafeCEscape(s[0..n)): \n \r \t \" \' \\ escaped,
 * other non-printable ASCII as octal, bytes >= 0x80 kept as they are. */
void mt_sb_cescape(mt_strbuf* b, const char* s, size_t n);

/* Appends Tensor::SummarizeValue(max_entries, print_v2) of `t`.
 * max_entries < 0 means every element. v1: at most max_entries elements
 * in row-major order, nested brackets, "..." when cut. v2 (NumPy-like):
 * each dimension shows its first and last max_entries entries around
 * "...", rows on new lines, strings quoted. */
void mt_summarize(mt_strbuf* b, const TF_Tensor* t, int64_t max_entries, int print_v2);

#endif
