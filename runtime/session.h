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
};

typedef struct mt_plan mt_plan;

struct TF_Session {
  TF_Graph* graph;
  struct TF_SessionOptions opts;
  mt_session_state state;
  pthread_mutex_t mu; /* guards the plan cache and `closed` */
  int closed;
  int running;          /* runs in flight; close waits for them */
  pthread_cond_t idle;  /* signalled when running drops to 0 */
  int nplans, plans_cap;
  mt_plan** plans;
  int graph_nops_at_plan; /* plans are rebuilt when the graph grew */
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
/* mt_plan_run that, when `stats` is not NULL, records each executed node's
 * timing into it (stats->nodes is allocated here; the caller frees it with
 * mt_step_stats_free, also on error). */
void mt_plan_run_traced(mt_plan* p, mt_session_state* st, TF_Tensor* const* feed_values,
                        TF_Tensor** outputs, const struct TF_SessionOptions* opts,
                        mt_step_stats* stats, TF_Status* s);


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

#endif
