/* Tiny test harness for the C tests: CHECK records failures and goes on;
 * each test program ends with CTEST_END, printing "N passed, N failed". */
#ifndef MINITF_TESTS_CTEST_H_
#define MINITF_TESTS_CTEST_H_

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ctest_pass, ctest_fail;

#define CHECK(cond)                                                       \
  do {                                                                    \
    if (cond) {                                                           \
      ctest_pass++;                                                       \
    } else {                                                              \
      ctest_fail++;                                                       \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                     \
  } while (0)

#define CHECK_OK(status)                                                          \
  do {                                                                            \
    if (TF_GetCode(status) == TF_OK) {                                            \
      ctest_pass++;                                                               \
    } else {                                                                      \
      ctest_fail++;                                                               \
      fprintf(stderr, "%s:%d: status %d: %s\n", __FILE__, __LINE__, TF_GetCode(status), \
              TF_Message(status));                                                \
    }                                                                             \
  } while (0)

#define CHECK_CODE(status, want)                                                       \
  do {                                                                                 \
    if (TF_GetCode(status) == (want)) {                                                \
      ctest_pass++;                                                                    \
    } else {                                                                           \
      ctest_fail++;                                                                    \
      fprintf(stderr, "%s:%d: want code %d, got %d: %s\n", __FILE__, __LINE__, (int)(want), \
              TF_GetCode(status), TF_Message(status));                                 \
    }                                                                                  \
  } while (0)

#define CHECK_NEAR(a, b, tol) CHECK(fabs((double)(a) - (double)(b)) <= (tol))
#define CHECK_STR_CONTAINS(hay, needle) CHECK(strstr((hay), (needle)) != NULL)

#define CTEST_END()                                                     \
  do {                                                                  \
    printf("%d passed, %d failed\n", ctest_pass, ctest_fail);           \
    return ctest_fail ? 1 : 0;                                          \
  } while (0)

/* Reads a whole file; caller frees. NULL on error. */
static inline char* ctest_read_file(const char* path, size_t* len) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
  fclose(f);
  if (buf && len) *len = (size_t)n;
  return buf;
}

#endif
