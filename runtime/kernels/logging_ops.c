/* Logging and assertion ops (TensorFlow's logging_ops.cc): Assert, Print,
 * PrintV2, StringFormat, Timestamp. Tensor values are printed by
 * summarize.c in TensorFlow's two formats: v1 (Assert, Print) and v2
 * (StringFormat, which tf.print feeds into PrintV2). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "runtime/kernel.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/summarize.h"
#include "runtime/resource.h"

/* ---- Assert ---- */

static void assert_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* c = ctx->inputs[0];
  if (c->ndims != 0) {
    char buf[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "In[0] should be a scalar: %s",
                   mt_dims_str(c->dims, c->ndims, buf, sizeof buf));
    return;
  }
  if (*(const uint8_t*)mt_tensor_data(c)) return;
  const int64_t summarize = mt_op_attr_int(ctx->op, "summarize", 3);
  mt_strbuf b = {0};
  mt_sb_str(&b, "assertion failed: ");
  for (int k = 1; k < ctx->ninputs; k++) {
    mt_sb_str(&b, "[");
    mt_summarize(&b, ctx->inputs[k], summarize, 0);
    mt_sb_str(&b, "]");
    if (k < ctx->ninputs - 1) mt_sb_str(&b, " ");
  }
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s", b.failed ? "assertion failed" : b.s);
  free(b.s);
}

/* ---- Print (v1) ---- */

/* TensorFlow counts the calls of a Print kernel (one per session and
 * node) to honour first_n; the per-node state of the session (the random
 * family's mt_rng_state, keyed by the op) holds the count in words[0..1]. */
static int print_counts(mt_kernel_ctx* ctx, int64_t first_n) {
  if (first_n < 0) return 1;
  if (!ctx->state) return 1;
  mt_rng_state* st = mt_state_rng(ctx->state, ctx->op, ctx->status);
  if (!st) return 0;
  pthread_mutex_lock(&st->mu);
  const uint64_t calls = (uint64_t)st->words[0] | ((uint64_t)st->words[1] << 32);
  const int print = (int64_t)calls < first_n;
  if (print) {
    st->words[0] = (uint32_t)(calls + 1);
    st->words[1] = (uint32_t)((calls + 1) >> 32);
  }
  pthread_mutex_unlock(&st->mu);
  return print;
}

/* Writes all of s to fd 2 / 1 at once (std::cerr and std::cout are
 * unbuffered to the process's descriptors as far as Python sees them). */
static void write_all(int fd, const char* s, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, s, n);
    if (w <= 0) return;
    s += w;
    n -= (size_t)w;
  }
}

static void print_kernel(mt_kernel_ctx* ctx) {
  mt_ctx_set_shared(ctx, 0, ctx->inputs[0]);
  const int go = print_counts(ctx, mt_op_attr_int(ctx->op, "first_n", -1));
  if (!go) return;
  const int64_t summarize = mt_op_attr_int(ctx->op, "summarize", 3);
  mt_strbuf b = {0};
  mt_sb_str(&b, mt_op_attr_str(ctx->op, "message", ""));
  for (int k = 1; k < ctx->ninputs; k++) {
    mt_sb_str(&b, "[");
    mt_summarize(&b, ctx->inputs[k], summarize, 0);
    mt_sb_str(&b, "]");
  }
  mt_sb_str(&b, "\n");
  if (!b.failed) write_all(2, b.s, b.len);
  free(b.s);
}

/* ---- PrintV2 ---- */

static void printv2_shape(mt_shape_ctx* ctx) {
  if (ctx->in[0].rank > 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "input must be a scalar, but has rank: %d",
                   ctx->in[0].rank);
  }
}

/* absl's log line prefix: severity letter, MMDD hh:mm:ss.uuuuuu, thread. */
static void log_prefix(mt_strbuf* b, char severity) {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  struct tm tm;
  time_t secs = tv.tv_sec;
  localtime_r(&secs, &tm);
  char buf[96];
  snprintf(buf, sizeof buf, "%c%02d%02d %02d:%02d:%02d.%06ld %7ld logging_ops.cc] ", severity,
           tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (long)tv.tv_usec,
           (long)getpid());
  mt_sb_str(b, buf);
}

static int log_severity(const char* stream) {
  if (strcmp(stream, "log(info)") == 0) return 'I';
  if (strcmp(stream, "log(warning)") == 0) return 'W';
  if (strcmp(stream, "log(error)") == 0) return 'E';
  return 0;
}

static void append_file(mt_kernel_ctx* ctx, const char* path, const mt_strbuf* msg) {
  FILE* f = fopen(path, "a");
  if (!f) {
    mt_status_setf(ctx->status, TF_NOT_FOUND, "%s; No such file or directory", path);
    return;
  }
  fwrite(msg->s, 1, msg->len, f);
  fclose(f);
}

static void printv2_kernel(mt_kernel_ctx* ctx) {
  const char* stream = mt_op_attr_str(ctx->op, "output_stream", "stderr");
  const int is_file = strncmp(stream, "file://", 7) == 0;
  const int severity = log_severity(stream);
  if (!is_file && !severity && strcmp(stream, "stdout") != 0 && strcmp(stream, "stderr") != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Unknown output stream: %s, Valid streams are: stdout stderr log(info) "
                   "log(warning) log(error)",
                   stream);
    return;
  }
  const TF_Tensor* in = ctx->inputs[0];
  if (in->ndims != 0) {
    char buf[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input is expected to be scalar, but got %s",
                   mt_dims_str(in->dims, in->ndims, buf, sizeof buf));
    return;
  }
  const TF_TString* s = (const TF_TString*)mt_tensor_data(in);
  mt_strbuf b = {0};
  if (severity) log_prefix(&b, (char)severity);
  mt_sb_add(&b, TF_StringGetDataPointer(s), TF_StringGetSize(s));
  mt_sb_str(&b, mt_op_attr_str(ctx->op, "end", "\n"));
  if (severity) mt_sb_str(&b, "\n"); /* LOG(...) ends its line itself */
  if (b.failed) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "out of memory formatting the message");
  } else if (is_file) {
    append_file(ctx, stream + 7, &b);
  } else {
    write_all(strcmp(stream, "stdout") == 0 ? 1 : 2, b.s, b.len);
  }
  free(b.s);
}

/* ---- StringFormat ---- */

/* Occurrences of `ph` in `tmpl` (absl::StrSplit pieces - 1); an empty
 * placeholder never matches. */
static int count_placeholders(const char* tmpl, const char* ph) {
  const size_t n = strlen(ph);
  if (n == 0) return 0;
  int count = 0;
  for (const char* p = strstr(tmpl, ph); p; p = strstr(p + n, ph)) count++;
  return count;
}

static void string_format_shape(mt_shape_ctx* ctx) {
  const char* tmpl = mt_op_attr_str(ctx->op, "template", "%s");
  const char* ph = mt_op_attr_str(ctx->op, "placeholder", "%s");
  const int n = count_placeholders(tmpl, ph);
  if (n != ctx->ninputs) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "num placeholders in template and num inputs must match: %d vs. %d", n,
                   ctx->ninputs);
    return;
  }
  ctx->out[0] = mt_shape_scalar();
}

static void string_format_kernel(mt_kernel_ctx* ctx) {
  const char* tmpl = mt_op_attr_str(ctx->op, "template", "%s");
  const char* ph = mt_op_attr_str(ctx->op, "placeholder", "%s");
  const int64_t summarize = mt_op_attr_int(ctx->op, "summarize", 3);
  const int n = count_placeholders(tmpl, ph);
  if (n != ctx->ninputs) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "num placeholders in template and num inputs must match: %d vs. %d", n,
                   ctx->ninputs);
    return;
  }
  mt_strbuf b = {0};
  const size_t phlen = strlen(ph);
  const char* p = tmpl;
  for (int k = 0; k < n; k++) {
    const char* at = strstr(p, ph);
    mt_sb_add(&b, p, (size_t)(at - p));
    mt_summarize(&b, ctx->inputs[k], summarize, 1);
    p = at + phlen;
  }
  mt_sb_str(&b, p);
  if (b.failed) {
    free(b.s);
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "out of memory formatting the string");
    return;
  }
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_STRING, NULL, 0);
  if (out) TF_StringCopy((TF_TString*)mt_tensor_data(out), b.s, b.len);
  free(b.s);
}

/* ---- Timestamp ---- */

static void timestamp_shape(mt_shape_ctx* ctx) { ctx->out[0] = mt_shape_scalar(); }

/* Seconds since the epoch, from whole microseconds as TensorFlow's
 * Env::NowMicros. */
static void timestamp_kernel(mt_kernel_ctx* ctx) {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_DOUBLE, NULL, 0);
  if (out) {
    const double us = (double)tv.tv_sec * 1e6 + (double)tv.tv_usec;
    *(double*)mt_tensor_data(out) = us / 1000000;
  }
}

static const mt_op_spec logging_specs[] = {
    {.name = "Assert", .inputs = "condition: bool, data: T",
     .attrs = "T: list(type) >= 1; summarize: int = 3", .kernel = assert_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "Print", .inputs = "input: T, data: U", .outputs = "output: T",
     .attrs = "T: type; U: list(type) >= 0; message: string = ''; first_n: int = -1; "
              "summarize: int = 3",
     .shape = mt_unchanged_shape, .kernel = print_kernel, .flags = MT_OP_STATEFUL},
    {.name = "PrintV2", .inputs = "input: string",
     .attrs = "output_stream: string = 'stderr'; end: string = '\n'", .shape = printv2_shape,
     .kernel = printv2_kernel, .flags = MT_OP_STATEFUL},
    {.name = "StringFormat", .inputs = "inputs: T", .outputs = "output: string",
     .attrs = "T: list(type) >= 0; template: string = '%s'; placeholder: string = '%s'; "
              "summarize: int = 3",
     .shape = string_format_shape, .kernel = string_format_kernel},
    {.name = "Timestamp", .outputs = "ts: double", .shape = timestamp_shape,
     .kernel = timestamp_kernel, .flags = MT_OP_STATEFUL},
};

void mt_register_logging_ops(void) {
  mt_register_ops(logging_specs, (int)(sizeof logging_specs / sizeof logging_specs[0]));
}
