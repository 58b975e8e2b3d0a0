/* Running plans with TensorFlow 1 control flow (Switch, Merge, Enter,
 * Exit, NextIteration, LoopCond), with the semantics of TensorFlow's
 * executor and propagator (core/common_runtime/executor.cc,
 * propagator_state.cc):
 *
 * - Every node runs tagged with a frame (a while loop's instance; the root
 *   frame for the rest) and an iteration of that frame.
 * - A tensor may be dead: a Switch's untaken output is. A node other than
 *   Merge with a dead input (data or control) is dead: its kernel does not
 *   run and its outputs are dead. Merge runs with the first live input that
 *   arrives (and its index); it is dead only when all its inputs are.
 * - Enter moves a value into iteration 0 of a child frame (a loop
 *   invariant, is_constant, into every iteration), NextIteration into the
 *   next iteration (at most parallel_iterations are live at once), Exit
 *   back into the parent frame. A dead Exit waits for its frame to end and
 *   then propagates deadness to the parent.
 * - An iteration's state (pending counts, input tensors) is freed as soon
 *   as the iteration and all before it are done, so a loop runs in memory
 *   bounded by parallel_iterations, not by its trip count.
 *
 * Each edge delivers its own handle of the producer's tensor into the
 * consumer's input slot of that iteration; running a node consumes its
 * inputs. The run is single-threaded, like the topological fast path in
 * executor.c, which every plan without these ops keeps using. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/executor_internal.h"
#include "runtime/kernel.h"

enum { K_NORMAL, K_SWITCH, K_MERGE, K_ENTER, K_EXIT, K_NEXT, K_TRIGGER };

/* Nodes that only move tensors, run in process() without a kernel call
 * (the same outputs their kernels give; anything unusual, such as a ref
 * value, a fed input or an error, still goes to the kernel):
 * INL_PASS Enter, Exit, NextIteration, Identity: output 0 is input 0;
 * INL_CONST a Const: its value; INL_SWITCH, INL_MERGE, INL_LOOPCOND. */
enum { INL_NONE, INL_PASS, INL_CONST, INL_SWITCH, INL_MERGE, INL_LOOPCOND };

typedef struct cf_edge {
  int dst;     /* plan node */
  int dst_in;  /* input index, -1 for a control edge */
  int src_out; /* output index of the source (data edges) */
  int last;    /* the source output's last data edge: it may take the tensor itself */
  /* copied from the destination node (layout_frames), so delivering along an
   * edge reads only the edge: */
  int local;   /* dst's index among its frame's nodes */
  int slot;    /* dst's input slot in an iteration: in_base + dst_in */
  unsigned char dst_kind; /* K_* of dst */
} cf_edge;

typedef struct cf_node {
  unsigned char kind, is_constant, has_fetch;
  unsigned char inl;   /* how process() may run it without its kernel (INL_*) */
  unsigned char out1_read; /* output 1 has a data edge or a fetch (Merge's value_index) */
  unsigned char check; /* K_NORMAL / K_TRIGGER with a read output: the kernel must set it */
  const TF_Tensor* konst; /* see plan_node.konst */
  int frame;     /* static frame the node runs in */
  int child;     /* Enter: the frame it enters */
  int parallel;  /* Enter: parallel_iterations */
  int local;     /* index among its frame's nodes */
  int in_base;   /* its first input slot in an iteration of its frame */
  int pending0;  /* initial pending count (Merge: control inputs * 2 + 1) */
  int ndata;     /* data inputs (a Merge is dead when that many are) */
} cf_node;

typedef struct cf_frame_def {
  char* name; /* the Enters' frame_name; "" for the root frame */
  int parent;
  int nnodes, ninputs;
  int nenters; /* Enter nodes into this frame: its inputs */
  int* pending0; /* per local node */
} cf_frame_def;

struct mt_cf_plan {
  cf_node* nodes;      /* per plan node */
  int* edge_start;     /* node k's out edges: edges[edge_start[k] .. edge_start[k + 1]) */
  cf_edge* edges;
  int* fed;            /* node k's input i: feed index or -1, at fed[fed_start[k] + i] */
  int* fed_start;
  int nframes;
  cf_frame_def* frames;
  int* fetch_node;     /* per fetch: plan node, or -1 when the fetch is fed */
};

void mt_cf_plan_free(struct mt_cf_plan* cf) {
  if (!cf) return;
  for (int f = 0; f < cf->nframes; f++) {
    free(cf->frames[f].name);
    free(cf->frames[f].pending0);
  }
  free(cf->frames);
  free(cf->nodes);
  free(cf->edge_start);
  free(cf->edges);
  free(cf->fed);
  free(cf->fed_start);
  free(cf->fetch_node);
  free(cf);
}

/* ---- plan analysis ---- */

static int kind_of(const TF_Operation* op) {
  const char* t = op->op_type;
  if (!strcmp(t, "Switch") || !strcmp(t, "RefSwitch")) return K_SWITCH;
  if (!strcmp(t, "Merge") || !strcmp(t, "RefMerge")) return K_MERGE;
  if (!strcmp(t, "Enter") || !strcmp(t, "RefEnter")) return K_ENTER;
  if (!strcmp(t, "Exit") || !strcmp(t, "RefExit")) return K_EXIT;
  if (mt_is_next_iteration(op)) return K_NEXT;
  if (!strcmp(t, "ControlTrigger")) return K_TRIGGER;
  return K_NORMAL;
}

static int feed_of(const TF_Output* feeds, int nfeeds, TF_Output o) {
  for (int k = 0; k < nfeeds; k++)
    if (feeds[k].oper == o.oper && feeds[k].index == o.index) return k;
  return -1;
}

/* Out edges grouped by source node, feeds resolved per input. */
static int build_edges(mt_plan* p, struct mt_cf_plan* cf, const int* node_of,
                       const TF_Output* feeds, int nfeeds, TF_Status* s) {
  int n = p->nnodes, nin = 0;
  cf->edge_start = mt_calloc((size_t)n + 2, sizeof(int), s);
  cf->fed_start = mt_calloc((size_t)n + 1, sizeof(int), s);
  if (!mt_ok(s)) return 0;
  for (int k = 0; k < n; k++) {
    const TF_Operation* op = p->nodes[k].op;
    cf->fed_start[k] = nin;
    nin += op->ninputs;
    for (int i = 0; i < op->ninputs; i++)
      if (feed_of(feeds, nfeeds, op->inputs[i]) < 0) cf->edge_start[node_of[op->inputs[i].oper->id] + 1]++;
    for (int c = 0; c < op->ncontrol_inputs; c++)
      if (node_of[op->control_inputs[c]->id] >= 0) /* else a fed Placeholder: satisfied */
        cf->edge_start[node_of[op->control_inputs[c]->id] + 1]++;
  }
  for (int k = 0; k < n; k++) cf->edge_start[k + 1] += cf->edge_start[k];
  cf->edges = mt_calloc((size_t)cf->edge_start[n] + 1, sizeof(cf_edge), s);
  cf->fed = mt_calloc((size_t)nin + 1, sizeof(int), s);
  int* at = mt_calloc((size_t)n + 1, sizeof(int), s);
  if (!mt_ok(s)) {
    free(at);
    return 0;
  }
  memcpy(at, cf->edge_start, sizeof(int) * (size_t)n);
  for (int k = 0; k < n; k++) {
    const TF_Operation* op = p->nodes[k].op;
    for (int i = 0; i < op->ninputs; i++) {
      int f = feed_of(feeds, nfeeds, op->inputs[i]);
      cf->fed[cf->fed_start[k] + i] = f;
      if (f >= 0) continue;
      cf_edge e = {k, i, op->inputs[i].index, 0};
      cf->edges[at[node_of[op->inputs[i].oper->id]]++] = e;
    }
    for (int c = 0; c < op->ncontrol_inputs; c++) {
      if (node_of[op->control_inputs[c]->id] < 0) continue;
      cf_edge e = {k, -1, 0, 0};
      cf->edges[at[node_of[op->control_inputs[c]->id]]++] = e;
    }
  }
  free(at);
  for (int k = 0; k < n; k++)
    for (int e = cf->edge_start[k + 1] - 1; e >= cf->edge_start[k]; e--) {
      int later = 0;
      for (int j = e + 1; j < cf->edge_start[k + 1]; j++)
        later |= cf->edges[j].dst_in >= 0 && cf->edges[j].src_out == cf->edges[e].src_out;
      cf->edges[e].last = cf->edges[e].dst_in >= 0 && !later;
    }
  return 1;
}

static int frame_named(struct mt_cf_plan* cf, const char* name, int parent, TF_Status* s) {
  for (int f = 0; f < cf->nframes; f++)
    if (!strcmp(cf->frames[f].name, name)) return f;
  cf_frame_def* grown = realloc(cf->frames, sizeof(cf_frame_def) * (size_t)(cf->nframes + 1));
  char* copy = strdup(name);
  if (grown) cf->frames = grown;
  if (!grown || !copy) {
    free(copy);
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory analysing loop frames");
    return -1;
  }
  cf_frame_def* d = &cf->frames[cf->nframes];
  memset(d, 0, sizeof *d);
  d->name = copy;
  d->parent = parent;
  return cf->nframes++;
}

/* The frame node k's outputs land in, given the frame it runs in; -1 and
 * status on a structure TensorFlow rejects (or would not survive). */
static int out_frame(mt_plan* p, struct mt_cf_plan* cf, int k, int frame, TF_Status* s) {
  const TF_Operation* op = p->nodes[k].op;
  cf_node* n = &cf->nodes[k];
  if (n->kind == K_EXIT) {
    if (frame == 0) {
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "{{node %s}} is an Exit that no Enter leads to: an Exit must be inside a "
                     "while loop frame", op->name);
      return -1;
    }
    return cf->frames[frame].parent;
  }
  if (n->kind != K_ENTER) return frame;
  const char* name = mt_op_attr_str(op, "frame_name", "");
  if (!name[0]) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "The Enter {{node %s}} must have a frame name.",
                   op->name);
    return -1;
  }
  int child = frame_named(cf, name, frame, s);
  if (child < 0) return -1;
  if (cf->frames[child].parent != frame) {
    mt_status_setf(s, TF_INTERNAL,
                   "Invalid loop structure: Mismatched parent frames for \"%s\": \"%s\" vs \"%s\". "
                   "The node giving this error: {{node %s}}. This is an internal bug, please file "
                   "a bug report with instructions on how to reproduce the error.",
                   name, cf->frames[frame].name, cf->frames[cf->frames[child].parent].name,
                   op->name);
    return -1;
  }
  n->child = child;
  return child;
}

/* TensorFlow's BuildControlFlowInfo: a breadth-first walk from the nodes
 * with no inputs gives every node the frame of its inputs; inputs from two
 * frames are an error in TensorFlow's words. */
static int assign_frames(mt_plan* p, struct mt_cf_plan* cf, TF_Status* s) {
  int n = p->nnodes, head = 0, tail = 0;
  int* queue = mt_calloc((size_t)n + 1, sizeof(int), s);
  int* from = mt_calloc((size_t)n + 1, sizeof(int), s); /* node that reached it, -1 = root */
  unsigned char* seen = mt_calloc((size_t)n + 1, 1, s);
  if (!mt_ok(s)) goto done;
  unsigned char* has_in = mt_calloc((size_t)n + 1, 1, s);
  if (!has_in) goto done;
  for (int e = 0; e < cf->edge_start[n]; e++) has_in[cf->edges[e].dst] = 1;
  for (int k = 0; k < n; k++)
    if (!has_in[k]) {
      seen[k] = 1;
      from[k] = -1;
      queue[tail++] = k;
    }
  free(has_in);
  while (head < tail && mt_ok(s)) {
    int k = queue[head++];
    int of = out_frame(p, cf, k, cf->nodes[k].frame, s);
    if (of < 0) break;
    for (int e = cf->edge_start[k]; e < cf->edge_start[k + 1]; e++) {
      int d = cf->edges[e].dst;
      if (!seen[d]) {
        seen[d] = 1;
        from[d] = k;
        cf->nodes[d].frame = of;
        queue[tail++] = d;
      } else if (cf->nodes[d].frame != of) {
        mt_status_setf(s, TF_INVALID_ARGUMENT,
                       "{{node %s}} has inputs from different frames. The input {{node %s}} is in "
                       "frame '%s'. The input {{node %s}} is in frame '%s'.",
                       p->nodes[d].op->name, p->nodes[k].op->name, cf->frames[of].name,
                       from[d] >= 0 ? p->nodes[from[d]].op->name : "_SOURCE",
                       cf->frames[cf->nodes[d].frame].name);
        break;
      }
    }
  }
done:
  free(queue);
  free(from);
  free(seen);
  return mt_ok(s);
}

/* Loops TensorFlow's executor would never finish or would crash on. */
static int check_loops(mt_plan* p, struct mt_cf_plan* cf, TF_Status* s) {
  for (int k = 0; k < p->nnodes; k++) {
    const TF_Operation* op = p->nodes[k].op;
    const cf_node* n = &cf->nodes[k];
    if (n->kind == K_NEXT) {
      if (n->frame == 0) {
        mt_status_setf(s, TF_INVALID_ARGUMENT,
                       "{{node %s}} is a NextIteration outside any while loop frame (no Enter "
                       "leads to it)", op->name);
        return 0;
      }
      for (int e = cf->edge_start[k]; e < cf->edge_start[k + 1]; e++)
        if (cf->nodes[cf->edges[e].dst].kind != K_MERGE) {
          mt_status_setf(s, TF_INVALID_ARGUMENT,
                         "{{node %s}} is a NextIteration whose output goes to {{node %s}}, which "
                         "is not a Merge: a NextIteration must feed its loop's Merge",
                         op->name, p->nodes[cf->edges[e].dst].op->name);
          return 0;
        }
    }
    if (n->kind == K_MERGE) {
      int live = 0;
      for (int i = 0; i < op->ninputs; i++) live |= !mt_is_next_iteration(op->inputs[i].oper);
      if (!live) {
        mt_status_setf(s, TF_INVALID_ARGUMENT,
                       "{{node %s}}: every input of this Merge is a NextIteration, so no input "
                       "can arrive first (a loop's Merge needs an input from its Enter)",
                       op->name);
        return 0;
      }
    }
  }
  return 1;
}

static unsigned char inline_kind(const TF_Operation* op, const cf_node* n) {
  const char* t = op->op_type;
  int one = op->ninputs == 1 && op->noutputs == 1;
  if (n->konst) return INL_CONST;
  if (one && (n->kind == K_ENTER || n->kind == K_EXIT || n->kind == K_NEXT || !strcmp(t, "Identity")))
    return INL_PASS;
  if (!strcmp(t, "Switch") && op->ninputs == 2 && op->noutputs == 2) return INL_SWITCH;
  if (!strcmp(t, "Merge") && op->noutputs == 2) return INL_MERGE;
  if (one && !strcmp(t, "LoopCond")) return INL_LOOPCOND;
  return INL_NONE;
}

/* Per frame: local node indices, input slots and initial pending counts. */
static int layout_frames(mt_plan* p, struct mt_cf_plan* cf, const TF_Output* feeds, int nfeeds,
                         TF_Status* s) {
  for (int k = 0; k < p->nnodes; k++) {
    cf_node* n = &cf->nodes[k];
    cf_frame_def* d = &cf->frames[n->frame];
    n->local = d->nnodes++;
    n->in_base = d->ninputs;
    d->ninputs += p->nodes[k].op->ninputs;
    if (n->kind == K_ENTER) cf->frames[n->child].nenters++;
  }
  for (int f = 0; f < cf->nframes; f++) {
    cf->frames[f].pending0 = mt_calloc((size_t)cf->frames[f].nnodes + 1, sizeof(int), s);
    if (!mt_ok(s)) return 0;
  }
  for (int k = 0; k < p->nnodes; k++) {
    const TF_Operation* op = p->nodes[k].op;
    cf_node* n = &cf->nodes[k];
    int data = 0;
    for (int i = 0; i < op->ninputs; i++) data += cf->fed[cf->fed_start[k] + i] < 0;
    n->ndata = op->ninputs;
    int ctrl = 0;
    for (int c = 0; c < op->ncontrol_inputs; c++)
      ctrl += !mt_fed_placeholder(op->control_inputs[c], feeds, nfeeds);
    n->pending0 = n->kind == K_MERGE ? (ctrl << 1) | 1 : data + ctrl;
    cf->frames[n->frame].pending0[n->local] = n->pending0;
    n->konst = p->nodes[k].konst;
    n->inl = inline_kind(op, n);
    for (int e = cf->edge_start[k]; e < cf->edge_start[k + 1]; e++)
      n->out1_read |= cf->edges[e].dst_in >= 0 && cf->edges[e].src_out == 1;
    for (int j = 0; j < p->nfetches; j++)
      n->out1_read |= cf->fetch_node[j] == k && p->fetch_outputs[j].index == 1;
    for (int e = cf->edge_start[k]; e < cf->edge_start[k + 1]; e++)
      n->check |= (n->kind == K_NORMAL || n->kind == K_TRIGGER) && cf->edges[e].dst_in >= 0;
  }
  for (int e = 0; e < cf->edge_start[p->nnodes]; e++) {
    cf_edge* ed = &cf->edges[e];
    const cf_node* d = &cf->nodes[ed->dst];
    ed->local = d->local;
    ed->slot = d->in_base + (ed->dst_in >= 0 ? ed->dst_in : 0);
    ed->dst_kind = d->kind;
  }
  return 1;
}

int mt_cf_plan_build(mt_plan* p, TF_Graph* g, const TF_Output* feeds, int nfeeds, TF_Status* s) {
  struct mt_cf_plan* cf = mt_calloc(1, sizeof *cf, s);
  int* node_of = mt_calloc((size_t)g->nops + 1, sizeof(int), s);
  for (int i = 0; node_of && i < g->nops; i++) node_of[i] = -1;
  if (cf) {
    p->cf = cf;
    cf->nodes = mt_calloc((size_t)p->nnodes + 1, sizeof(cf_node), s);
    cf->fetch_node = mt_calloc((size_t)p->nfetches + 1, sizeof(int), s);
  }
  if (!mt_ok(s)) {
    free(node_of);
    return 0;
  }
  for (int k = 0; k < p->nnodes; k++) {
    node_of[p->nodes[k].op->id] = k;
    cf_node* n = &cf->nodes[k];
    n->kind = (unsigned char)kind_of(p->nodes[k].op);
    if (n->kind == K_ENTER) {
      n->is_constant = (unsigned char)mt_op_attr_bool(p->nodes[k].op, "is_constant", 0);
      int64_t par = mt_op_attr_int(p->nodes[k].op, "parallel_iterations", 10);
      n->parallel = par < 1 ? 1 : par > 1 << 20 ? 1 << 20 : (int)par;
    }
  }
  for (int j = 0; j < p->nfetches; j++) {
    TF_Output o = p->fetch_outputs[j];
    cf->fetch_node[j] = feed_of(feeds, nfeeds, o) >= 0 ? -1 : node_of[o.oper->id];
    if (cf->fetch_node[j] >= 0) cf->nodes[cf->fetch_node[j]].has_fetch = 1;
  }
  int ok = frame_named(cf, "", 0, s) == 0 && build_edges(p, cf, node_of, feeds, nfeeds, s) &&
           assign_frames(p, cf, s) && check_loops(p, cf, s) &&
           layout_frames(p, cf, feeds, nfeeds, s);
  free(node_of);
  return ok;
}

/* ---- running ---- */

typedef struct cf_iter {
  int* pending;
  int* dead;
  TF_Tensor** inputs;
  int outstanding_ops;    /* ready or running nodes of this iteration */
  int outstanding_frames; /* child frames started in this iteration, not done */
  struct cf_iter* next_free;
} cf_iter;

typedef struct cf_value {
  int node;
  TF_Tensor* value; /* NULL = dead */
  int64_t iter;     /* dead_exits: the iteration the Exit died in */
} cf_value;

typedef struct cf_list {
  int n, cap;
  cf_value* items;
} cf_list;

typedef struct cf_frame {
  int def;
  struct cf_frame* parent;
  int64_t parent_iter;
  int max_parallel, ring;   /* ring: a power of two > max_parallel (masks, not divisions) */
  int64_t iteration_count;  /* the newest iteration started */
  int outstanding_iters;
  int pending_inputs;       /* Enters not yet arrived */
  cf_iter** iters;          /* iteration i at iters[i & (ring - 1)] */
  cf_list invariants;       /* constant Enters: visible in every iteration */
  cf_list next_roots;       /* NextIteration values waiting for a free iteration */
  cf_list dead_exits;       /* one entry per Exit node, its latest dead iteration */
  struct cf_frame* children;
  struct cf_frame* sibling;
} cf_frame;

typedef struct cf_task {
  int node, dead;
  cf_frame* frame;
  int64_t iter;
} cf_task;

typedef struct cf_run {
  const mt_plan* p;
  const struct mt_cf_plan* cf;
  TF_Tensor* const* feed_values;
  TF_Tensor** outputs;
  cf_task* q; /* FIFO ring of ready nodes; qcap is a power of two */
  int qhead, qlen, qcap;
  cf_iter** free_iters; /* per frame def */
  TF_Tensor** in_buf;
  TF_Tensor** out_buf;
  unsigned char* fwd;
  mt_session_state* st;
  const struct TF_SessionOptions* opts;
  const mt_run_ctl* ctl;
  mt_step_stats* stats;
  TF_Status* s;
} cf_run;

static void oom(cf_run* r) {
  if (mt_ok(r->s)) mt_status_setf(r->s, TF_RESOURCE_EXHAUSTED, "out of memory running a loop");
}

static int list_push(cf_run* r, cf_list* l, int node, TF_Tensor* v) {
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 4;
    cf_value* grown = realloc(l->items, sizeof(cf_value) * (size_t)cap);
    if (!grown) {
      mt_tensor_free(v);
      oom(r);
      return 0;
    }
    l->items = grown;
    l->cap = cap;
  }
  cf_value item = {node, v, 0};
  l->items[l->n++] = item;
  return 1;
}

static void list_free(cf_list* l) {
  for (int k = 0; k < l->n; k++) mt_tensor_free(l->items[k].value);
  free(l->items);
  memset(l, 0, sizeof *l);
}

/* Doubles the ready queue (kept out of push_task, which runs per node). */
static __attribute__((noinline)) int grow_queue(cf_run* r) {
  int cap = r->qcap ? r->qcap * 2 : 64;
  cf_task* grown = malloc(sizeof(cf_task) * (size_t)cap);
  if (!grown) {
    oom(r);
    return 0;
  }
  for (int k = 0; k < r->qlen; k++) grown[k] = r->q[(r->qhead + k) & (r->qcap - 1)];
  free(r->q);
  r->q = grown;
  r->qhead = 0;
  r->qcap = cap;
  return 1;
}

/* Queues a ready node of iteration `it` (iteration `iter` of frame f). */
static inline int push_task(cf_run* r, int node, int dead, cf_frame* f, int64_t iter, cf_iter* it) {
  if (r->qlen == r->qcap && !grow_queue(r)) return 0;
  cf_task* t = &r->q[(r->qhead + r->qlen++) & (r->qcap - 1)];
  t->node = node;
  t->dead = dead;
  t->frame = f;
  t->iter = iter;
  it->outstanding_ops++;
  return 1;
}

static cf_iter* iter_new(cf_run* r, int def) {
  const cf_frame_def* d = &r->cf->frames[def];
  cf_iter* it = r->free_iters[def];
  if (it) {
    r->free_iters[def] = it->next_free;
  } else {
    size_t bytes = sizeof(cf_iter) + sizeof(int) * 2 * (size_t)d->nnodes +
                   sizeof(TF_Tensor*) * (size_t)d->ninputs;
    it = calloc(1, bytes + sizeof(void*));
    if (!it) {
      oom(r);
      return NULL;
    }
    it->inputs = (TF_Tensor**)(it + 1);
    it->pending = (int*)(it->inputs + d->ninputs);
    it->dead = it->pending + d->nnodes;
  }
  memcpy(it->pending, d->pending0, sizeof(int) * (size_t)d->nnodes);
  memset(it->dead, 0, sizeof(int) * (size_t)d->nnodes);
  it->outstanding_ops = it->outstanding_frames = 0;
  it->next_free = NULL;
  return it;
}

/* Frees the tensors an iteration still holds (inputs of nodes that never
 * ran, Merge inputs after the first) and recycles it. */
static void iter_release(cf_run* r, int def, cf_iter* it) {
  int n = r->cf->frames[def].ninputs;
  for (int k = 0; k < n; k++)
    if (it->inputs[k]) {
      mt_tensor_free(it->inputs[k]);
      it->inputs[k] = NULL;
    }
  it->next_free = r->free_iters[def];
  r->free_iters[def] = it;
}

/* Delivers node src's outputs (outs[i] NULL = dead; outs NULL = all dead)
 * along its out edges into iteration `iter` of frame f (`it`), queueing the nodes
 * that become ready (propagator_state.cc's ActivateNodes). With `move`,
 * an output's last edge takes the handle in outs (set to NULL) instead of
 * a new one. */
static void deliver(cf_run* r, int src, TF_Tensor** outs, int move, int is_dead, cf_frame* f,
                    int64_t iter, cf_iter* it) {
  const struct mt_cf_plan* cf = r->cf;
  int* pending = it->pending;
  int* dead = it->dead;
  /* errors here (out of memory) leave the status set; the run stops after this node */
  for (int e = cf->edge_start[src], end = cf->edge_start[src + 1]; e < end; e++) {
    const cf_edge* ed = &cf->edges[e];
    int l = ed->local, ready, dst_dead, store = 0;
    TF_Tensor* v = ed->dst_in >= 0 && outs ? outs[ed->src_out] : NULL;
    if (ed->dst_kind == K_MERGE) {
      if (ed->dst_in < 0) {
        pending[l] -= 2;
        dst_dead = dead[l] == cf->nodes[ed->dst].ndata;
        ready = pending[l] == 0 || (pending[l] == 1 && dst_dead);
      } else if (v) {
        int count = pending[l];
        pending[l] &= ~1; /* a live input arrived */
        ready = count == 1;
        store = count & 1;    /* only the first live input is used */
        dst_dead = 0;
      } else {
        dead[l]++;
        /* a dead Enter kills the Merge at once: its back edge never comes */
        dst_dead = dead[l] == cf->nodes[ed->dst].ndata || cf->nodes[src].kind == K_ENTER;
        ready = pending[l] == 1 && dst_dead;
      }
    } else {
      if (is_dead || (ed->dst_in >= 0 && !v)) dead[l]++;
      ready = --pending[l] == 0;
      dst_dead = dead[l] > 0;
      store = v != NULL;
    }
    if (store) {
      TF_Tensor** slot = &it->inputs[ed->slot];
      if (*slot) mt_tensor_free(*slot);
      if (move && ed->last) {
        *slot = v;
        outs[ed->src_out] = NULL;
      } else if (!(*slot = mt_tensor_share(v))) {
        oom(r);
      }
    }
    if (ready) push_task(r, ed->dst, ed->dst_kind == K_TRIGGER ? 0 : dst_dead, f, iter, it);
  }
}

/* deliver into iteration `iter` of f, looked up. */
static void activate_edges(cf_run* r, int src, TF_Tensor** outs, int move, int is_dead,
                           cf_frame* f, int64_t iter) {
  deliver(r, src, outs, move, is_dead, f, iter, f->iters[iter & (f->ring - 1)]);
}

/* activate_edges without taking any handle (the values are used again). */
static void activate(cf_run* r, int src, TF_Tensor* const* outs, int is_dead, cf_frame* f,
                     int64_t iter) {
  activate_edges(r, src, (TF_Tensor**)outs, 0, is_dead, f, iter);
}

/* Starts the next iteration of f; loop invariants enter it at once. */
static int64_t next_iteration(cf_run* r, cf_frame* f) {
  cf_iter* it = iter_new(r, f->def);
  if (!it) return -1;
  int64_t i = ++f->iteration_count;
  f->outstanding_iters++;
  f->iters[i & (f->ring - 1)] = it;
  for (int k = 0; k < f->invariants.n && mt_ok(r->s); k++)
    activate(r, f->invariants.items[k].node, &f->invariants.items[k].value,
             f->invariants.items[k].value == NULL, f, i);
  return i;
}

static int iteration_done(const cf_frame* f, int64_t i) {
  const cf_iter* it = f->iters[i & (f->ring - 1)];
  if (!it || it->outstanding_ops || it->outstanding_frames) return 0;
  return i == 0 ? f->pending_inputs == 0 : f->iters[(i - 1) & (f->ring - 1)] == NULL;
}

static void try_cleanup(cf_run* r, cf_frame* f, int64_t iter);

/* A finished frame: its dead Exits propagate deadness to the parent, then
 * it is freed and the parent's iteration may be done. */
static void delete_frame(cf_run* r, cf_frame* f) {
  cf_frame* parent = f->parent;
  int64_t pi = f->parent_iter;
  for (int k = 0; k < f->dead_exits.n && mt_ok(r->s); k++)
    if (f->dead_exits.items[k].iter == f->iteration_count) /* dead in the last iteration */
      activate(r, f->dead_exits.items[k].node, NULL, 1, parent, pi);
  for (cf_frame** at = &parent->children; *at; at = &(*at)->sibling)
    if (*at == f) {
      *at = f->sibling;
      break;
    }
  list_free(&f->invariants);
  list_free(&f->next_roots);
  list_free(&f->dead_exits);
  free(f->iters);
  free(f);
  parent->iters[pi & (parent->ring - 1)]->outstanding_frames--;
  try_cleanup(r, parent, pi);
}

/* TensorFlow's CleanupFramesIterations: frees every done iteration from
 * `iter` on, starting iterations that waited for room, and ends the frame
 * when no iteration and no input is left. */
static void try_cleanup(cf_run* r, cf_frame* f, int64_t iter) {
  if (!f->parent) return; /* the root frame lives until the run ends */
  for (int64_t i = iter; i <= f->iteration_count && iteration_done(f, i) && mt_ok(r->s); i++) {
    iter_release(r, f->def, f->iters[i & (f->ring - 1)]);
    f->iters[i & (f->ring - 1)] = NULL;
    f->outstanding_iters--;
    if (f->next_roots.n > 0) {
      int64_t ni = next_iteration(r, f);
      if (ni < 0) return;
      for (int k = 0; k < f->next_roots.n; k++) {
        cf_value* v = &f->next_roots.items[k];
        activate_edges(r, v->node, &v->value, 1, 0, f, ni);
        mt_tensor_free(v->value);
      }
      f->next_roots.n = 0;
    }
  }
  if (mt_ok(r->s) && f->pending_inputs == 0 && f->outstanding_iters == 0) delete_frame(r, f);
}

static cf_frame* child_frame(cf_run* r, cf_frame* f, int64_t iter, int def, int parallel) {
  for (cf_frame* c = f->children; c; c = c->sibling)
    if (c->def == def && c->parent_iter == iter) return c;
  int ring = 1;
  while (ring <= parallel) ring <<= 1;
  cf_frame* c = calloc(1, sizeof(cf_frame));
  if (c) c->iters = calloc((size_t)ring, sizeof(cf_iter*));
  cf_iter* first = c && c->iters ? iter_new(r, def) : NULL;
  if (!first) {
    if (c) free(c->iters);
    free(c);
    oom(r);
    return NULL;
  }
  c->def = def;
  c->parent = f;
  c->parent_iter = iter;
  c->max_parallel = parallel;
  c->ring = ring;
  c->outstanding_iters = 1;
  c->pending_inputs = r->cf->frames[def].nenters;
  c->iters[0] = first;
  c->sibling = f->children;
  f->children = c;
  f->iters[iter & (f->ring - 1)]->outstanding_frames++;
  return c;
}

/* Remembers that Exit `node` was dead in iteration `iter`, the newest so
 * far. An Exit dies in every iteration but the last, so the list keeps one
 * entry per Exit (memory flat over any trip count); only those dead in the
 * frame's last iteration pass deadness on when the frame ends. */
static void note_dead_exit(cf_run* r, cf_frame* f, int node, int64_t iter) {
  for (int k = 0; k < f->dead_exits.n; k++)
    if (f->dead_exits.items[k].node == node) {
      f->dead_exits.items[k].iter = iter;
      return;
    }
  if (list_push(r, &f->dead_exits, node, NULL)) f->dead_exits.items[f->dead_exits.n - 1].iter = iter;
}

/* Moves a node's outputs on, by the node's kind (PropagateOutputs). */
static void propagate(cf_run* r, const cf_task* t, cf_iter* it, TF_Tensor** outs) {
  const cf_node* n = &r->cf->nodes[t->node];
  cf_frame* f = t->frame;
  switch (n->kind) {
    case K_ENTER: {
      cf_frame* c = child_frame(r, f, t->iter, n->child, n->parallel);
      if (!c) return;
      if (n->is_constant) {
        TF_Tensor* v = outs[0] ? mt_tensor_share(outs[0]) : NULL;
        if (!list_push(r, &c->invariants, t->node, v)) return;
        for (int64_t i = 0; i <= c->iteration_count && mt_ok(r->s); i++)
          if (c->iters[i & (c->ring - 1)]) activate(r, t->node, outs, t->dead, c, i);
      } else {
        activate_edges(r, t->node, outs, 1, t->dead, c, 0);
      }
      c->pending_inputs--;
      if (mt_ok(r->s)) try_cleanup(r, c, 0);
      return;
    }
    case K_EXIT:
      if (!t->dead) activate_edges(r, t->node, outs, 1, 0, f->parent, f->parent_iter);
      else if (t->iter == f->iteration_count) note_dead_exit(r, f, t->node, t->iter);
      return;
    case K_NEXT: {
      if (t->dead) return; /* deadness stops at the back edge */
      if (t->iter == f->iteration_count && f->outstanding_iters == f->max_parallel) {
        list_push(r, &f->next_roots, t->node, mt_tensor_share(outs[0]));
        return;
      }
      int64_t ni = t->iter == f->iteration_count ? next_iteration(r, f) : t->iter + 1;
      if (ni >= 0) activate_edges(r, t->node, outs, 1, 0, f, ni);
      return;
    }
    default:
      deliver(r, t->node, outs, 1, t->dead, f, t->iter, it);
  }
}

/* A live output that will be read must be set (only a Switch leaves one
 * unset, as a dead tensor). */
static void check_outputs(cf_run* r, int k, TF_Tensor** outs) {
  const struct mt_cf_plan* cf = r->cf;
  if (!cf->nodes[k].check) return;
  for (int e = cf->edge_start[k]; e < cf->edge_start[k + 1]; e++)
    if (cf->edges[e].dst_in >= 0 && !outs[cf->edges[e].src_out]) {
      mt_status_setf(r->s, TF_INTERNAL, "Kernel did not set output %d", cf->edges[e].src_out);
      return;
    }
}

/* What a fetch sees: one live value. A tensor inside a loop is produced
 * once per iteration, which TensorFlow reports as its _Retval node does. */
static void record_fetches(cf_run* r, int k, TF_Tensor** outs) {
  const mt_plan* p = r->p;
  for (int j = 0; j < p->nfetches && mt_ok(r->s); j++) {
    TF_Output o = p->fetch_outputs[j];
    if (r->cf->fetch_node[j] != k || !outs[o.index]) continue;
    if (r->outputs[j]) {
      mt_status_setf(r->s, TF_INTERNAL,
                     "Retval[%d] has already been set.\n\t [[{{node _retval_%s_%d_%d}}]]", j,
                     o.oper->name, o.index, j);
      return;
    }
    r->outputs[j] = mt_fetch_value(outs[o.index], o, r->s);
  }
}

static void record_stats(cf_run* r, const TF_Operation* op, int64_t start, int64_t end) {
  mt_step_stats* st = r->stats;
  if (st->n == st->cap) {
    int cap = st->cap ? st->cap * 2 : 64;
    mt_node_stats* grown = realloc(st->nodes, sizeof(mt_node_stats) * (size_t)cap);
    if (!grown) {
      oom(r);
      return;
    }
    st->nodes = grown;
    st->cap = cap;
  }
  mt_node_stats* ns = &st->nodes[st->n++];
  ns->op = op;
  ns->all_start_ns = start;
  ns->op_start_rel_ns = 0;
  ns->op_end_rel_ns = ns->all_end_rel_ns = end - start;
}

/* A handle of an input slot that may move to an output: set, not a ref
 * value (the kernel path reads those as values). Fed inputs have no slot. */
static int movable_input(TF_Tensor* const* slots, int i) {
  return slots[i] && !mt_dtype_is_ref(slots[i]->dtype);
}

/* Runs an INL_* node as its kernel would, moving input handles to outputs;
 * 0 (nothing done) when the kernel must run instead. */
static int run_inline(cf_run* r, const cf_node* n, const TF_Operation* op, TF_Tensor** slots,
                      const int* fed) {
  TF_Tensor** out = r->out_buf;
  switch (n->inl) {
    case INL_CONST:
      out[0] = mt_tensor_share(n->konst);
      return 1;
    case INL_LOOPCOND: /* the kernel reports a cancelled step */
      if (r->ctl && r->ctl->cancelled && __atomic_load_n(r->ctl->cancelled, __ATOMIC_RELAXED))
        return 0;
      /* fall through */
    case INL_PASS:
      if (!movable_input(slots, 0)) return 0;
      out[0] = slots[0];
      slots[0] = NULL;
      return 1;
    case INL_SWITCH: {
      const TF_Tensor* pred = slots[1];
      if (!movable_input(slots, 0) || !pred || pred->ndims != 0 || pred->dtype != TF_BOOL)
        return 0;
      out[*(const unsigned char*)mt_tensor_data(pred) ? 1 : 0] = slots[0];
      slots[0] = NULL;
      return 1;
    }
    case INL_MERGE:
      for (int i = 0; i < op->ninputs; i++)
        if (fed[i] >= 0) return 0; /* the kernel sees fed values too */
      for (int i = 0; i < op->ninputs; i++) {
        if (!slots[i]) continue;
        const TF_Tensor* index = mt_merge_index_value(i);
        if (!movable_input(slots, i) || !index) return 0;
        out[0] = slots[i];
        slots[i] = NULL;
        out[1] = n->out1_read ? mt_tensor_share(index) : NULL; /* nobody reads it */
        return 1;
      }
      return 0;
    default:
      return 0;
  }
}

/* Runs one ready node (a dead one only passes its deadness on). */
static void process(cf_run* r, const cf_task* t) {
  const struct mt_cf_plan* cf = r->cf;
  const cf_node* n = &cf->nodes[t->node];
  TF_Operation* op = r->p->nodes[t->node].op;
  cf_iter* it = t->frame->iters[t->iter & (t->frame->ring - 1)];
  TF_Tensor** slots = it->inputs + n->in_base;
  const int* fed = cf->fed + cf->fed_start[t->node];
  /* r->out_buf is all NULL here: every task leaves it so */
  if (!t->dead && !(n->inl && !r->stats && run_inline(r, n, op, slots, fed))) {
    unsigned char* movable = r->fwd + op->ninputs;
    for (int i = 0; i < op->ninputs; i++) {
      r->in_buf[i] = fed[i] >= 0 ? r->feed_values[fed[i]] : slots[i];
      /* each input slot holds a handle of its own, dropped after the run */
      movable[i] = fed[i] < 0 && slots[i];
      r->fwd[i] = movable[i] && mt_tensor_unique(slots[i]);
    }
    int64_t start = r->stats ? mt_now_ns() : 0;
    mt_exec_kernel(op, r->in_buf, r->fwd, movable, r->out_buf, r->st, r->opts, r->ctl, r->s);
    for (int i = 0; i < op->ninputs; i++)
      if (movable[i] == 2) slots[i] = NULL; /* an output has its handle now */
    if (mt_ok(r->s)) check_outputs(r, t->node, r->out_buf);
    if (r->stats && mt_ok(r->s)) record_stats(r, op, start, mt_now_ns());
    if (mt_node_error(r->s)) mt_status_append(r->s, "\n\t [[{{node %s}}]]", op->name);
  }
  for (int i = 0; i < op->ninputs; i++)
    if (slots[i]) {
      mt_tensor_free(slots[i]);
      slots[i] = NULL;
    }
  if (n->has_fetch && mt_ok(r->s)) record_fetches(r, t->node, r->out_buf);
  if (mt_ok(r->s)) propagate(r, t, it, r->out_buf);
  for (int o = 0; o < op->noutputs; o++)
    if (r->out_buf[o]) {
      mt_tensor_free(r->out_buf[o]);
      r->out_buf[o] = NULL;
    }
  /* an iteration can only end when its last node has run */
  if (--it->outstanding_ops == 0 && it->outstanding_frames == 0 && mt_ok(r->s))
    try_cleanup(r, t->frame, t->iter);
}

static void free_frame_tree(cf_run* r, cf_frame* f) {
  while (f->children) {
    cf_frame* c = f->children;
    f->children = c->sibling;
    free_frame_tree(r, c);
  }
  for (int i = 0; i < f->ring; i++)
    if (f->iters[i]) iter_release(r, f->def, f->iters[i]);
  list_free(&f->invariants);
  list_free(&f->next_roots);
  list_free(&f->dead_exits);
  free(f->iters);
  free(f);
}

/* Fetches no live value reached: TF's "does not have value". */
static void finish_fetches(cf_run* r) {
  const mt_plan* p = r->p;
  for (int j = 0; j < p->nfetches && mt_ok(r->s); j++) {
    if (r->outputs[j]) continue;
    int f = -1;
    for (int k = 0; k < p->nfeeds; k++)
      if (p->feed_slots[k] == p->fetch_slots[j]) f = k;
    if (f >= 0) r->outputs[j] = mt_tensor_share(r->feed_values[f]);
    else mt_status_setf(r->s, TF_INVALID_ARGUMENT, "Retval[%d] does not have value", j);
  }
}

static void run_loop(cf_run* r, cf_frame* root) {
  const struct mt_cf_plan* cf = r->cf;
  for (int k = 0; k < r->p->nnodes && mt_ok(r->s); k++) {
    const cf_node* n = &cf->nodes[k];
    int no_inputs = cf->nodes[k].kind == K_MERGE ? n->pending0 == 1 && n->ndata == 0 : n->pending0 == 0;
    if (n->frame == 0 && no_inputs) push_task(r, k, 0, root, 0, root->iters[0]);
  }
  int timed = r->ctl && r->ctl->deadline_ns > 0;
  for (unsigned count = 0; r->qlen > 0 && mt_ok(r->s); count++) {
    if (timed && (count & 63) == 0 && mt_run_ctl_expired(r->ctl, r->s)) break;
    cf_task t = r->q[r->qhead];
    r->qhead = (r->qhead + 1) & (r->qcap - 1);
    r->qlen--;
    process(r, &t);
  }
}

void mt_cf_run(mt_plan* p, mt_session_state* st, TF_Tensor* const* feed_values,
               TF_Tensor** outputs, const struct TF_SessionOptions* opts, const mt_run_ctl* ctl,
               mt_step_stats* stats, TF_Status* s) {
  const struct mt_cf_plan* cf = p->cf;
  cf_run r = {p, cf, feed_values, outputs, NULL, 0, 0, 0, NULL, NULL, NULL, NULL,
              st, opts, ctl, stats, s};
  for (int k = 0; k < p->nfeeds && mt_ok(s); k++) mt_check_feed(p, k, feed_values[k], s);
  if (!mt_ok(s)) return;
  r.free_iters = mt_calloc((size_t)cf->nframes, sizeof(cf_iter*), s);
  r.in_buf = mt_calloc((size_t)p->max_inputs + 1, sizeof(TF_Tensor*), s);
  r.out_buf = mt_calloc((size_t)p->max_outputs + 1, sizeof(TF_Tensor*), s);
  r.fwd = mt_calloc(2 * (size_t)p->max_inputs + 1, 1, s); /* fwd, then movable */
  cf_frame* root = mt_calloc(1, sizeof(cf_frame), s);
  if (root) {
    root->ring = root->max_parallel = 1;
    root->iters = mt_calloc(1, sizeof(cf_iter*), s);
  }
  if (mt_ok(s) && (root->iters[0] = iter_new(&r, 0)) != NULL) {
    run_loop(&r, root);
    if (mt_ok(s)) finish_fetches(&r);
  }
  if (root && root->iters) free_frame_tree(&r, root);
  else free(root);
  for (int f = 0; r.free_iters && f < cf->nframes; f++)
    while (r.free_iters[f]) {
      cf_iter* next = r.free_iters[f]->next_free;
      free(r.free_iters[f]);
      r.free_iters[f] = next;
    }
  free(r.free_iters);
  free(r.q);
  free(r.in_buf);
  free(r.out_buf);
  free(r.fwd);
  if (!mt_ok(s))
    for (int k = 0; k < p->nfetches; k++) {
      mt_tensor_free(outputs[k]);
      outputs[k] = NULL;
    }
}
