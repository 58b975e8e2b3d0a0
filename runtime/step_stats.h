/* Step stats for traced runs: per-node timing recorded by the executor when
 * RunOptions.trace_level > 0, serialized as TensorFlow's RunMetadata
 * (step_stats.proto field numbers). Untraced runs never touch this. */
#ifndef MINITF_RUNTIME_STEP_STATS_H_
#define MINITF_RUNTIME_STEP_STATS_H_

#include <stddef.h>
#include <stdint.h>
#include "runtime/graph.h"
#include "tensorflow/c/c_api.h"

/* Timing of one executed node. Times are nanoseconds: all_start since the
 * Unix epoch, the others relative to all_start (TensorFlow's layout). */
typedef struct mt_node_stats {
  const TF_Operation* op;
  int64_t all_start_ns;
  int64_t op_start_rel_ns, op_end_rel_ns, all_end_rel_ns;
} mt_node_stats;

/* The nodes one run executed, in execution order. `nodes` is malloc'ed by
 * the executor (mt_plan_run_traced) and freed with mt_step_stats_free. */
typedef struct mt_step_stats {
  int n;
  mt_node_stats* nodes;
  int cap; /* entries allocated (loops execute nodes many times) */
} mt_step_stats;

void mt_step_stats_free(mt_step_stats* st);

/* Wall-clock time in nanoseconds since the Unix epoch. */
int64_t mt_now_ns(void);
/* Nanoseconds of CLOCK_MONOTONIC: what step deadlines are measured on (a
 * wall-clock step would move them). */
int64_t mt_monotonic_ns(void);

/* RunOptions.trace_level of a serialized RunOptions (0 for NULL/empty).
 * Returns -1 with TF_INVALID_ARGUMENT in `s` for malformed bytes. */
int mt_run_options_trace_level(const void* data, size_t len, TF_Status* s);
/* RunOptions.timeout_in_ms (0 for NULL/empty); -1 + TF_INVALID_ARGUMENT
 * for malformed bytes. */
int64_t mt_run_options_timeout_ms(const void* data, size_t len, TF_Status* s);

/* Serializes RunMetadata{step_stats{dev_stats{device: the CPU device,
 * node_stats: one NodeExecStats per node}}} into `out` (its previous data is
 * released). `st` may be NULL for an empty RunMetadata. Returns 0, or -1 with
 * TF_RESOURCE_EXHAUSTED in `s`. */
int mt_run_metadata_write(const mt_step_stats* st, TF_Buffer* out, TF_Status* s);

#endif
