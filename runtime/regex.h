/* Regular expressions with RE2, TensorFlow's engine and syntax, behind a C
 * interface (the regex ops in runtime/kernels/string_ops.c use it). The one
 * C++ file of the runtime, runtime/regex/re2_shim.cc, implements it; no C++
 * exception crosses it.
 *
 * Thread-safety: a compiled mt_regex is immutable and may be used by many
 * threads at once (RE2 objects are). */
#ifndef MINITF_RUNTIME_REGEX_H_
#define MINITF_RUNTIME_REGEX_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mt_regex mt_regex;

/* Compiles `pattern` (len bytes, UTF-8, RE2 syntax, RE2's default options
 * as TensorFlow's ops use them). Returns NULL only when out of memory; a
 * bad pattern gives a regex whose mt_regex_ok is 0. Free with
 * mt_regex_free. */
mt_regex* mt_regex_new(const char* pattern, size_t len);
void mt_regex_free(mt_regex* re);

/* 1 when the pattern compiled; else mt_regex_error says why, in RE2's
 * words (borrowed, lives as long as `re`). */
int mt_regex_ok(const mt_regex* re);
const char* mt_regex_error(const mt_regex* re);

/* 1 when the whole of s[0..n) matches (RE2::FullMatch). */
int mt_regex_full_match(const mt_regex* re, const char* s, size_t n);

/* Replaces the first (global = 0) or every (global = 1) match of `re` in
 * s[0..n) with `rewrite` (\0..\9 name groups, RE2::Replace/GlobalReplace).
 * *out (malloc'd, caller frees) and *out_len get the result. Returns 1, or
 * 0 when out of memory (nothing to free then). A rewrite naming a group the
 * pattern lacks leaves the string as it is, as RE2 does. */
int mt_regex_replace(const mt_regex* re, const char* s, size_t n, const char* rewrite,
                     size_t rn, int global, char** out, size_t* out_len);

#ifdef __cplusplus
}
#endif

#endif
