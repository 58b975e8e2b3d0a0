/* Sessions and the executor. */
#ifndef MINITF_RUNTIME_SESSION_H_
#define MINITF_RUNTIME_SESSION_H_

#include <pthread.h>
#include "runtime/graph.h"
#include "runtime/resource.h"
#include "runtime/step_stats.h"
#include "tensorflow/c/c_api.h"

struct TF_SessionOptions {
  char* target;
  int intra_op_threads; /* 0 = number of cores */
  int inter_op_threads; /* 0 = number of cores */
  int use_per_session_threads;
  /* ConfigProto.operation_timeout_in_ms: the step deadline of runs whose
   * RunOptions give none (<= 0: none), as TensorFlow's DirectSession. */
  int64_t operation_timeout_ms;
  /* ConfigProto.allow_soft_placement: a node asking for a device this runtime lacks runs
   * on the CPU instead of failing to place. */
  int allow_soft_placement;
  /* ConfigProto.device_count["CPU"] (at least 1): the CPU devices nodes may name. */
  int cpu_devices;
};

typedef struct mt_plan mt_plan;

/* What may end a step early: a deadline (RunOptions.timeout_in_ms; 0 =
 * none) and a cancellation flag (set by TF_CloseSession from another
 * thread; read atomically; NULL = none). */
typedef struct mt_run_ctl {
  int64_t deadline_ns; /* mt_monotonic_ns() clock */
  const int* cancelled;
  /* A plan under this ctl looks at the clock before node k when
   * (k & clock_mask) == 0: 0 (a step's own plan) before every node, more
   * for function bodies, which a loop runs many times. */
  int clock_mask;
} mt_run_ctl;

/* 1 and status set when the step must stop: TF_CANCELLED "Loop execution
 * was cancelled." once cancelled, TF_DEADLINE_EXCEEDED "Timed out waiting
 * for notification" once the deadline passed (ctl NULL: never). For
 * kernels that loop (While): call between iterations. */
int mt_run_ctl_stopped(const mt_run_ctl* ctl, TF_Status* s);

struct TF_Session {
  TF_Graph* graph;
  struct TF_SessionOptions opts;
  mt_session_state state;
  pthread_mutex_t mu; /* guards the plan cache and `closed` */
  int closed;
  int cancelled;        /* set (atomically) when close starts: running steps stop */
  int running;          /* runs in flight; close waits for them */
  pthread_cond_t idle;  /* signalled when running drops to 0 */
  int nplans, plans_cap;
  mt_plan** plans;
  int graph_nops_at_plan; /* plans are rebuilt when the graph grew */
  uint64_t device_seed;   /* random per session: its devices' incarnations derive from it */
};

/* Builds an execution plan for (feeds, fetches, targets): prunes to what is
 * needed, cuts at feeds, rejects cycles, orders topologically and computes
 * last uses. NULL + status (TF_INVALID_ARGUMENT / TF_NOT_FOUND) on error. */
mt_plan* mt_plan_build(TF_Graph* g, const TF_Output* feeds, int nfeeds, const TF_Output* fetches,
                       int nfetches, const TF_Operation* const* targets, int ntargets,
                       TF_Status* s);
/* Runs a plan. feed_values are borrowed; outputs receive new handles. */
void mt_plan_run(mt_plan* p, mt_session_state* st, TF_Tensor* const* feed_values,
                 TF_Tensor** outputs, const struct TF_SessionOptions* opts, TF_Status* s);
void mt_plan_free(mt_plan* p);
/* 1 when every node of `p` asks for no device or for one of the `cpus` local CPUs; else 0
 * with TF_INVALID_ARGUMENT naming the first that does not (runtime/placement.h). */
int mt_plan_check_devices(const mt_plan* p, int cpus, TF_Status* s);
/* mt_plan_run that, when `stats` is not NULL, records each executed node's
 * timing into it (stats->nodes is allocated here; the caller frees it with
 * mt_step_stats_free, also on error). */
void mt_plan_run_traced(mt_plan* p, mt_session_state* st, TF_Tensor* const* feed_values,
                        TF_Tensor** outputs, const struct TF_SessionOptions* opts,
                        mt_step_stats* stats, TF_Status* s);

/* mt_plan_run_traced under `ctl` (NULL: no deadline, no cancellation):
 * TF_DEADLINE_EXCEEDED "Timed out waiting for notification" once the
 * deadline passed, TF_CANCELLED when cancelled in a loop. */
void mt_plan_run_ctl(mt_plan* p, mt_session_state* st, TF_Tensor* const* feed_values,
                     TF_Tensor** outputs, const struct TF_SessionOptions* opts,
                     const mt_run_ctl* ctl, mt_step_stats* stats, TF_Status* s);
/* mt_plan_run_ctl (no stats) that takes the caller's feed handles: each one
 * the plan takes is set to NULL in feed_values, the rest stay the caller's
 * to free. A value moved in and held by nothing else can be updated in
 * place by its last reader (a loop body's TensorList write). */
void mt_plan_run_donated(mt_plan* p, mt_session_state* st, TF_Tensor** feed_values,
                         TF_Tensor** outputs, const struct TF_SessionOptions* opts,
                         const mt_run_ctl* ctl, TF_Status* s);

/* Partial runs (runtime/executor.c): the state of one plan executed
 * incrementally across steps. */
typedef struct mt_prun mt_prun;
/* Builds the plan for the declared feeds/fetches/targets and empty state
 * (graph->mu held). NULL + TF_INVALID_ARGUMENT / TF_NOT_FOUND on error. */
mt_prun* mt_prun_new(TF_Graph* g, const TF_Output* feeds, int nfeeds, const TF_Output* fetches,
                     int nfetches, const TF_Operation* const* targets, int ntargets,
                     TF_Status* s);
/* One step: stores `values` (borrowed) for declared, not yet fed `feeds`,
 * runs every node that can run, returns new handles for `fetches` (declared,
 * not yet fetched) and checks `targets` ran. Returns 1 when the partial run
 * is over (everything fed and fetched and every target run, or an
 * execution error),
 * 0 otherwise; on a validation error (status set, returns 0) nothing
 * changed. */
int mt_prun_step(mt_prun* r, const TF_Output* feeds, TF_Tensor* const* values, int nfeeds,
                 const TF_Output* fetches, TF_Tensor** outputs, int nfetches,
                 const TF_Operation* const* targets, int ntargets, mt_session_state* st,
                 const struct TF_SessionOptions* opts, TF_Status* s);
/* 1 when every declared feed was fed, every fetch returned and every
 * target ran. */
int mt_prun_finished(const mt_prun* r);
void mt_prun_free(mt_prun* r);

TF_Session* mt_session_new(TF_Graph* g, const struct TF_SessionOptions* opts, TF_Status* s);
void mt_session_close(TF_Session* sess);
/* Frees the session; returns 1 if its graph is now due to be freed. */
int mt_session_delete(TF_Session* sess);
void mt_session_run(TF_Session* sess, const TF_Output* feeds, TF_Tensor* const* feed_values,
                    int nfeeds, const TF_Output* fetches, TF_Tensor** outputs, int nfetches,
                    const TF_Operation* const* targets, int ntargets, TF_Status* s);
/* mt_session_run recording per-node step stats into `stats` (NULL: untraced). */
void mt_session_run_traced(TF_Session* sess, const TF_Output* feeds,
                           TF_Tensor* const* feed_values, int nfeeds, const TF_Output* fetches,
                           TF_Tensor** outputs, int nfetches, const TF_Operation* const* targets,
                           int ntargets, mt_step_stats* stats, TF_Status* s);
/* mt_session_run_traced with a step timeout in milliseconds (0 = none). */
void mt_session_run_opts(TF_Session* sess, const TF_Output* feeds, TF_Tensor* const* feed_values,
                         int nfeeds, const TF_Output* fetches, TF_Tensor** outputs, int nfetches,
                         const TF_Operation* const* targets, int ntargets, int64_t timeout_ms,
                         mt_step_stats* stats, TF_Status* s);

/* Partial runs kept under string handles (see TF_SessionPRunSetup). */
void mt_session_prun_setup(TF_Session* sess, const TF_Output* feeds, int nfeeds,
                           const TF_Output* fetches, int nfetches,
                           const TF_Operation* const* targets, int ntargets, const char** handle,
                           TF_Status* s);
void mt_session_prun(TF_Session* sess, const char* handle, const TF_Output* feeds,
                     TF_Tensor* const* feed_values, int nfeeds, const TF_Output* fetches,
                     TF_Tensor** outputs, int nfetches, const TF_Operation* const* targets,
                     int ntargets, TF_Status* s);
/* Ends the partial run named `handle` if it is still live (does not free
 * the string). */
void mt_prun_delete_handle(const char* handle);

#endif
