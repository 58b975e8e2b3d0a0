/* The executor: plans built once per (feeds, fetches, targets) signature
 * and run many times. A plan lists the needed nodes in topological order,
 * with each node's input slots and output slots resolved to integers and
 * each slot's number of uses, so that a run is a loop over nodes that frees
 * every intermediate right after its last use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernel.h"
#include "runtime/placement.h"
#include "runtime/resource.h"
#include "runtime/session.h"
#include "runtime/executor_internal.h"

int mt_is_next_iteration(const TF_Operation* op) {
  return strcmp(op->op_type, "NextIteration") == 0 || strcmp(op->op_type, "RefNextIteration") == 0;
}

int mt_is_control_flow_op(const TF_Operation* op) {
  static const char* const types[] = {"Switch", "RefSwitch", "Merge", "RefMerge", "Enter",
                                      "RefEnter", "Exit", "RefExit", "NextIteration",
                                      "RefNextIteration"};
  for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
    if (strcmp(op->op_type, types[k]) == 0) return 1;
  return 0;
}

void mt_plan_free(mt_plan* p) {
  if (!p) return;
  mt_cf_plan_free(p->cf);
  for (int k = 0; k < p->nnodes; k++) free(p->nodes[k].in_slots);
  free(p->nodes);
  free(p->uses);
  free(p->feed_slots);
  free(p->feed_types);
  free(p->feed_shapes);
  free(p->fetch_slots);
  free(p->fetch_outputs);
  free(p);
}

/* Scratch for building: per graph op id. */
typedef struct builder {
  TF_Graph* g;
  int nops;
  unsigned char* needed;   /* op must run */
  int* slot_base;          /* first slot of op's outputs, -1 if none yet */
  int nslots;
  /* fed[(op,idx)] lookup: list of feeds */
  const TF_Output* feeds;
  int nfeeds;
} builder;

static int fed_index(const builder* b, TF_Operation* op, int idx) {
  for (int k = 0; k < b->nfeeds; k++)
    if (b->feeds[k].oper == op && b->feeds[k].index == idx) return k;
  return -1;
}

static int slot_of(builder* b, TF_Operation* op, int idx) {
  if (b->slot_base[op->id] < 0) {
    b->slot_base[op->id] = b->nslots;
    b->nslots += op->noutputs;
  }
  return b->slot_base[op->id] + idx;
}

static int valid_output(TF_Graph* g, TF_Output o) {
  return o.oper && o.oper->graph == g && o.oper->id < g->nops && g->ops[o.oper->id] == o.oper &&
         o.index >= 0 && o.index < o.oper->noutputs;
}

/* Marks every op needed for the fetches/targets, walking inputs backwards
 * and stopping at fed tensors. */
static int mark_needed(builder* b, const TF_Output* fetches, int nfetches,
                       const TF_Operation* const* targets, int ntargets, TF_Status* s) {
  TF_Operation** stack = mt_calloc((size_t)b->nops + 1, sizeof(TF_Operation*), s);
  if (!stack) return 0;
  int top = 0;
  for (int k = 0; k < nfetches; k++) {
    if (fed_index(b, fetches[k].oper, fetches[k].index) >= 0) continue;
    TF_Operation* op = fetches[k].oper;
    if (!b->needed[op->id]) {
      b->needed[op->id] = 1;
      stack[top++] = op;
    }
  }
  for (int k = 0; k < ntargets; k++) {
    TF_Operation* op = (TF_Operation*)targets[k];
    if (!b->needed[op->id]) {
      b->needed[op->id] = 1;
      stack[top++] = op;
    }
  }
  while (top > 0) {
    TF_Operation* op = stack[--top];
    for (int k = 0; k < op->ninputs; k++) {
      TF_Output in = op->inputs[k];
      if (fed_index(b, in.oper, in.index) >= 0 || b->needed[in.oper->id]) continue;
      b->needed[in.oper->id] = 1;
      stack[top++] = in.oper;
    }
    for (int k = 0; k < op->ncontrol_inputs; k++) {
      TF_Operation* c = op->control_inputs[k];
      if (b->needed[c->id] || mt_fed_placeholder(c, b->feeds, b->nfeeds)) continue;
      b->needed[c->id] = 1;
      stack[top++] = c;
    }
  }
  free(stack);
  return 1;
}

/* Kahn's algorithm over the needed ops; data edges from fed tensors do not
 * count, nor do edges out of NextIteration (a loop's back edge into its
 * Merge, which TensorFlow leaves out of the topological check too). Fails
 * on a cycle. */
static int order_nodes(builder* b, mt_plan* p, TF_Status* s) {
  int* indeg = mt_calloc((size_t)b->nops, sizeof(int), s);
  TF_Operation** queue = mt_calloc((size_t)b->nops + 1, sizeof(TF_Operation*), s);
  int needed = 0;
  if (!mt_ok(s)) goto done;
  for (int i = 0; i < b->nops; i++) {
    if (!b->needed[i]) continue;
    needed++;
    TF_Operation* op = b->g->ops[i];
    for (int k = 0; k < op->ninputs; k++)
      if (fed_index(b, op->inputs[k].oper, op->inputs[k].index) < 0 &&
          !mt_is_next_iteration(op->inputs[k].oper))
        indeg[i]++;
    for (int k = 0; k < op->ncontrol_inputs; k++)
      indeg[i] += !mt_fed_placeholder(op->control_inputs[k], b->feeds, b->nfeeds);
  }
  int head = 0, tail = 0;
  for (int i = 0; i < b->nops; i++)
    if (b->needed[i] && indeg[i] == 0) queue[tail++] = b->g->ops[i];
  p->nodes = mt_calloc((size_t)needed, sizeof(plan_node), s);
  if (!p->nodes) goto done;
  while (head < tail) {
    TF_Operation* op = queue[head++];
    p->nodes[p->nnodes++].op = op;
    int back = mt_is_next_iteration(op);
    for (int o = 0; o < op->noutputs && !back; o++) {
      if (fed_index(b, op, o) >= 0) continue;
      for (int c = 0; c < op->consumers[o].n; c++) {
        TF_Operation* to = op->consumers[o].items[c].oper;
        if (b->needed[to->id] && --indeg[to->id] == 0) queue[tail++] = to;
      }
    }
    for (int c = 0; c < op->ncontrol_outputs && !mt_fed_placeholder(op, b->feeds, b->nfeeds);
         c++) {
      TF_Operation* to = op->control_outputs[c];
      if (b->needed[to->id] && --indeg[to->id] == 0) queue[tail++] = to;
    }
  }
  if (p->nnodes != needed) {
    const char* at = "?";
    for (int i = 0; i < b->nops; i++)
      if (b->needed[i] && indeg[i] > 0) { at = b->g->ops[i]->name; break; }
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Graph contains a cycle at node '%s'", at);
  }
done:
  free(indeg);
  free(queue);
  return mt_ok(s);
}

/* Resolves slots: outputs of planned ops, fed tensors, uses. */
static int assign_slots(builder* b, mt_plan* p, const TF_Output* fetches, int nfetches,
                        TF_Status* s) {
  for (int k = 0; k < p->nnodes; k++) slot_of(b, p->nodes[k].op, 0);
  p->feed_slots = mt_calloc((size_t)b->nfeeds, sizeof(int), s);
  p->feed_types = mt_calloc((size_t)b->nfeeds, sizeof(TF_DataType), s);
  p->feed_shapes = mt_calloc((size_t)b->nfeeds, sizeof(mt_shape), s);
  p->fetch_slots = mt_calloc((size_t)nfetches, sizeof(int), s);
  p->fetch_outputs = mt_calloc((size_t)nfetches + 1, sizeof(TF_Output), s);
  if (!mt_ok(s)) return 0;
  if (nfetches) memcpy(p->fetch_outputs, fetches, sizeof(TF_Output) * (size_t)nfetches);
  p->nfeeds = b->nfeeds;
  for (int k = 0; k < b->nfeeds; k++) {
    p->feed_slots[k] = slot_of(b, b->feeds[k].oper, b->feeds[k].index);
    p->feed_types[k] = b->feeds[k].oper->output_types[b->feeds[k].index];
    p->feed_shapes[k] = b->feeds[k].oper->output_shapes[b->feeds[k].index];
  }
  p->nfetches = nfetches;
  for (int k = 0; k < nfetches; k++) p->fetch_slots[k] = slot_of(b, fetches[k].oper, fetches[k].index);
  p->nslots = b->nslots;
  p->uses = mt_calloc((size_t)p->nslots, sizeof(int), s);
  if (!p->uses) return 0;
  for (int k = 0; k < p->nnodes; k++) {
    plan_node* n = &p->nodes[k];
    n->out_base = b->slot_base[n->op->id];
    n->konst = mt_const_value(n->op);
    n->in_slots = mt_calloc((size_t)n->op->ninputs, sizeof(int), s);
    if (!n->in_slots) return 0;
    for (int i = 0; i < n->op->ninputs; i++) {
      n->in_slots[i] = slot_of(b, n->op->inputs[i].oper, n->op->inputs[i].index);
      p->uses[n->in_slots[i]]++;
    }
    if (n->op->ninputs > p->max_inputs) p->max_inputs = n->op->ninputs;
    if (n->op->noutputs > p->max_outputs) p->max_outputs = n->op->noutputs;
  }
  /* the slot count may have grown for inputs that are fed outputs of
   * unplanned ops; those slots were allocated by slot_of above */
  if (b->nslots != p->nslots) {
    int* grown = realloc(p->uses, sizeof(int) * (size_t)b->nslots);
    if (!grown) return 0;
    memset(grown + p->nslots, 0, sizeof(int) * (size_t)(b->nslots - p->nslots));
    p->uses = grown;
    p->nslots = b->nslots;
  }
  for (int k = 0; k < nfetches; k++) p->uses[p->fetch_slots[k]]++;
  return 1;
}

mt_plan* mt_plan_build(TF_Graph* g, const TF_Output* feeds, int nfeeds, const TF_Output* fetches,
                       int nfetches, const TF_Operation* const* targets, int ntargets,
                       TF_Status* s) {
  for (int k = 0; k < nfeeds; k++) {
    if (!valid_output(g, feeds[k])) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Feed %d is not an output of an operation in the graph", k);
      return NULL;
    }
    for (int j = 0; j < k; j++)
      if (feeds[j].oper == feeds[k].oper && feeds[j].index == feeds[k].index) {
        mt_status_setf(s, TF_INVALID_ARGUMENT, "%s:%d fed more than once.", feeds[k].oper->name,
                       feeds[k].index);
        return NULL;
      }
  }
  for (int k = 0; k < nfetches; k++)
    if (!valid_output(g, fetches[k])) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Fetch %d is not an output of an operation in the graph", k);
      return NULL;
    }
  for (int k = 0; k < ntargets; k++)
    if (!targets[k] || targets[k]->graph != g || g->ops[targets[k]->id] != targets[k]) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Target %d is not an operation in the graph", k);
      return NULL;
    }
  builder b = {g, g->nops, NULL, NULL, 0, feeds, nfeeds};
  mt_plan* p = mt_calloc(1, sizeof(mt_plan), s);
  b.needed = mt_calloc((size_t)g->nops, 1, s);
  b.slot_base = mt_calloc((size_t)g->nops, sizeof(int), s);
  if (mt_ok(s)) {
    for (int i = 0; i < g->nops; i++) b.slot_base[i] = -1;
    if (mark_needed(&b, fetches, nfetches, targets, ntargets, s) && order_nodes(&b, p, s) &&
        assign_slots(&b, p, fetches, nfetches, s)) {
      int cf = 0;
      for (int k = 0; k < p->nnodes && !cf; k++) cf = mt_is_control_flow_op(p->nodes[k].op);
      if (cf) mt_cf_plan_build(p, g, feeds, nfeeds, s);
    }
  }
  free(b.needed);
  free(b.slot_base);
  if (!mt_ok(s)) {
    mt_plan_free(p);
    return NULL;
  }
  return p;
}

/* Nodes without inputs (constants) are checked last: TensorFlow's placer places such
 * generator nodes with their consumer, so the consumer is the node its error names. */
int mt_plan_check_devices(const mt_plan* p, int cpus, TF_Status* s) {
  for (int pass = 0; pass < 2; pass++)
    for (int k = 0; k < p->nnodes; k++) {
      const TF_Operation* op = p->nodes[k].op;
      if ((op->ninputs == 0) != pass) continue;
      if (!mt_check_device(op->name, op->device, cpus, s)) return 0;
    }
  return 1;
}

const TF_Tensor* mt_const_value(const TF_Operation* op) {
  if (strcmp(op->op_type, "Const") != 0 || op->noutputs != 1 || !op->def->kernel) return NULL;
  const mt_attr_value* v = mt_op_attr(op, "value");
  if (!v || v->kind != MT_ATTR_TENSOR || v->is_list || !v->v.tensor) return NULL;
  return v->v.tensor->dtype == op->output_types[0] ? v->v.tensor : NULL;
}

/* ---- running ---- */

int mt_check_feed(const mt_plan* p, int k, const TF_Tensor* t, TF_Status* s) {
  if (!t) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Feed %d is NULL", k);
    return 0;
  }
  if (t->dtype != mt_dtype_base(p->feed_types[k])) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Expects arg[%d] to be %s but %s is provided", k,
                   mt_dtype_name(mt_dtype_base(p->feed_types[k])), mt_dtype_name(t->dtype));
    return 0;
  }
  const mt_shape* want = &p->feed_shapes[k];
  /* the common cases without building shapes: unknown rank, or the same
   * rank with every known dim equal */
  if (want->rank < 0) return 1;
  if (want->rank == t->ndims) {
    int i = 0;
    while (i < t->ndims && (want->dims[i] < 0 || want->dims[i] == t->dims[i])) i++;
    if (i == t->ndims) return 1;
  }
  mt_shape got = mt_shape_make(t->dims, t->ndims);
  mt_shape merged = *want;
  if (!mt_shape_merge(&merged, &got)) {
    char a[256], b[256];
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Cannot feed value of shape %s for a tensor which has shape %s",
                   mt_shape_str(&got, a, sizeof(a)), mt_shape_str(want, b, sizeof(b)));
    return 0;
  }
  return 1;
}

/* The value behind ref input i of op ("node:idx" names it in errors). */
static TF_Tensor* deref_input(const TF_Operation* op, int i, const TF_Tensor* ref, TF_Status* s) {
  char name[512];
  const TF_Output src = op->inputs[i];
  if (src.index) snprintf(name, sizeof name, "%s:%d", src.oper->name, src.index);
  else snprintf(name, sizeof name, "%s", src.oper->name);
  return mt_ref_deref(ref, name, s);
}

/* A fetched slot as the caller sees it: a ref is fetched as its value. */
TF_Tensor* mt_fetch_value(TF_Tensor* t, TF_Output o, TF_Status* s) {
  if (!t || !mt_dtype_is_ref(t->dtype)) return t ? mt_tensor_share(t) : NULL;
  char name[512];
  if (o.index) snprintf(name, sizeof name, "%s:%d", o.oper->name, o.index);
  else snprintf(name, sizeof name, "%s", o.oper->name);
  return mt_ref_deref(t, name, s);
}

void mt_exec_kernel(TF_Operation* op, TF_Tensor** in_buf, unsigned char* fwd,
                    unsigned char* movable, TF_Tensor** out_buf, mt_session_state* st,
                    const struct TF_SessionOptions* opts, const mt_run_ctl* ctl, TF_Status* s) {
  if (!op->def->kernel) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "No OpKernel was registered to support Op '%s' used by {{node %s}}",
                   op->op_type, op->name);
    return;
  }
  /* A ref value (VariableV2's output) read by a non-ref input is the
   * variable's current value, borrowed for this call. */
  unsigned char* borrowed = NULL;
  for (int i = 0; i < op->ninputs && mt_ok(s); i++)
    if (in_buf[i] && mt_dtype_is_ref(in_buf[i]->dtype) && !mt_dtype_is_ref(op->input_types[i])) {
      if (!borrowed && !(borrowed = mt_calloc((size_t)op->ninputs, 1, s))) break;
      in_buf[i] = deref_input(op, i, in_buf[i], s);
      borrowed[i] = in_buf[i] != NULL;
      fwd[i] = 0;
      if (movable) movable[i] = 0;
    }
  for (int o = 0; o < op->noutputs; o++) out_buf[o] = NULL;
  mt_kernel_ctx ctx = {op, op->ninputs, in_buf, fwd, op->noutputs, out_buf,
                       st, NULL, opts ? opts->intra_op_threads : 0, s,
                       ctl ? ctl->cancelled : NULL, ctl, movable};
  if (mt_ok(s)) op->def->kernel(&ctx);
  if (borrowed) {
    for (int i = 0; i < op->ninputs; i++)
      if (borrowed[i]) mt_tensor_free(in_buf[i]);
    free(borrowed);
  }
}

static void run_node(const plan_node* n, TF_Tensor** slots, int* uses, TF_Tensor** in_buf,
                     TF_Tensor** out_buf, unsigned char* fwd, mt_session_state* st,
                     const struct TF_SessionOptions* opts, const mt_run_ctl* ctl, TF_Status* s) {
  TF_Operation* op = n->op;
  if (n->konst) { /* what const_kernel does, without the call */
    if (!slots[n->out_base]) slots[n->out_base] = mt_tensor_share(n->konst);
    return;
  }
  unsigned char* movable = fwd + op->ninputs;
  for (int i = 0; i < op->ninputs; i++) {
    int slot = n->in_slots[i];
    in_buf[i] = slots[slot];
    /* last read of a slot no other input of this node shares: its handle
     * may move to an output, its buffer may be reused in place */
    int shared = 0;
    for (int j = 0; j < op->ninputs; j++) shared |= j != i && n->in_slots[j] == slot;
    movable[i] = uses[slot] == 1 && !shared && in_buf[i];
    fwd[i] = movable[i] && mt_tensor_unique(in_buf[i]);
  }
  mt_exec_kernel(op, in_buf, fwd, movable, out_buf, st, opts, ctl, s);
  for (int i = 0; i < op->ninputs; i++)
    if (movable[i] == 2) slots[n->in_slots[i]] = NULL; /* an output has its handle now */
  for (int o = 0; o < op->noutputs; o++) {
    TF_Tensor** slot = &slots[n->out_base + o];
    if (*slot) { /* this output was fed: the fed value wins */
      mt_tensor_free(out_buf[o]);
    } else {
      *slot = out_buf[o];
      if (!*slot && uses[n->out_base + o] > 0 && mt_ok(s))
        mt_status_setf(s, TF_INTERNAL, "Kernel did not set output %d", o);
    }
  }
  if (mt_node_error(s)) mt_status_append(s, "\n\t [[{{node %s}}]]", op->name);
}

/* Drops a node's input reads and frees slots nobody reads any more. */
static void release(const plan_node* n, TF_Tensor** slots, int* uses) {
  for (int i = 0; i < n->op->ninputs; i++) {
    int slot = n->in_slots[i];
    if (--uses[slot] == 0) {
      mt_tensor_free(slots[slot]);
      slots[slot] = NULL;
    }
  }
  for (int o = 0; o < n->op->noutputs; o++) {
    int slot = n->out_base + o;
    if (uses[slot] == 0) {
      mt_tensor_free(slots[slot]);
      slots[slot] = NULL;
    }
  }
}

void mt_plan_run(mt_plan* p, mt_session_state* st, TF_Tensor* const* feed_values,
                 TF_Tensor** outputs, const struct TF_SessionOptions* opts, TF_Status* s) {
  mt_plan_run_traced(p, st, feed_values, outputs, opts, NULL, s);
}

/* Runs node k, timing it into stats->nodes when tracing. */
static void run_timed(const plan_node* n, TF_Tensor** slots, int* uses, TF_Tensor** in_buf,
                      TF_Tensor** out_buf, unsigned char* fwd, mt_session_state* st,
                      const struct TF_SessionOptions* opts, const mt_run_ctl* ctl,
                      mt_step_stats* stats, TF_Status* s) {
  if (!stats) {
    run_node(n, slots, uses, in_buf, out_buf, fwd, st, opts, ctl, s);
    release(n, slots, uses);
    return;
  }
  mt_node_stats* ns = &stats->nodes[stats->n++];
  ns->op = n->op;
  ns->all_start_ns = mt_now_ns();
  ns->op_start_rel_ns = mt_now_ns() - ns->all_start_ns;
  run_node(n, slots, uses, in_buf, out_buf, fwd, st, opts, ctl, s);
  ns->op_end_rel_ns = mt_now_ns() - ns->all_start_ns;
  release(n, slots, uses);
  ns->all_end_rel_ns = mt_now_ns() - ns->all_start_ns;
}

void mt_plan_run_traced(mt_plan* p, mt_session_state* st, TF_Tensor* const* feed_values,
                        TF_Tensor** outputs, const struct TF_SessionOptions* opts,
                        mt_step_stats* stats, TF_Status* s) {
  mt_plan_run_ctl(p, st, feed_values, outputs, opts, NULL, stats, s);
}

#define TIMED_OUT "Timed out waiting for notification"

int mt_run_ctl_expired(const mt_run_ctl* ctl, TF_Status* s) {
  if (!ctl || ctl->deadline_ns <= 0 || mt_monotonic_ns() < ctl->deadline_ns) return 0;
  mt_status_setf(s, TF_DEADLINE_EXCEEDED, TIMED_OUT);
  return 1;
}

int mt_node_error(const TF_Status* s) {
  return !mt_ok(s) && !(s->code == TF_DEADLINE_EXCEEDED && s->msg && strcmp(s->msg, TIMED_OUT) == 0);
}

int mt_run_ctl_stopped(const mt_run_ctl* ctl, TF_Status* s) {
  if (!ctl) return 0;
  if (ctl->cancelled && __atomic_load_n(ctl->cancelled, __ATOMIC_RELAXED)) {
    mt_status_setf(s, TF_CANCELLED, "Loop execution was cancelled.");
    return 1;
  }
  return mt_run_ctl_expired(ctl, s);
}

/* The run; with `donated`, feed_values are the caller's handles to move into
 * the plan (each set to NULL once taken), so a kernel may update a fed value
 * nothing else holds in place. */
static void plan_run(mt_plan* p, mt_session_state* st, TF_Tensor** feed_values, int donated,
                     TF_Tensor** outputs, const struct TF_SessionOptions* opts,
                     const mt_run_ctl* ctl, mt_step_stats* stats, TF_Status* s);

void mt_plan_run_ctl(mt_plan* p, mt_session_state* st, TF_Tensor* const* feed_values,
                     TF_Tensor** outputs, const struct TF_SessionOptions* opts,
                     const mt_run_ctl* ctl, mt_step_stats* stats, TF_Status* s) {
  plan_run(p, st, (TF_Tensor**)feed_values, 0, outputs, opts, ctl, stats, s);
}

void mt_plan_run_donated(mt_plan* p, mt_session_state* st, TF_Tensor** feed_values,
                         TF_Tensor** outputs, const struct TF_SessionOptions* opts,
                         const mt_run_ctl* ctl, TF_Status* s) {
  plan_run(p, st, feed_values, 1, outputs, opts, ctl, NULL, s);
}

static void plan_run(mt_plan* p, mt_session_state* st, TF_Tensor** feed_values, int donated,
                     TF_Tensor** outputs, const struct TF_SessionOptions* opts,
                     const mt_run_ctl* ctl, mt_step_stats* stats, TF_Status* s) {
  for (int k = 0; k < p->nfetches; k++) outputs[k] = NULL;
  if (stats) {
    stats->n = 0;
    stats->cap = p->nnodes + 1;
    stats->nodes = mt_calloc((size_t)stats->cap, sizeof(mt_node_stats), s);
    if (!stats->nodes) return;
  }
  if (p->cf) {
    mt_cf_run(p, st, feed_values, outputs, opts, ctl, stats, s);
    return;
  }
  size_t bytes = sizeof(TF_Tensor*) * (size_t)(p->nslots + p->max_inputs + p->max_outputs) +
                 sizeof(int) * (size_t)p->nslots + 2 * (size_t)p->max_inputs + 1;
  /* small plans (function bodies called once per loop iteration) keep
   * their scratch on the stack: no allocation per call */
  _Alignas(sizeof(void*)) char on_stack[1024];
  char* scratch = bytes <= sizeof on_stack ? memset(on_stack, 0, bytes) : mt_calloc(1, bytes, s);
  for (int k = 0; k < p->nfetches; k++) outputs[k] = NULL;
  if (!scratch) return;
  TF_Tensor** slots = (TF_Tensor**)scratch;
  TF_Tensor** in_buf = slots + p->nslots;
  TF_Tensor** out_buf = in_buf + p->max_inputs;
  int* uses = (int*)(out_buf + p->max_outputs);
  unsigned char* fwd = (unsigned char*)(uses + p->nslots);
  memcpy(uses, p->uses, sizeof(int) * (size_t)p->nslots);
  for (int k = 0; k < p->nfeeds && mt_ok(s); k++) {
    if (!mt_check_feed(p, k, feed_values[k], s)) break;
    TF_Tensor** slot = &slots[p->feed_slots[k]];
    if (donated && !*slot) { /* the first feed of a slot may take the handle */
      *slot = feed_values[k];
      feed_values[k] = NULL;
    } else {
      mt_tensor_free(*slot);
      *slot = mt_tensor_share(feed_values[k]);
    }
  }
  int timed = ctl && ctl->deadline_ns > 0;
  for (int k = 0; k < p->nnodes && mt_ok(s); k++) {
    if (timed && (k & ctl->clock_mask) == 0 && mt_run_ctl_expired(ctl, s)) break;
    run_timed(&p->nodes[k], slots, uses, in_buf, out_buf, fwd, st, opts, ctl, stats, s);
  }
  for (int k = 0; k < p->nfetches && mt_ok(s); k++) {
    outputs[k] = mt_fetch_value(slots[p->fetch_slots[k]], p->fetch_outputs[k], s);
    if (!outputs[k] && mt_ok(s)) mt_status_setf(s, TF_INTERNAL, "Fetch %d was not computed", k);
  }
  if (!mt_ok(s))
    for (int k = 0; k < p->nfetches; k++) {
      mt_tensor_free(outputs[k]);
      outputs[k] = NULL;
    }
  for (int k = 0; k < p->nslots; k++) mt_tensor_free(slots[k]);
  if (scratch != on_stack) free(scratch);
}

/* ---- partial runs ----
 * A partial run executes one plan incrementally: each step stores its
 * feeds, runs (in plan order) every node not yet run whose data inputs are
 * available and whose control inputs are done, and hands out fetches. */

struct mt_prun {
  mt_plan* plan;
  int nfeeds, nfetches, ntargets;
  TF_Output* feeds;
  TF_Output* fetches;
  int* target_nodes;        /* plan node of each declared target */
  unsigned char* fed;       /* per feed */
  unsigned char* fetched;   /* per fetch */
  TF_Tensor** slots;
  int* uses;                /* remaining reads per slot */
  unsigned char* ready;     /* per slot: produced or fed */
  unsigned char* done;      /* per node */
  int* slot_node;           /* per slot: producing node or -1 */
  int* slot_feed;           /* per slot: feed index or -1 */
  int* ctrl_start;          /* node k's control inputs: ctrl[ctrl_start[k] ..] */
  int* ctrl;
  TF_Tensor** in_buf;
  TF_Tensor** out_buf;
  unsigned char* fwd;
};

void mt_prun_free(mt_prun* r) {
  if (!r) return;
  if (r->slots)
    for (int k = 0; k < r->plan->nslots; k++) mt_tensor_free(r->slots[k]);
  mt_plan_free(r->plan);
  free(r->feeds);
  free(r->fetches);
  free(r->target_nodes);
  free(r->fed);
  free(r->fetched);
  free(r->slots);
  free(r->uses);
  free(r->ready);
  free(r->done);
  free(r->slot_node);
  free(r->slot_feed);
  free(r->ctrl_start);
  free(r->ctrl);
  free(r->in_buf);
  free(r->out_buf);
  free(r->fwd);
  free(r);
}

/* Control edges as node indices, resolved now: the graph may gain control
 * inputs later, but the plan is fixed. */
static int resolve_prun_nodes(mt_prun* r, TF_Graph* g, const TF_Operation* const* targets,
                              TF_Status* s) {
  mt_plan* p = r->plan;
  int* node_of = mt_calloc((size_t)g->nops + 1, sizeof(int), s);
  if (!node_of) return 0;
  for (int i = 0; i < g->nops; i++) node_of[i] = -1;
  int nctrl = 0;
  for (int k = 0; k < p->nnodes; k++) {
    node_of[p->nodes[k].op->id] = k;
    nctrl += p->nodes[k].op->ncontrol_inputs;
  }
  r->ctrl_start = mt_calloc((size_t)p->nnodes + 1, sizeof(int), s);
  r->ctrl = mt_calloc((size_t)nctrl + 1, sizeof(int), s);
  r->target_nodes = mt_calloc((size_t)r->ntargets + 1, sizeof(int), s);
  if (mt_ok(s)) {
    int at = 0;
    for (int k = 0; k < p->nnodes; k++) {
      r->ctrl_start[k] = at;
      const TF_Operation* op = p->nodes[k].op;
      /* a control input left out of the plan is a fed Placeholder (satisfied) */
      for (int c = 0; c < op->ncontrol_inputs; c++)
        if (node_of[op->control_inputs[c]->id] >= 0) r->ctrl[at++] = node_of[op->control_inputs[c]->id];
    }
    r->ctrl_start[p->nnodes] = at;
    for (int t = 0; t < r->ntargets; t++) r->target_nodes[t] = node_of[targets[t]->id];
  }
  free(node_of);
  return mt_ok(s);
}

static int alloc_prun_state(mt_prun* r, TF_Status* s) {
  mt_plan* p = r->plan;
  size_t nslots = (size_t)p->nslots + 1;
  r->fed = mt_calloc((size_t)r->nfeeds + 1, 1, s);
  r->fetched = mt_calloc((size_t)r->nfetches + 1, 1, s);
  r->slots = mt_calloc(nslots, sizeof(TF_Tensor*), s);
  r->uses = mt_calloc(nslots, sizeof(int), s);
  r->ready = mt_calloc(nslots, 1, s);
  r->done = mt_calloc((size_t)p->nnodes + 1, 1, s);
  r->slot_node = mt_calloc(nslots, sizeof(int), s);
  r->slot_feed = mt_calloc(nslots, sizeof(int), s);
  r->in_buf = mt_calloc((size_t)p->max_inputs + 1, sizeof(TF_Tensor*), s);
  r->out_buf = mt_calloc((size_t)p->max_outputs + 1, sizeof(TF_Tensor*), s);
  r->fwd = mt_calloc(2 * (size_t)p->max_inputs + 1, 1, s); /* fwd, then movable */
  if (!mt_ok(s)) return 0;
  memcpy(r->uses, p->uses, sizeof(int) * (size_t)p->nslots);
  for (int k = 0; k < p->nslots; k++) r->slot_node[k] = r->slot_feed[k] = -1;
  for (int k = 0; k < p->nnodes; k++)
    for (int o = 0; o < p->nodes[k].op->noutputs; o++) r->slot_node[p->nodes[k].out_base + o] = k;
  for (int k = 0; k < p->nfeeds; k++) r->slot_feed[p->feed_slots[k]] = k;
  return 1;
}

mt_prun* mt_prun_new(TF_Graph* g, const TF_Output* feeds, int nfeeds, const TF_Output* fetches,
                     int nfetches, const TF_Operation* const* targets, int ntargets,
                     TF_Status* s) {
  for (int f = 0; f < nfeeds; f++)
    for (int o = 0; o < nfetches; o++)
      if (feeds[f].oper && feeds[f].oper == fetches[o].oper && feeds[f].index == fetches[o].index) {
        mt_status_setf(s, TF_INVALID_ARGUMENT, "%s:%d is both fed and fetched.",
                       feeds[f].oper->name, feeds[f].index);
        return NULL;
      }
  mt_plan* p = mt_plan_build(g, feeds, nfeeds, fetches, nfetches, targets, ntargets, s);
  if (!p) return NULL;
  if (p->cf) { /* partial runs step a plan in topological order: no frames */
    mt_status_setf(s, TF_UNIMPLEMENTED,
                   "Partial runs of graphs with TensorFlow 1 control flow (Switch, Merge, Enter, "
                   "Exit, NextIteration) are not supported");
    mt_plan_free(p);
    return NULL;
  }
  mt_prun* r = mt_calloc(1, sizeof(mt_prun), s);
  if (!r) {
    mt_plan_free(p);
    return NULL;
  }
  r->plan = p;
  r->nfeeds = nfeeds;
  r->nfetches = nfetches;
  r->ntargets = ntargets;
  r->feeds = mt_calloc((size_t)nfeeds + 1, sizeof(TF_Output), s);
  r->fetches = mt_calloc((size_t)nfetches + 1, sizeof(TF_Output), s);
  if (mt_ok(s)) {
    if (nfeeds) memcpy(r->feeds, feeds, sizeof(TF_Output) * (size_t)nfeeds);
    if (nfetches) memcpy(r->fetches, fetches, sizeof(TF_Output) * (size_t)nfetches);
  }
  if (!mt_ok(s) || !resolve_prun_nodes(r, g, targets, s) || !alloc_prun_state(r, s)) {
    mt_prun_free(r);
    return NULL;
  }
  return r;
}

static int find_output(const TF_Output* list, int n, TF_Output o) {
  for (int k = 0; k < n; k++)
    if (list[k].oper == o.oper && list[k].index == o.index) return k;
  return -1;
}

/* Maps this step's feeds/fetches/targets to declared indices, checking
 * them as TensorFlow's DirectSession::PRun does. */
static int resolve_step(const mt_prun* r, const TF_Output* feeds, TF_Tensor* const* values,
                        int nfeeds, int* feed_idx, const TF_Output* fetches, int nfetches,
                        int* fetch_idx, const TF_Operation* const* targets, int ntargets,
                        int* target_idx, TF_Status* s) {
  for (int k = 0; k < nfeeds; k++) {
    int j = find_output(r->feeds, r->nfeeds, feeds[k]);
    const char* name = feeds[k].oper ? feeds[k].oper->name : "(null)";
    if (j < 0) {
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "The feed %s:%d was not specified in partial_run_setup.", name, feeds[k].index);
      return 0;
    }
    int again = r->fed[j];
    for (int i = 0; i < k; i++) again |= feed_idx[i] == j;
    if (again) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "The feed %s:%d has already been fed.", name,
                     feeds[k].index);
      return 0;
    }
    if (!mt_check_feed(r->plan, j, values[k], s)) return 0;
    feed_idx[k] = j;
  }
  for (int k = 0; k < nfetches; k++) {
    int j = find_output(r->fetches, r->nfetches, fetches[k]);
    const char* name = fetches[k].oper ? fetches[k].oper->name : "(null)";
    if (j < 0 || r->fetched[j]) {
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     j < 0 ? "The fetch %s:%d was not specified in partial_run_setup."
                           : "The fetch %s:%d has already been fetched.",
                     name, fetches[k].index);
      return 0;
    }
    fetch_idx[k] = j;
  }
  for (int k = 0; k < ntargets; k++) {
    target_idx[k] = -1;
    for (int t = 0; t < r->ntargets; t++)
      if (targets[k] && r->target_nodes[t] >= 0 && r->plan->nodes[r->target_nodes[t]].op == targets[k])
        target_idx[k] = r->target_nodes[t];
    if (target_idx[k] < 0) {
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "The target %s was not specified in partial_run_setup.",
                     targets[k] ? targets[k]->name : "(null)");
      return 0;
    }
  }
  return 1;
}

/* TensorFlow's CheckFetch: walks back from each wanted node (not yet run)
 * and fails on a declared feed that is neither fed before nor in this
 * step, naming that feed. */
static int check_computable(const mt_prun* r, const int* feed_idx, int nfeeds,
                            const int* start, int nstart, TF_Status* s) {
  const mt_plan* p = r->plan;
  unsigned char* seen = mt_calloc((size_t)p->nnodes + 1, 1, s);
  int* stack = mt_calloc((size_t)p->nnodes + 1, sizeof(int), s);
  int top = 0;
  if (!mt_ok(s)) goto done;
  for (int k = 0; k < nstart; k++)
    if (start[k] >= 0 && !seen[start[k]] && !r->done[start[k]]) {
      seen[start[k]] = 1;
      stack[top++] = start[k];
    }
  while (top > 0 && mt_ok(s)) {
    const plan_node* n = &p->nodes[stack[--top]];
    for (int i = 0; i < n->op->ninputs; i++) {
      int slot = n->in_slots[i], f = r->slot_feed[slot], next = r->slot_node[slot];
      if (f >= 0) {
        int now = 0;
        for (int j = 0; j < nfeeds; j++) now |= feed_idx[j] == f;
        if (!r->fed[f] && !now)
          mt_status_setf(s, TF_INVALID_ARGUMENT,
                         "Fetch %s:%d can't be computed from the feeds that have been fed so far.",
                         r->feeds[f].oper->name, r->feeds[f].index);
        continue;
      }
      if (next >= 0 && !seen[next] && !r->done[next]) {
        seen[next] = 1;
        stack[top++] = next;
      }
    }
    int k = (int)(n - p->nodes);
    for (int c = r->ctrl_start[k]; c < r->ctrl_start[k + 1]; c++)
      if (!seen[r->ctrl[c]] && !r->done[r->ctrl[c]]) {
        seen[r->ctrl[c]] = 1;
        stack[top++] = r->ctrl[c];
      }
  }
done:
  free(seen);
  free(stack);
  return mt_ok(s);
}

static int node_runnable(const mt_prun* r, int k) {
  const plan_node* n = &r->plan->nodes[k];
  for (int i = 0; i < n->op->ninputs; i++)
    if (!r->ready[n->in_slots[i]]) return 0;
  for (int c = r->ctrl_start[k]; c < r->ctrl_start[k + 1]; c++)
    if (!r->done[r->ctrl[c]]) return 0;
  return 1;
}

/* One pass in plan (topological) order runs everything that can run now:
 * a node's producers come before it, so their outputs are ready in time. */
static void run_ready_nodes(mt_prun* r, mt_session_state* st,
                            const struct TF_SessionOptions* opts, TF_Status* s) {
  mt_plan* p = r->plan;
  for (int k = 0; k < p->nnodes && mt_ok(s); k++) {
    if (r->done[k] || !node_runnable(r, k)) continue;
    const plan_node* n = &p->nodes[k];
    run_node(n, r->slots, r->uses, r->in_buf, r->out_buf, r->fwd, st, opts, NULL, s);
    release(n, r->slots, r->uses);
    r->done[k] = 1;
    /* a fed output is ready when fed, not when its producer happens to run */
    for (int o = 0; o < n->op->noutputs; o++)
      if (r->slot_feed[n->out_base + o] < 0) r->ready[n->out_base + o] = 1;
  }
}

static void store_feeds(mt_prun* r, const int* feed_idx, TF_Tensor* const* values, int nfeeds) {
  for (int k = 0; k < nfeeds; k++) {
    int slot = r->plan->feed_slots[feed_idx[k]];
    r->fed[feed_idx[k]] = 1;
    r->ready[slot] = 1;
    mt_tensor_free(r->slots[slot]);
    r->slots[slot] = r->uses[slot] > 0 ? mt_tensor_share(values[k]) : NULL;
  }
}

/* Hands out the fetches, then drops each fetch's read (freeing the slot
 * after its last use). A fetch named twice in one step gets one value. */
static void take_fetches(mt_prun* r, const int* fetch_idx, TF_Tensor** outputs, int nfetches,
                         TF_Status* s) {
  for (int k = 0; k < nfetches && mt_ok(s); k++) {
    TF_Tensor* v = r->slots[r->plan->fetch_slots[fetch_idx[k]]];
    outputs[k] = mt_fetch_value(v, r->plan->fetch_outputs[fetch_idx[k]], s);
    if (!outputs[k]) mt_status_setf(s, TF_INTERNAL, "Fetch %d was not computed", k);
  }
  if (!mt_ok(s)) return;
  for (int k = 0; k < nfetches; k++) {
    int j = fetch_idx[k], slot = r->plan->fetch_slots[j];
    if (r->fetched[j]) continue;
    r->fetched[j] = 1;
    if (--r->uses[slot] == 0) {
      mt_tensor_free(r->slots[slot]);
      r->slots[slot] = NULL;
    }
  }
}

/* TensorFlow forgets a partial run once all its feeds were fed and all its
 * fetches fetched (RunState::PendingDone); targets must have run too. */
int mt_prun_finished(const mt_prun* r) {
  for (int k = 0; k < r->nfeeds; k++)
    if (!r->fed[k]) return 0;
  for (int k = 0; k < r->nfetches; k++)
    if (!r->fetched[k]) return 0;
  for (int t = 0; t < r->ntargets; t++)
    if (r->target_nodes[t] >= 0 && !r->done[r->target_nodes[t]]) return 0;
  return 1;
}

int mt_prun_step(mt_prun* r, const TF_Output* feeds, TF_Tensor* const* values, int nfeeds,
                 const TF_Output* fetches, TF_Tensor** outputs, int nfetches,
                 const TF_Operation* const* targets, int ntargets, mt_session_state* st,
                 const struct TF_SessionOptions* opts, TF_Status* s) {
  for (int k = 0; k < nfetches; k++) outputs[k] = NULL;
  int n = nfeeds + nfetches + ntargets;
  int* idx = mt_calloc((size_t)n + 1, sizeof(int), s);
  if (!idx) return 0;
  int *feed_idx = idx, *fetch_idx = idx + nfeeds, *target_idx = fetch_idx + nfetches;
  int* wanted = mt_calloc((size_t)(nfetches + ntargets) + 1, sizeof(int), s);
  int ok = wanted && resolve_step(r, feeds, values, nfeeds, feed_idx, fetches, nfetches,
                                  fetch_idx, targets, ntargets, target_idx, s);
  if (ok) {
    for (int k = 0; k < nfetches; k++)
      wanted[k] = r->slot_node[r->plan->fetch_slots[fetch_idx[k]]];
    for (int k = 0; k < ntargets; k++) wanted[nfetches + k] = target_idx[k];
    ok = check_computable(r, feed_idx, nfeeds, wanted, nfetches + ntargets, s);
  }
  free(wanted);
  if (!ok) { /* nothing changed: the partial run goes on */
    free(idx);
    return 0;
  }
  store_feeds(r, feed_idx, values, nfeeds);
  run_ready_nodes(r, st, opts, s);
  for (int k = 0; k < ntargets && mt_ok(s); k++)
    if (!r->done[target_idx[k]])
      mt_status_setf(s, TF_INTERNAL, "Target %s did not run", targets[k]->name);
  if (mt_ok(s)) take_fetches(r, fetch_idx, outputs, nfetches, s);
  free(idx);
  if (!mt_ok(s)) {
    for (int k = 0; k < nfetches; k++) {
      mt_tensor_free(outputs[k]);
      outputs[k] = NULL;
    }
    return 1; /* an execution error ends the partial run, as in TensorFlow */
  }
  return mt_prun_finished(r);
}

/* ---- intra-op parallelism ---- */

typedef struct par_job {
  void (*fn)(int64_t, int64_t, void*);
  void* arg;
  int64_t begin, end;
} par_job;

static void* par_main(void* p) {
  par_job* j = p;
  j->fn(j->begin, j->end, j->arg);
  return NULL;
}

/* Splits large loops over up to intra_threads threads. Threads are started
 * per call, so only work above ~1M elementary operations is split. */
void mt_parallel_for(mt_kernel_ctx* ctx, int64_t n, int64_t cost,
                     void (*fn)(int64_t begin, int64_t end, void* arg), void* arg) {
  int threads = ctx ? ctx->intra_threads : 1;
  if (threads <= 0) threads = 2;
  if (threads > 16) threads = 16;
  if (n <= 0) return;
  if (threads == 1 || n < 2 || (double)n * (double)(cost > 0 ? cost : 1) < 1e6) {
    fn(0, n, arg);
    return;
  }
  if (threads > n) threads = (int)n;
  par_job jobs[16];
  pthread_t tids[16];
  int started[16] = {0};
  int64_t chunk = (n + threads - 1) / threads;
  for (int t = 0; t < threads; t++) {
    jobs[t].fn = fn;
    jobs[t].arg = arg;
    jobs[t].begin = t * chunk;
    jobs[t].end = (t + 1) * chunk < n ? (t + 1) * chunk : n;
  }
  for (int t = 1; t < threads; t++)
    if (jobs[t].begin < jobs[t].end)
      started[t] = pthread_create(&tids[t], NULL, par_main, &jobs[t]) == 0;
  fn(jobs[0].begin, jobs[0].end, arg);
  for (int t = 1; t < threads; t++) {
    if (started[t])
      pthread_join(tids[t], NULL);
    else if (jobs[t].begin < jobs[t].end)
      fn(jobs[t].begin, jobs[t].end, arg); /* could not start a thread: do it here */
  }
}
