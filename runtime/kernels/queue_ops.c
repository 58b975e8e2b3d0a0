/* Queues, TensorFlow 2.21's V2 queue ops (data_flow_ops.cc, fifo_queue.cc,
 * random_shuffle_queue_op.cc, padding_fifo_queue.cc, priority_queue.cc):
 * FIFOQueueV2, PaddingFIFOQueueV2, RandomShuffleQueueV2, PriorityQueueV2
 * and the QueueEnqueue/Dequeue/Close/Size/IsClosed ops on their handles.
 *
 * A queue is a session resource (mt_state_object): one per (session, node)
 * without a shared_name, named "_<n>_<node>" as TensorFlow names it, or one
 * per "container/shared_name". Its handle tensor holds a reference too.
 *
 * Blocking. The executor runs a step's nodes one after another on the
 * thread that called Session.run, so a kernel may block that thread: a
 * dequeue of an empty queue waits on the queue's condition variable until
 * an enqueue (another Session.run, on another thread) or a close wakes it.
 * It wakes at least every WAIT_SLICE_NS to look at the step's cancellation
 * flag (TF_CloseSession) and deadline (RunOptions.timeout_in_ms), so a
 * blocked step always ends: TF_CANCELLED "Dequeue operation was cancelled"
 * or TF_DEADLINE_EXCEEDED "Timed out waiting for notification" (TensorFlow's
 * words). Elements a blocked multi-dequeue had taken then are dropped, as
 * TensorFlow drops a cancelled attempt's partial batch (a closed queue's
 * short batch, by contrast, goes back to the queue, as there).
 * Many-element operations make progress element by element as TensorFlow's
 * attempts do (an enqueue_many larger than the capacity, a dequeue_many
 * larger than what the queue holds), so a RandomShuffleQueue draws its
 * elements at the same queue sizes as TensorFlow's. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "c_api/include/tensorflow/c/tf_tstring.h"
#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/queue_ops.h"
#include "runtime/kernels/random/simple_philox.h"
#include "runtime/resource.h"
#include "runtime/session.h"
#include "runtime/step_stats.h"

#define WAIT_SLICE_NS 20000000LL
#define TIMED_OUT "Timed out waiting for notification"

static const char queue_type_name[] = "tensorflow::QueueInterface";

enum { Q_FIFO, Q_PADDING, Q_SHUFFLE, Q_PRIORITY };
static const char* const kind_op[] = {"FIFOQueueV2", "PaddingFIFOQueueV2",
                                      "RandomShuffleQueueV2", "PriorityQueueV2"};
static const char* const kind_msg[] = {"FIFOQueue", "PaddingFIFOQueue", "RandomShuffleQueue",
                                       "PriorityQueue"};

/* One element: ncomp tensors. */
typedef TF_Tensor** qelem;

typedef struct mt_queue {
  mt_variant base;
  pthread_mutex_t mu;
  pthread_cond_t cv; /* CLOCK_MONOTONIC; broadcast on every change */
  int kind;
  char* name;
  int ncomp;
  TF_DataType* types;
  mt_shape* shapes; /* ncomp entries when specified, else NULL */
  int64_t capacity;
  int64_t min_after_dequeue;
  mt_simple_philox rng;
  int closed;
  int cancel_epoch; /* bumped by close(cancel_pending_enqueues=True) */
  qelem* items;     /* items[head .. head + count) */
  int64_t head, count, cap;
} mt_queue;

static atomic_long resource_counter;

char* mt_unique_resource_name(const char* node_name) {
  char* name = NULL;
  if (asprintf(&name, "_%ld_%s", atomic_fetch_add(&resource_counter, 1), node_name) < 0)
    return NULL;
  return name;
}

static void elem_free(const mt_queue* q, qelem e) {
  if (!e) return;
  for (int i = 0; i < q->ncomp; i++) mt_tensor_free(e[i]);
  free(e);
}

static void queue_destroy(mt_variant* v) {
  mt_queue* q = (mt_queue*)v;
  for (int64_t i = 0; i < q->count; i++) elem_free(q, q->items[q->head + i]);
  free(q->items);
  free(q->types);
  free(q->shapes);
  free(q->name);
  pthread_cond_destroy(&q->cv);
  pthread_mutex_destroy(&q->mu);
  free(q);
}

/* ---- element storage ---- */

/* Room for one more element at the back (and, with front, at the front). */
static int reserve(mt_queue* q, int front) {
  if (front && q->head > 0) return 1;
  if (!front && q->head + q->count < q->cap) return 1;
  int64_t cap = q->cap < 8 ? 16 : q->cap;
  if (q->count + 1 > cap / 2) cap *= 2;
  qelem* items = malloc(sizeof(qelem) * (size_t)cap);
  if (!items) return 0;
  const int64_t head = front ? cap / 4 + 1 : 0;
  if (q->count) memcpy(items + head, q->items + q->head, sizeof(qelem) * (size_t)q->count);
  free(q->items);
  q->items = items;
  q->head = head;
  q->cap = cap;
  return 1;
}

static qelem* at(mt_queue* q, int64_t i) { return &q->items[q->head + i]; }

/* The priority queue is a binary min-heap on component 0 laid out as
 * libstdc++'s std::priority_queue (push_heap / pop_heap with TensorFlow's
 * "greater priority value is lower" comparator), so ties come out in
 * TensorFlow's order. */
static int64_t prio(qelem e) { return *(const int64_t*)mt_tensor_data(e[0]); }

static void heap_sift_up(mt_queue* q, int64_t hole, int64_t top, qelem value) {
  int64_t parent = (hole - 1) / 2;
  while (hole > top && prio(*at(q, parent)) > prio(value)) {
    *at(q, hole) = *at(q, parent);
    hole = parent;
    parent = (hole - 1) / 2;
  }
  *at(q, hole) = value;
}

static qelem heap_pop(mt_queue* q) {
  const int64_t len = q->count - 1;
  qelem top = *at(q, 0), value = *at(q, len);
  int64_t hole = 0, child = 0;
  while (child < (len - 1) / 2) {
    child = 2 * (child + 1);
    if (prio(*at(q, child)) > prio(*at(q, child - 1))) child--;
    *at(q, hole) = *at(q, child);
    hole = child;
  }
  if ((len & 1) == 0 && child == (len - 2) / 2) {
    child = 2 * (child + 1);
    *at(q, hole) = *at(q, child - 1);
    hole = child - 1;
  }
  if (len > 0) heap_sift_up(q, hole, 0, value);
  q->count--;
  return top;
}

/* Adds e (taken over) at the back, or at the front for a FIFO restore.
 * 0 on OOM (e not taken). */
static int put(mt_queue* q, qelem e, int front) {
  front = front && (q->kind == Q_FIFO || q->kind == Q_PADDING);
  if (!reserve(q, front)) return 0;
  if (front) {
    q->items[--q->head] = e;
    q->count++;
  } else if (q->kind == Q_PRIORITY) {
    q->count++;
    heap_sift_up(q, q->count - 1, 0, e);
  } else {
    q->items[q->head + q->count++] = e;
  }
  return 1;
}

static qelem take(mt_queue* q) {
  if (q->kind == Q_PRIORITY) return heap_pop(q);
  if (q->kind == Q_SHUFFLE) {
    const int64_t i = (int64_t)(mt_sp_rand32(&q->rng) % (uint64_t)q->count);
    qelem e = *at(q, i);
    *at(q, i) = *at(q, q->count - 1);
    q->count--;
    return e;
  }
  q->count--;
  return q->items[q->head++];
}

/* Puts back what a failed multi-dequeue had taken, as TensorFlow restores
 * a partial batch (FIFO: at the front, in order; others: at the back, last
 * first). */
static void restore(mt_queue* q, qelem* taken, int64_t n) {
  for (int64_t i = n - 1; i >= 0; i--)
    if (!put(q, taken[i], 1)) elem_free(q, taken[i]);
}

/* ---- tensors ---- */

static int copy_elems(TF_DataType dt, void* dst, int64_t doff, const void* src, int64_t soff,
                      int64_t n) {
  if (dt == TF_STRING) {
    TF_TString* d = (TF_TString*)dst + doff;
    const TF_TString* s = (const TF_TString*)src + soff;
    for (int64_t i = 0; i < n; i++)
      TF_StringCopy(&d[i], TF_StringGetDataPointer(&s[i]), TF_StringGetSize(&s[i]));
    return 1;
  }
  const size_t es = TF_DataTypeSize(dt);
  if (es == 0) return 0;
  if (n) memcpy((char*)dst + doff * es, (const char*)src + soff * es, (size_t)n * es);
  return 1;
}

static int unhandled_type(mt_kernel_ctx* ctx, TF_DataType dt) {
  mt_status_setf(ctx->status, TF_UNIMPLEMENTED, "Unhandled data type: %s", mt_dtype_name(dt));
  return 0;
}

/* Element j of the batch tensor t (shape t->dims[1:]). */
static TF_Tensor* slice_of(mt_kernel_ctx* ctx, const TF_Tensor* t, int64_t j) {
  TF_Tensor* e = mt_tensor_new(t->dtype, t->dims + 1, t->ndims - 1, ctx->status);
  if (!e) return NULL;
  const int64_t n = mt_tensor_nelems(e);
  if (!copy_elems(t->dtype, mt_tensor_data(e), 0, mt_tensor_data(t), j * n, n)) {
    mt_tensor_free(e);
    unhandled_type(ctx, t->dtype);
    return NULL;
  }
  return e;
}

/* Copies `src` into the block of `dst` that starts at element `base`, whose
 * trailing dims are dst_dims (each >= src's): padding stays as it was. */
static void copy_padded(TF_Tensor* dst, int64_t base, const int64_t* dst_dims,
                        const TF_Tensor* src, int dim, int64_t soff) {
  const int r = src->ndims;
  if (r == 0) {
    copy_elems(src->dtype, mt_tensor_data(dst), base, mt_tensor_data(src), 0, 1);
    return;
  }
  if (dim == r - 1) {
    copy_elems(src->dtype, mt_tensor_data(dst), base, mt_tensor_data(src), soff,
               src->dims[r - 1]);
    return;
  }
  int64_t dstride = 1, sstride = 1;
  for (int k = dim + 1; k < r; k++) {
    dstride *= dst_dims[k];
    sstride *= src->dims[k];
  }
  for (int64_t i = 0; i < src->dims[dim]; i++)
    copy_padded(dst, base + i * dstride, dst_dims, src, dim + 1, soff + i * sstride);
}

/* ---- the queue resource ---- */

static mt_queue* input_queue(mt_kernel_ctx* ctx, const TF_Tensor* handle) {
  const mt_resource_handle* h = mt_resource_get(handle, ctx->status);
  if (!h) return NULL;
  if (!h->obj || h->obj->type_name != queue_type_name) {
    mt_status_setf(ctx->status, TF_NOT_FOUND, "Resource %s/%s does not exist.", h->container,
                   h->name);
    return NULL;
  }
  return (mt_queue*)h->obj;
}

typedef struct make_args {
  mt_kernel_ctx* ctx;
  int kind;
  const char* shared;
} make_args;

static int read_component_attrs(mt_queue* q, const TF_Operation* op, TF_Status* s) {
  const mt_attr_value* types = mt_op_attr(op, "component_types");
  const mt_attr_value* shapes = mt_op_attr(op, "shapes");
  const int nt = types && types->is_list ? types->list.n : 0;
  const int ns = shapes && shapes->is_list ? shapes->list.n : 0;
  const int extra = q->kind == Q_PRIORITY; /* the int64 priority comes first */
  if (ns && ns != nt) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Invalid argument: All shapes must be specified, but got %d shapes for %d "
                   "components",
                   ns, nt);
    return 0;
  }
  q->ncomp = nt + extra;
  q->types = mt_calloc((size_t)q->ncomp + 1, sizeof(TF_DataType), s);
  if (!q->types) return 0;
  if (extra) q->types[0] = TF_INT64;
  for (int i = 0; i < nt; i++) q->types[i + extra] = types->list.type[i];
  if (!ns && !extra) return 1;
  q->shapes = mt_calloc((size_t)q->ncomp + 1, sizeof(mt_shape), s);
  if (!q->shapes) return 0;
  if (extra) q->shapes[0] = mt_shape_scalar();
  for (int i = 0; i < ns; i++) {
    q->shapes[i + extra] = shapes->list.shape[i];
    if (q->kind != Q_PADDING && !mt_shape_known(&q->shapes[i + extra])) {
      char buf[128];
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Shape %s is not fully defined",
                     mt_shape_str(&q->shapes[i + extra], buf, sizeof buf));
      return 0;
    }
  }
  if (!ns && nt > 0) { /* a priority queue of no declared shapes: shapes unknown */
    free(q->shapes);
    q->shapes = NULL;
  }
  return 1;
}

static mt_variant* make_queue(void* arg, TF_Status* s) {
  const make_args* a = arg;
  const TF_Operation* op = a->ctx->op;
  mt_queue* q = mt_calloc(1, sizeof(*q), s);
  if (!q) return NULL;
  mt_variant_init(&q->base, queue_type_name, queue_destroy);
  pthread_mutex_init(&q->mu, NULL);
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&q->cv, &ca);
  pthread_condattr_destroy(&ca);
  q->kind = a->kind;
  const int64_t cap = mt_op_attr_int(op, "capacity", -1);
  q->capacity = cap < 0 ? INT32_MAX : cap;
  q->min_after_dequeue = mt_op_attr_int(op, "min_after_dequeue", 0);
  q->name = *a->shared ? strdup(a->shared) : mt_unique_resource_name(op->name);
  if (!q->name) mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM creating a queue");
  if (q->kind == Q_SHUFFLE) {
    uint64_t seed = (uint64_t)mt_op_attr_int(op, "seed", 0);
    uint64_t seed2 = (uint64_t)mt_op_attr_int(op, "seed2", 0);
    if (seed == 0 && seed2 == 0 &&
        (getrandom(&seed, sizeof seed, 0) != sizeof seed ||
         getrandom(&seed2, sizeof seed2, 0) != sizeof seed2))
      seed = (uint64_t)mt_monotonic_ns(), seed2 = (uint64_t)(uintptr_t)q;
    mt_philox g;
    mt_philox_seed(&g, seed, seed2);
    mt_simple_philox_init(&q->rng, &g);
  }
  if (!mt_ok(s) || !read_component_attrs(q, op, s)) {
    mt_variant_unref(&q->base);
    return NULL;
  }
  return &q->base;
}

static const char* types_str(const TF_DataType* t, int n, char* buf, size_t cap) {
  size_t off = 0;
  buf[0] = 0;
  for (int i = 0; i < n && off < cap; i++)
    off += (size_t)snprintf(buf + off, cap - off, "%s%s", i ? ", " : "", mt_dtype_name(t[i]));
  return buf;
}

/* TensorFlow's MatchesNodeDef for a queue found under a shared name. */
static int matches_node(mt_kernel_ctx* ctx, const mt_queue* q, int kind) {
  const TF_Operation* op = ctx->op;
  if (q->kind != kind) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Shared queue '%s' has type '%s' that does not match type of Node '%s': %s",
                   q->name, kind_op[q->kind], op->name, op->op_type);
    return 0;
  }
  int64_t cap = mt_op_attr_int(op, "capacity", -1);
  if (cap < 0) cap = INT32_MAX;
  if (cap != q->capacity) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Shared queue '%s' has capacity %lld but requested capacity was %lld",
                   q->name, (long long)q->capacity, (long long)cap);
    return 0;
  }
  const mt_attr_value* types = mt_op_attr(op, "component_types");
  const int extra = kind == Q_PRIORITY, nt = types ? types->list.n : 0;
  int same = nt + extra == q->ncomp;
  for (int i = 0; same && i < nt; i++) same = types->list.type[i] == q->types[i + extra];
  if (!same) {
    char a[256], b[256];
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Shared queue '%s' has component types %s but requested component types "
                   "were %s",
                   q->name, types_str(q->types + extra, q->ncomp - extra, a, sizeof a),
                   types_str(types ? types->list.type : NULL, nt, b, sizeof b));
    return 0;
  }
  return 1;
}

static void queue_op_kernel(mt_kernel_ctx* ctx, int kind) {
  const char* container = mt_op_attr_str(ctx->op, "container", "");
  const char* shared = mt_op_attr_str(ctx->op, "shared_name", "");
  if (!*container) container = "localhost";
  char key[1024];
  if (*shared)
    snprintf(key, sizeof key, "%s/%s", container, shared);
  else
    snprintf(key, sizeof key, "%s/node:%p", container, (const void*)ctx->op);
  make_args a = {ctx, kind, shared};
  int created = 0;
  mt_variant* obj =
      mt_state_object(ctx->state, key, queue_type_name, make_queue, &a, &created, ctx->status);
  if (!obj) return;
  mt_queue* q = (mt_queue*)obj;
  if (created || matches_node(ctx, q, kind))
    ctx->outputs[0] = mt_resource_tensor_obj(container, q->name, obj, ctx->status);
  mt_variant_unref(obj);
}

static void fifo_queue_kernel(mt_kernel_ctx* ctx) { queue_op_kernel(ctx, Q_FIFO); }
static void padding_queue_kernel(mt_kernel_ctx* ctx) { queue_op_kernel(ctx, Q_PADDING); }
static void shuffle_queue_kernel(mt_kernel_ctx* ctx) { queue_op_kernel(ctx, Q_SHUFFLE); }
static void priority_queue_kernel(mt_kernel_ctx* ctx) { queue_op_kernel(ctx, Q_PRIORITY); }

/* ---- waiting ---- */

/* Waits (q->mu held) for a change of the queue, one slice at most; 0 with
 * the status set when the step is cancelled or past its deadline. */
static int wait_change(mt_queue* q, mt_kernel_ctx* ctx, int enqueue) {
  if (ctx->cancelled && __atomic_load_n(ctx->cancelled, __ATOMIC_RELAXED)) {
    mt_status_setf(ctx->status, TF_CANCELLED, "%s operation was cancelled",
                   enqueue ? "Enqueue" : "Dequeue");
    return 0;
  }
  const int64_t now = mt_monotonic_ns();
  const int64_t deadline = ctx->ctl ? ctx->ctl->deadline_ns : 0;
  if (deadline > 0 && now >= deadline) {
    mt_status_setf(ctx->status, TF_DEADLINE_EXCEEDED, TIMED_OUT);
    return 0;
  }
  int64_t until = now + WAIT_SLICE_NS;
  if (deadline > 0 && deadline < until) until = deadline;
  struct timespec ts = {(time_t)(until / 1000000000), (long)(until % 1000000000)};
  pthread_cond_timedwait(&q->cv, &q->mu, &ts);
  return 1;
}

static int check_timeout_attr(mt_kernel_ctx* ctx) {
  if (mt_op_attr_int(ctx->op, "timeout_ms", -1) == -1) return 1;
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Timeout not supported yet.");
  return 0;
}

/* ---- enqueue ---- */

static int shape_matches(const mt_queue* q, int i, const int64_t* dims, int nd) {
  if (!q->shapes) return 1;
  const mt_shape* want = &q->shapes[i];
  if (want->rank < 0) return 1;
  if (want->rank != nd) return 0;
  for (int k = 0; k < nd; k++)
    if (want->dims[k] >= 0 && want->dims[k] != dims[k]) return 0;
  return 1;
}

static void shape_mismatch(mt_kernel_ctx* ctx, const mt_queue* q, int i, int64_t batch,
                           const TF_Tensor* t) {
  mt_shape want = q->shapes[i];
  if (batch >= 0 && want.rank >= 0 && want.rank < MT_MAX_DIMS) {
    memmove(want.dims + 1, want.dims, sizeof(int64_t) * (size_t)want.rank);
    want.dims[0] = batch;
    want.rank++;
  }
  mt_shape got = mt_shape_make(t->dims, t->ndims);
  char a[128], b[128];
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                 "Shape mismatch in tuple component %d. Expected %s, got %s", i,
                 mt_shape_str(&want, a, sizeof a), mt_shape_str(&got, b, sizeof b));
}

/* TensorFlow's ValidateTuple / ValidateManyTuple. Returns the batch size
 * (1 for a single element), -1 + status on error. */
static int64_t validate_tuple(mt_kernel_ctx* ctx, const mt_queue* q, int many) {
  const int n = ctx->ninputs - 1;
  TF_Tensor* const* c = ctx->inputs + 1;
  if (n != q->ncomp) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Wrong number of components in tuple. Expected %d, got %d", q->ncomp, n);
    return -1;
  }
  for (int i = 0; i < n; i++)
    if (c[i]->dtype != q->types[i]) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Type mismatch in tuple component %d. Expected %s, got %s", i,
                     mt_dtype_name(q->types[i]), mt_dtype_name(c[i]->dtype));
      return -1;
    }
  if (!many) {
    for (int i = 0; i < n; i++)
      if (!shape_matches(q, i, c[i]->dims, c[i]->ndims)) {
        shape_mismatch(ctx, q, i, -1, c[i]);
        return -1;
      }
    return 1;
  }
  for (int i = 0; i < n; i++)
    if (c[i]->ndims < 1) {
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                     "Shape mismatch in tuple component %d. Expected a batch of rank >= 1, "
                     "got []",
                     i);
      return -1;
    }
  const int64_t batch = c[0]->dims[0];
  for (int i = 0; i < n; i++) {
    if (q->shapes && !shape_matches(q, i, c[i]->dims + 1, c[i]->ndims - 1)) {
      shape_mismatch(ctx, q, i, batch, c[i]);
      return -1;
    }
    if (c[i]->dims[0] != batch) {
      if (q->shapes) {
        shape_mismatch(ctx, q, i, batch, c[i]);
      } else {
        mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                       "All input tensors must have the same size in the 0th dimension. "
                       "Component %d has %lld, and should have %lld",
                       i, (long long)c[i]->dims[0], (long long)batch);
      }
      return -1;
    }
  }
  return batch;
}

/* Element j of the enqueued tuple: the inputs themselves (shared) for a
 * single enqueue, slices of them for enqueue_many. */
static qelem make_elem(mt_kernel_ctx* ctx, const mt_queue* q, int many, int64_t j) {
  qelem e = mt_calloc((size_t)q->ncomp, sizeof(TF_Tensor*), ctx->status);
  for (int i = 0; e && i < q->ncomp; i++) {
    e[i] = many ? slice_of(ctx, ctx->inputs[1 + i], j) : mt_tensor_share(ctx->inputs[1 + i]);
    if (!e[i]) {
      elem_free(q, e);
      return NULL;
    }
  }
  return e;
}

static void enqueue_common(mt_kernel_ctx* ctx, int many) {
  mt_queue* q = input_queue(ctx, ctx->inputs[0]);
  if (!q || !check_timeout_attr(ctx)) return;
  const int64_t batch = validate_tuple(ctx, q, many);
  if (batch <= 0) return;
  pthread_mutex_lock(&q->mu);
  const int epoch = q->cancel_epoch;
  for (int64_t j = 0; j < batch;) {
    if (q->cancel_epoch != epoch) {
      mt_status_setf(ctx->status, TF_CANCELLED, "Enqueue operation was cancelled");
      break;
    }
    if (q->closed) {
      mt_status_setf(ctx->status, TF_CANCELLED, "%s '%s' is closed.", kind_msg[q->kind],
                     q->name);
      break;
    }
    if (q->count < q->capacity) {
      qelem e = make_elem(ctx, q, many, j);
      if (!e) break;
      if (!put(q, e, 0)) {
        elem_free(q, e);
        mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM enqueuing to %s '%s'",
                       kind_msg[q->kind], q->name);
        break;
      }
      j++;
      pthread_cond_broadcast(&q->cv);
      continue;
    }
    if (!wait_change(q, ctx, 1)) break;
  }
  pthread_mutex_unlock(&q->mu);
}

static void enqueue_kernel(mt_kernel_ctx* ctx) { enqueue_common(ctx, 0); }
static void enqueue_many_kernel(mt_kernel_ctx* ctx) { enqueue_common(ctx, 1); }

/* ---- dequeue ---- */

static void insufficient(mt_kernel_ctx* ctx, const mt_queue* q, int64_t requested,
                         int64_t size) {
  mt_status_setf(ctx->status, TF_OUT_OF_RANGE,
                 "%s '%s' is closed and has insufficient elements (requested %lld, current "
                 "size %lld)",
                 kind_msg[q->kind == Q_PADDING && requested == 1 ? Q_FIFO : q->kind], q->name,
                 (long long)requested, (long long)size);
}

/* Takes n elements into taken[] (q->mu held), blocking as needed. With
 * allow_small, a closed queue gives what it has. Returns the count taken,
 * -1 + status on error (nothing taken then). */
/* TensorFlow's PriorityQueue takes a batch only whole: it waits for n
 * elements; closed with fewer, it fails, and a dequeue_up_to first takes
 * (and loses) what is left, naming the shortfall, as TensorFlow 2.21 does. */
static int64_t take_n_priority(mt_kernel_ctx* ctx, mt_queue* q, int64_t n, int allow_small,
                               qelem* taken) {
  while (q->count < n) {
    if (q->closed) {
      const int64_t size = q->count;
      if (allow_small) {
        while (q->count > 0) elem_free(q, take(q));
        pthread_cond_broadcast(&q->cv);
        insufficient(ctx, q, n - size, 0);
      } else {
        insufficient(ctx, q, n, size);
      }
      return -1;
    }
    if (!wait_change(q, ctx, 0)) return -1;
  }
  for (int64_t i = 0; i < n; i++) taken[i] = take(q);
  pthread_cond_broadcast(&q->cv);
  return n;
}

static int64_t take_n(mt_kernel_ctx* ctx, mt_queue* q, int64_t n, int allow_small,
                      qelem* taken) {
  if (q->kind == Q_PRIORITY) return take_n_priority(ctx, q, n, allow_small, taken);
  int64_t got = 0;
  for (;;) {
    const int64_t size = q->count;
    if (q->closed && size < n - got) {
      restore(q, taken, got);
      if (allow_small && q->count > 0) {
        n = q->count;
        got = 0;
        continue;
      }
      insufficient(ctx, q, n - got, size);
      return -1;
    }
    int64_t avail = size - (q->kind == Q_SHUFFLE && !q->closed ? q->min_after_dequeue : 0);
    const int64_t before = got;
    for (; avail > 0 && got < n; avail--) taken[got++] = take(q);
    if (got > before) pthread_cond_broadcast(&q->cv);
    if (got == n) return got;
    if (!wait_change(q, ctx, 0)) {
      /* as TensorFlow's cancelled attempt: what it had taken is dropped */
      for (int64_t i = 0; i < got; i++) elem_free(q, taken[i]);
      return -1;
    }
  }
}

/* The batch of k elements as the op's outputs: [k] + shape per component
 * (a PaddingFIFOQueue pads each unknown dim to the batch's largest). */
static void batch_outputs(mt_kernel_ctx* ctx, const mt_queue* q, qelem* e, int64_t k) {
  for (int i = 0; i < q->ncomp && mt_ok(ctx->status); i++) {
    int64_t dims[MT_MAX_DIMS + 1];
    dims[0] = k;
    const mt_shape* sh = &q->shapes[i];
    for (int d = 0; d < sh->rank; d++) {
      dims[1 + d] = sh->dims[d] >= 0 ? sh->dims[d] : 0;
      for (int64_t j = 0; j < k && sh->dims[d] < 0; j++)
        if (e[j][i]->dims[d] > dims[1 + d]) dims[1 + d] = e[j][i]->dims[d];
    }
    TF_Tensor* out = mt_tensor_zeros(q->types[i], dims, sh->rank + 1, ctx->status);
    if (!out) return;
    ctx->outputs[i] = out;
    const int64_t block = mt_num_elements(dims + 1, sh->rank);
    if (TF_DataTypeSize(q->types[i]) == 0 && q->types[i] != TF_STRING) {
      unhandled_type(ctx, q->types[i]);
      return;
    }
    for (int64_t j = 0; j < k; j++) copy_padded(out, j * block, dims + 1, e[j][i], 0, 0);
  }
}

static int64_t read_n(mt_kernel_ctx* ctx, const char* op) {
  const TF_Tensor* t = ctx->inputs[1];
  if (t->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "n must be a scalar");
    return -1;
  }
  const int64_t n = *(const int32_t*)mt_tensor_data(t);
  if (n < 0)
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "%s requested %lld < 0 elements", op,
                   (long long)n);
  return n;
}

static int check_out_types(mt_kernel_ctx* ctx, const mt_queue* q) {
  int same = ctx->noutputs == q->ncomp;
  for (int i = 0; same && i < q->ncomp; i++) same = ctx->op->output_types[i] == q->types[i];
  if (same) return 1;
  char a[256], b[256];
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                 "Dequeue operation expects component types %s but the queue has component "
                 "types %s",
                 types_str(ctx->op->output_types, ctx->noutputs, a, sizeof a),
                 types_str(q->types, q->ncomp, b, sizeof b));
  return 0;
}

static void dequeue_kernel(mt_kernel_ctx* ctx) {
  mt_queue* q = input_queue(ctx, ctx->inputs[0]);
  if (!q || !check_timeout_attr(ctx) || !check_out_types(ctx, q)) return;
  qelem e = NULL;
  pthread_mutex_lock(&q->mu);
  const int64_t got = take_n(ctx, q, 1, 0, &e);
  pthread_mutex_unlock(&q->mu);
  if (got != 1) return;
  for (int i = 0; i < q->ncomp; i++) ctx->outputs[i] = e[i]; /* the element's handles move out */
  free(e);
}

static void dequeue_many_common(mt_kernel_ctx* ctx, int allow_small) {
  mt_queue* q = input_queue(ctx, ctx->inputs[0]);
  if (!q || !check_timeout_attr(ctx) || !check_out_types(ctx, q)) return;
  const int64_t n = read_n(ctx, allow_small ? "DequeueUpToOp" : "DequeueManyOp");
  if (n < 0) return;
  if (!q->shapes) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "%s's DequeueMany and DequeueUpTo require the components to have specified "
                   "shapes.",
                   kind_msg[q->kind]);
    return;
  }
  qelem* taken = mt_calloc((size_t)n + 1, sizeof(qelem), ctx->status);
  if (!taken) return;
  int64_t got = 0;
  if (n > 0) {
    pthread_mutex_lock(&q->mu);
    got = take_n(ctx, q, n, allow_small, taken);
    pthread_mutex_unlock(&q->mu);
  }
  if (got >= 0) batch_outputs(ctx, q, taken, got);
  for (int64_t j = 0; j < got; j++) elem_free(q, taken[j]);
  free(taken);
}

static void dequeue_many_kernel(mt_kernel_ctx* ctx) { dequeue_many_common(ctx, 0); }
static void dequeue_up_to_kernel(mt_kernel_ctx* ctx) { dequeue_many_common(ctx, 1); }

int mt_queue_dequeue_string(mt_kernel_ctx* ctx, const TF_Tensor* handle, char** out,
                            size_t* len) {
  mt_queue* q = input_queue(ctx, handle);
  if (!q) return 0;
  qelem e = NULL;
  pthread_mutex_lock(&q->mu);
  const int64_t got = take_n(ctx, q, 1, 0, &e);
  pthread_mutex_unlock(&q->mu);
  if (got != 1) return 0;
  int ok = q->ncomp == 1 && e[0]->dtype == TF_STRING && e[0]->ndims == 0;
  if (!ok) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT,
                   "Expected to dequeue a one-element string tensor");
  } else {
    const TF_TString* s = mt_tensor_data(e[0]);
    *len = TF_StringGetSize(s);
    *out = malloc(*len + 1);
    if (*out) {
      memcpy(*out, TF_StringGetDataPointer(s), *len);
      (*out)[*len] = 0;
    } else {
      ok = 0;
      mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM reading a work item");
    }
  }
  elem_free(q, e);
  return ok;
}

/* ---- close, size ---- */

static void close_kernel(mt_kernel_ctx* ctx) {
  mt_queue* q = input_queue(ctx, ctx->inputs[0]);
  if (!q) return;
  pthread_mutex_lock(&q->mu);
  if (mt_op_attr_bool(ctx->op, "cancel_pending_enqueues", 0))
    q->cancel_epoch++;
  else if (q->closed) /* TensorFlow's plain close of a closed queue fails */
    mt_status_setf(ctx->status, TF_CANCELLED, "Queue '%s' is already closed.", q->name);
  q->closed = 1;
  pthread_cond_broadcast(&q->cv);
  pthread_mutex_unlock(&q->mu);
}

static void size_kernel(mt_kernel_ctx* ctx) {
  mt_queue* q = input_queue(ctx, ctx->inputs[0]);
  if (!q) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_INT32, NULL, 0);
  if (!out) return;
  pthread_mutex_lock(&q->mu);
  *(int32_t*)mt_tensor_data(out) = (int32_t)q->count;
  pthread_mutex_unlock(&q->mu);
}

static void is_closed_kernel(mt_kernel_ctx* ctx) {
  mt_queue* q = input_queue(ctx, ctx->inputs[0]);
  if (!q) return;
  TF_Tensor* out = mt_ctx_alloc(ctx, 0, TF_BOOL, NULL, 0);
  if (!out) return;
  pthread_mutex_lock(&q->mu);
  *(unsigned char*)mt_tensor_data(out) = (unsigned char)q->closed;
  pthread_mutex_unlock(&q->mu);
}

/* ---- shapes and registration ---- */

static void scalar_shape(mt_shape_ctx* ctx) {
  for (int i = 0; i < ctx->noutputs; i++) ctx->out[i] = mt_shape_scalar();
}

static void handle_input_shape(mt_shape_ctx* ctx) {
  if (mt_shape_with_rank(ctx, 0, 0)) scalar_shape(ctx);
}

#define QUEUE_ATTRS "capacity: int = -1; container: string = ''; shared_name: string = ''"

static const mt_op_spec queue_specs[] = {
    {.name = "FIFOQueueV2", .outputs = "handle: resource",
     .attrs = "component_types: list(type) >= 1; shapes: list(shape) >= 0 = []; " QUEUE_ATTRS,
     .shape = scalar_shape, .kernel = fifo_queue_kernel, .flags = MT_OP_STATEFUL},
    {.name = "PaddingFIFOQueueV2", .outputs = "handle: resource",
     .attrs = "component_types: list(type) >= 1; shapes: list(shape) >= 0 = []; " QUEUE_ATTRS,
     .shape = scalar_shape, .kernel = padding_queue_kernel, .flags = MT_OP_STATEFUL},
    {.name = "RandomShuffleQueueV2", .outputs = "handle: resource",
     .attrs = "component_types: list(type) >= 1; shapes: list(shape) >= 0 = []; "
              "capacity: int = -1; min_after_dequeue: int = 0; seed: int = 0; seed2: int = 0; "
              "container: string = ''; shared_name: string = ''",
     .shape = scalar_shape, .kernel = shuffle_queue_kernel, .flags = MT_OP_STATEFUL},
    {.name = "PriorityQueueV2", .outputs = "handle: resource",
     .attrs = "component_types: list(type) >= 0 = []; shapes: list(shape) >= 0; " QUEUE_ATTRS,
     .shape = scalar_shape, .kernel = priority_queue_kernel, .flags = MT_OP_STATEFUL},
    {.name = "QueueEnqueueV2", .inputs = "handle: resource, components: Tcomponents",
     .attrs = "Tcomponents: list(type) >= 1; timeout_ms: int = -1",
     .kernel = enqueue_kernel, .flags = MT_OP_STATEFUL},
    {.name = "QueueEnqueueManyV2", .inputs = "handle: resource, components: Tcomponents",
     .attrs = "Tcomponents: list(type) >= 1; timeout_ms: int = -1",
     .kernel = enqueue_many_kernel, .flags = MT_OP_STATEFUL},
    {.name = "QueueDequeueV2", .inputs = "handle: resource",
     .outputs = "components: component_types",
     .attrs = "component_types: list(type) >= 1; timeout_ms: int = -1",
     .kernel = dequeue_kernel, .flags = MT_OP_STATEFUL},
    {.name = "QueueDequeueManyV2", .inputs = "handle: resource, n: int32",
     .outputs = "components: component_types",
     .attrs = "component_types: list(type) >= 1; timeout_ms: int = -1",
     .kernel = dequeue_many_kernel, .flags = MT_OP_STATEFUL},
    {.name = "QueueDequeueUpToV2", .inputs = "handle: resource, n: int32",
     .outputs = "components: component_types",
     .attrs = "component_types: list(type) >= 1; timeout_ms: int = -1",
     .kernel = dequeue_up_to_kernel, .flags = MT_OP_STATEFUL},
    {.name = "QueueCloseV2", .inputs = "handle: resource",
     .attrs = "cancel_pending_enqueues: bool = false", .kernel = close_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "QueueSizeV2", .inputs = "handle: resource", .outputs = "size: int32",
     .shape = handle_input_shape, .kernel = size_kernel, .flags = MT_OP_STATEFUL},
    {.name = "QueueIsClosedV2", .inputs = "handle: resource", .outputs = "is_closed: bool",
     .shape = handle_input_shape, .kernel = is_closed_kernel, .flags = MT_OP_STATEFUL},
};

void mt_register_queue_ops(void) {
  mt_register_ops(queue_specs, (int)(sizeof queue_specs / sizeof queue_specs[0]));
}
