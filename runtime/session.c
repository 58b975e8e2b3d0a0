/* Sessions: the plan cache, session state, and runs. */
#include "runtime/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "runtime/status.h"

/* Each cached plan remembers its signature. */
typedef struct cached_plan {
  char* key;
  mt_plan* plan;
} cached_plan;

/* The cache key: the graph's mutation count, then feeds, fetches, targets.
 * Plans made before a mutation stay cached (a run in flight may use one)
 * but no longer match. */
static char* signature(int mutations, const TF_Output* feeds, int nfeeds, const TF_Output* fetches,
                       int nfetches, const TF_Operation* const* targets, int ntargets) {
  size_t cap = 48 + 24 * (size_t)(nfeeds + nfetches + ntargets);
  char* key = malloc(cap);
  if (!key) return NULL;
  size_t at = (size_t)snprintf(key, cap, "m%d|", mutations);
  for (int k = 0; k < nfeeds; k++)
    at += (size_t)snprintf(key + at, cap - at, "f%d:%d,", feeds[k].oper ? feeds[k].oper->id : -1,
                           feeds[k].index);
  for (int k = 0; k < nfetches; k++)
    at += (size_t)snprintf(key + at, cap - at, "o%d:%d,",
                           fetches[k].oper ? fetches[k].oper->id : -1, fetches[k].index);
  for (int k = 0; k < ntargets; k++)
    at += (size_t)snprintf(key + at, cap - at, "t%d,", targets[k] ? targets[k]->id : -1);
  return key;
}

TF_Session* mt_session_new(TF_Graph* g, const struct TF_SessionOptions* opts, TF_Status* s) {
  if (opts && opts->target && *opts->target) {
    mt_status_setf(s, TF_UNIMPLEMENTED, "Session target '%s' is not supported: minitf runs "
                   "in-process only (target \"\")", opts->target);
    return NULL;
  }
  TF_Session* sess = mt_calloc(1, sizeof(TF_Session), s);
  if (!sess) return NULL;
  sess->graph = g;
  if (opts) sess->opts = *opts;
  sess->opts.target = NULL;
  if (sess->opts.cpu_devices < 1) sess->opts.cpu_devices = 1;
  if (getrandom(&sess->device_seed, sizeof sess->device_seed, 0) != sizeof(uint64_t))
    sess->device_seed = (uint64_t)(uintptr_t)sess;
  mt_state_init(&sess->state);
  pthread_mutex_init(&sess->mu, NULL);
  pthread_cond_init(&sess->idle, NULL);
  pthread_mutex_lock(&g->mu);
  g->nsessions++;
  pthread_mutex_unlock(&g->mu);
  return sess;
}

static void drop_plans(TF_Session* sess) {
  cached_plan* plans = (cached_plan*)sess->plans;
  for (int k = 0; k < sess->nplans; k++) {
    free(plans[k].key);
    mt_plan_free(plans[k].plan);
  }
  free(sess->plans);
  sess->plans = NULL;
  sess->nplans = sess->plans_cap = 0;
}

/* ---- partial runs ----
 * Live partial runs of all sessions, under one lock: TF_DeletePRunHandle
 * names a run by its handle alone. Handles are unique process-wide. A run
 * in a step is `busy`; deleting it then only marks it `dead` and the step
 * frees it. States are freed outside prun_mu (freeing a fed tensor may call
 * back into its owner, e.g. take Python's GIL). */
typedef struct prun_entry {
  struct prun_entry* next;
  TF_Session* sess;
  char* handle;
  mt_prun* run;
  int busy, dead;
} prun_entry;

static pthread_mutex_t prun_mu = PTHREAD_MUTEX_INITIALIZER;
static prun_entry* pruns;
static unsigned long long prun_counter;

static void free_entry(prun_entry* e) {
  if (!e) return;
  mt_prun_free(e->run);
  free(e->handle);
  free(e);
}

/* Unlinks `target` from the live list and returns it (prun_mu held). */
static prun_entry* unlink_entry(prun_entry* target) {
  for (prun_entry** at = &pruns; *at; at = &(*at)->next)
    if (*at == target) {
      *at = target->next;
      return target;
    }
  return NULL;
}

/* The live entry named `handle`, or NULL (prun_mu held). */
static prun_entry* find_entry(const char* handle) {
  for (prun_entry* e = pruns; e; e = e->next)
    if (!e->dead && strcmp(e->handle, handle) == 0) return e;
  return NULL;
}

/* Frees every partial run of `sess` (no step of it is in flight). */
static void drop_pruns(TF_Session* sess) {
  prun_entry* mine = NULL;
  pthread_mutex_lock(&prun_mu);
  for (prun_entry** at = &pruns; *at;) {
    prun_entry* e = *at;
    if (e->sess == sess) {
      *at = e->next;
      e->next = mine;
      mine = e;
    } else {
      at = &e->next;
    }
  }
  pthread_mutex_unlock(&prun_mu);
  while (mine) {
    prun_entry* next = mine->next;
    free_entry(mine);
    mine = next;
  }
}

void mt_prun_delete_handle(const char* handle) {
  if (!handle) return;
  prun_entry* gone = NULL;
  pthread_mutex_lock(&prun_mu);
  prun_entry* e = find_entry(handle);
  if (e && e->busy) e->dead = 1;
  else if (e) gone = unlink_entry(e);
  pthread_mutex_unlock(&prun_mu);
  free_entry(gone);
}

void mt_session_prun_setup(TF_Session* sess, const TF_Output* feeds, int nfeeds,
                           const TF_Output* fetches, int nfetches,
                           const TF_Operation* const* targets, int ntargets, const char** handle,
                           TF_Status* s) {
  *handle = NULL;
  pthread_mutex_lock(&sess->mu);
  if (sess->closed) {
    pthread_mutex_unlock(&sess->mu);
    mt_status_setf(s, TF_FAILED_PRECONDITION, "Session has been closed.");
    return;
  }
  pthread_mutex_lock(&sess->graph->mu);
  mt_prun* run = mt_prun_new(sess->graph, feeds, nfeeds, fetches, nfetches, targets, ntargets, s);
  pthread_mutex_unlock(&sess->graph->mu);
  prun_entry* e = run ? mt_calloc(1, sizeof(prun_entry), s) : NULL;
  char* out = e ? mt_calloc(1, 48, s) : NULL;
  if (e) {
    e->run = run;
    e->sess = sess;
    e->handle = mt_calloc(1, 48, s);
  }
  if (!mt_ok(s)) {
    if (e) free_entry(e);
    else mt_prun_free(run);
    free(out);
    pthread_mutex_unlock(&sess->mu);
    return;
  }
  pthread_mutex_lock(&prun_mu);
  snprintf(e->handle, 48, "prun;%llu", ++prun_counter);
  e->next = pruns;
  pruns = e;
  pthread_mutex_unlock(&prun_mu);
  pthread_mutex_unlock(&sess->mu);
  memcpy(out, e->handle, 48);
  *handle = out;
}

void mt_session_prun(TF_Session* sess, const char* handle, const TF_Output* feeds,
                     TF_Tensor* const* feed_values, int nfeeds, const TF_Output* fetches,
                     TF_Tensor** outputs, int nfetches, const TF_Operation* const* targets,
                     int ntargets, TF_Status* s) {
  for (int k = 0; k < nfetches; k++) outputs[k] = NULL;
  pthread_mutex_lock(&sess->mu);
  if (sess->closed) {
    pthread_mutex_unlock(&sess->mu);
    mt_status_setf(s, TF_FAILED_PRECONDITION, "Session has been closed.");
    return;
  }
  sess->running++; /* close waits for this step */
  pthread_mutex_unlock(&sess->mu);
  pthread_mutex_lock(&prun_mu);
  prun_entry* e = handle ? find_entry(handle) : NULL;
  if (!e || e->sess != sess) {
    e = NULL;
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Must run 'setup' before performing partial runs!");
  } else if (e->busy) {
    e = NULL;
    mt_status_setf(s, TF_FAILED_PRECONDITION,
                   "Partial run %s is already in a step on another thread.", handle);
  } else {
    e->busy = 1;
  }
  pthread_mutex_unlock(&prun_mu);
  if (e) {
    int over = mt_prun_step(e->run, feeds, feed_values, nfeeds, fetches, outputs, nfetches,
                            targets, ntargets, &sess->state, &sess->opts, s);
    prun_entry* gone = NULL;
    pthread_mutex_lock(&prun_mu);
    e->busy = 0;
    if (over || e->dead) gone = unlink_entry(e);
    pthread_mutex_unlock(&prun_mu);
    free_entry(gone);
  }
  pthread_mutex_lock(&sess->mu);
  if (--sess->running == 0) pthread_cond_broadcast(&sess->idle);
  pthread_mutex_unlock(&sess->mu);
}

void mt_session_close(TF_Session* sess) {
  pthread_mutex_lock(&sess->mu);
  /* running steps notice at their next LoopCond and end with TF_CANCELLED */
  __atomic_store_n(&sess->cancelled, 1, __ATOMIC_RELAXED);
  while (sess->running > 0) pthread_cond_wait(&sess->idle, &sess->mu);
  if (!sess->closed) {
    sess->closed = 1;
    drop_plans(sess);
    drop_pruns(sess);
    mt_state_clear(&sess->state);
  }
  pthread_mutex_unlock(&sess->mu);
}

/* Frees the session; returns 1 if the graph should now be freed too. */
int mt_session_delete(TF_Session* sess) {
  mt_session_close(sess);
  TF_Graph* g = sess->graph;
  pthread_mutex_destroy(&sess->mu);
  pthread_cond_destroy(&sess->idle);
  pthread_mutex_destroy(&sess->state.mu);
  free(sess);
  pthread_mutex_lock(&g->mu);
  int free_graph = --g->nsessions == 0 && g->delete_requested;
  pthread_mutex_unlock(&g->mu);
  return free_graph;
}

/* Finds or builds the plan for a signature (sess->mu held). */
static mt_plan* get_plan(TF_Session* sess, const TF_Output* feeds, int nfeeds,
                         const TF_Output* fetches, int nfetches,
                         const TF_Operation* const* targets, int ntargets, TF_Status* s) {
  pthread_mutex_lock(&sess->graph->mu);
  int mutations = sess->graph->mutations;
  pthread_mutex_unlock(&sess->graph->mu);
  char* key = signature(mutations, feeds, nfeeds, fetches, nfetches, targets, ntargets);
  if (!key) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM building a run signature");
    return NULL;
  }
  cached_plan* plans = (cached_plan*)sess->plans;
  for (int k = 0; k < sess->nplans; k++) {
    if (strcmp(plans[k].key, key) == 0) {
      free(key);
      return plans[k].plan;
    }
  }
  pthread_mutex_lock(&sess->graph->mu);
  mt_plan* p = mt_plan_build(sess->graph, feeds, nfeeds, fetches, nfetches, targets, ntargets, s);
  if (p && !sess->opts.allow_soft_placement &&
      !mt_plan_check_devices(p, sess->opts.cpu_devices, s)) {
    mt_plan_free(p);
    p = NULL;
  }
  pthread_mutex_unlock(&sess->graph->mu);
  if (!p) {
    free(key);
    return NULL;
  }
  if (sess->nplans == sess->plans_cap) {
    int cap = sess->plans_cap ? sess->plans_cap * 2 : 8;
    cached_plan* grown = realloc(sess->plans, sizeof(cached_plan) * (size_t)cap);
    if (!grown) {
      free(key);
      mt_plan_free(p);
      mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM caching a plan");
      return NULL;
    }
    sess->plans = (mt_plan**)grown;
    sess->plans_cap = cap;
    plans = grown;
  }
  plans[sess->nplans].key = key;
  plans[sess->nplans].plan = p;
  sess->nplans++;
  return p;
}

void mt_session_run(TF_Session* sess, const TF_Output* feeds, TF_Tensor* const* feed_values,
                    int nfeeds, const TF_Output* fetches, TF_Tensor** outputs, int nfetches,
                    const TF_Operation* const* targets, int ntargets, TF_Status* s) {
  mt_session_run_traced(sess, feeds, feed_values, nfeeds, fetches, outputs, nfetches, targets,
                        ntargets, NULL, s);
}

void mt_session_run_traced(TF_Session* sess, const TF_Output* feeds,
                           TF_Tensor* const* feed_values, int nfeeds, const TF_Output* fetches,
                           TF_Tensor** outputs, int nfetches, const TF_Operation* const* targets,
                           int ntargets, mt_step_stats* stats, TF_Status* s) {
  mt_session_run_opts(sess, feeds, feed_values, nfeeds, fetches, outputs, nfetches, targets,
                      ntargets, 0, stats, s);
}

void mt_session_run_opts(TF_Session* sess, const TF_Output* feeds, TF_Tensor* const* feed_values,
                         int nfeeds, const TF_Output* fetches, TF_Tensor** outputs, int nfetches,
                         const TF_Operation* const* targets, int ntargets, int64_t timeout_ms,
                         mt_step_stats* stats, TF_Status* s) {
  /* TensorFlow: RunOptions.timeout_in_ms when > 0, else the session's
   * ConfigProto.operation_timeout_in_ms */
  if (timeout_ms <= 0) timeout_ms = sess->opts.operation_timeout_ms;
  mt_run_ctl ctl = {timeout_ms > 0 ? mt_monotonic_ns() + timeout_ms * 1000000 : 0, &sess->cancelled, 0};
  for (int k = 0; k < nfetches; k++) outputs[k] = NULL;
  pthread_mutex_lock(&sess->mu);
  if (sess->closed) {
    pthread_mutex_unlock(&sess->mu);
    mt_status_setf(s, TF_FAILED_PRECONDITION, "Session has been closed.");
    return;
  }
  mt_plan* p = get_plan(sess, feeds, nfeeds, fetches, nfetches, targets, ntargets, s);
  if (p) sess->running++; /* plans and state stay alive until the run ends */
  pthread_mutex_unlock(&sess->mu);
  if (!p) return;
  mt_plan_run_ctl(p, &sess->state, feed_values, outputs, &sess->opts, &ctl, stats, s);
  pthread_mutex_lock(&sess->mu);
  if (--sess->running == 0) pthread_cond_broadcast(&sess->idle);
  pthread_mutex_unlock(&sess->mu);
}
