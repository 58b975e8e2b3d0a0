/* The C API functions that speak protobuf: GraphDef import/export, NodeDef,
 * OpDef/OpList, AttrValue and ConfigProto (codecs in runtime/graphdef.c).
 *
 * GraphDef import builds every node through the public graph-building path
 * (TF_NewOperation ... TF_FinishOperation), so imported nodes are validated
 * and shape-inferred exactly like nodes built by hand. It is all or nothing:
 * on any error the ops added so far are removed again (mt_graph_truncate).
 * Importing into a graph that another thread is growing at the same time is
 * not supported (the rollback would remove the other thread's ops too). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/graph.h"
#include "runtime/function.h"
#include "runtime/graphdef.h"
#include "runtime/op_registry.h"
#include "runtime/session.h"
#include "runtime/status.h"
#include "tensorflow/c/c_api.h"

/* ------------------------------------------------------------------------ */
/* Buffers */

static void free_buffer_data(void* data, size_t len) { free(data); }

/* Moves the writer's bytes into an empty TF_Buffer. */
static void writer_to_buffer(mt_pb_writer* w, TF_Buffer* out, TF_Status* s) {
  if (w->failed) {
    mt_pb_writer_free(w);
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory serializing a proto");
    return;
  }
  size_t len;
  uint8_t* data = mt_pb_writer_take(w, &len);
  out->data = data;
  out->length = len;
  out->data_deallocator = data ? free_buffer_data : NULL;
  TF_SetStatus(s, TF_OK, "");
}

static int buffer_is_empty(const TF_Buffer* b, TF_Status* s) {
  if (!b) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Output TF_Buffer is NULL.");
    return 0;
  }
  if (b->data) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Passing non-empty TF_Buffer is invalid.");
    return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------------ */
/* Export */

void TF_GraphToGraphDef(TF_Graph* graph, TF_Buffer* output_graph_def, TF_Status* status) {
  if (!buffer_is_empty(output_graph_def, status)) return;
  mt_pb_writer w = mt_pb_writer_make();
  pthread_mutex_lock(&graph->mu);
  mt_graph_to_graph_def(&w, graph);
  pthread_mutex_unlock(&graph->mu);
  writer_to_buffer(&w, output_graph_def, status);
}

void TF_OperationToNodeDef(TF_Operation* oper, TF_Buffer* output_node_def, TF_Status* status) {
  if (!buffer_is_empty(output_node_def, status)) return;
  mt_pb_writer w = mt_pb_writer_make();
  mt_operation_to_node_def(&w, oper);
  writer_to_buffer(&w, output_node_def, status);
}

static void op_not_registered(TF_Status* s, const char* op_name) {
  mt_status_setf(s, TF_NOT_FOUND,
                 "Op type not registered '%s' in binary running on minitf. Make sure the Op "
                 "and Kernel are registered in the binary running in this process.",
                 op_name);
}

void TF_GraphGetOpDef(TF_Graph* graph, const char* op_name, TF_Buffer* output_op_def,
                      TF_Status* status) {
  const mt_op_def* def = op_name ? mt_op_lookup(op_name) : NULL;
  if (!def) {
    op_not_registered(status, op_name ? op_name : "");
    return;
  }
  if (!buffer_is_empty(output_op_def, status)) return;
  mt_pb_writer w = mt_pb_writer_make();
  mt_op_def_to_proto(&w, def);
  writer_to_buffer(&w, output_op_def, status);
}

TF_Buffer* TF_GetAllOpList(void) {
  TF_Buffer* b = TF_NewBuffer();
  TF_Status* s = TF_NewStatus();
  if (!b || !s) {
    TF_DeleteBuffer(b);
    TF_DeleteStatus(s);
    return NULL;
  }
  mt_pb_writer w = mt_pb_writer_make();
  mt_op_list_to_proto(&w, mt_registry_get());
  writer_to_buffer(&w, b, s);
  int ok = mt_ok(s);
  TF_DeleteStatus(s);
  if (!ok) {
    TF_DeleteBuffer(b);
    return NULL;
  }
  return b;
}

void TF_OperationGetAttrValueProto(TF_Operation* oper, const char* attr_name,
                                   TF_Buffer* output_attr_value, TF_Status* status) {
  const mt_attr* a = mt_attrs_find(oper->attrs, oper->nattrs, attr_name);
  if (!a) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "Operation '%s' has no attr named '%s'.",
                   oper->name, attr_name);
    return;
  }
  if (!buffer_is_empty(output_attr_value, status)) return;
  mt_pb_writer w = mt_pb_writer_make();
  mt_attr_value_to_proto(&w, &a->value);
  writer_to_buffer(&w, output_attr_value, status);
}

void TF_SetAttrValueProto(TF_OperationDescription* desc, const char* attr_name,
                          const void* proto, size_t proto_len, TF_Status* status) {
  mt_attr_value v;
  if (!mt_attr_value_parse(proto, proto_len, &v, status)) {
    mt_status_prefix(status, "Unparseable AttrValue proto for attr '%s': ", attr_name);
    /* TF_FinishOperation then fails too, so the bad node is never added. */
    if (!desc->deferred) desc->deferred = TF_NewStatus();
    if (desc->deferred && mt_ok(desc->deferred)) mt_status_copy(desc->deferred, status);
    return;
  }
  if (!mt_attrs_set(&desc->attrs, &desc->nattrs, attr_name, &v)) {
    mt_attr_value_clear(&v);
    desc->alloc_failed = 1;
    mt_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory setting attr '%s'", attr_name);
    return;
  }
  TF_SetStatus(status, TF_OK, "");
}

void TF_SetConfig(TF_SessionOptions* options, const void* proto, size_t proto_len,
                  TF_Status* status) {
  if (!mt_config_from_proto(proto, proto_len, options, status)) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "Unparseable ConfigProto");
    return;
  }
  TF_SetStatus(status, TF_OK, "");
}

/* ------------------------------------------------------------------------ */
/* Import options and results */

typedef struct input_map_entry {
  char* src;
  int index;
  TF_Output dst;
} input_map_entry;

typedef struct control_map_entry {
  char* src;
  TF_Operation* dst;
} control_map_entry;

struct TF_ImportGraphDefOptions {
  char* prefix;
  char* default_device;
  int uniquify_names, uniquify_prefix;
  int nmaps;
  input_map_entry* maps;
  int ncmaps;
  control_map_entry* cmaps;
  int nctrl;
  TF_Operation** ctrl;
  int nret_outputs;
  input_map_entry* ret_outputs; /* src/index used; dst unused */
  int nret_ops;
  char** ret_ops;
};

struct TF_ImportGraphDefResults {
  int noutputs;
  TF_Output* outputs;
  int nopers;
  TF_Operation** opers;
  int nmissing;
  const char** missing_names; /* owned */
  int* missing_indexes;
};

TF_ImportGraphDefOptions* TF_NewImportGraphDefOptions(void) {
  return calloc(1, sizeof(TF_ImportGraphDefOptions));
}

void TF_DeleteImportGraphDefOptions(TF_ImportGraphDefOptions* o) {
  if (!o) return;
  free(o->prefix);
  free(o->default_device);
  for (int k = 0; k < o->nmaps; k++) free(o->maps[k].src);
  free(o->maps);
  for (int k = 0; k < o->ncmaps; k++) free(o->cmaps[k].src);
  free(o->cmaps);
  free(o->ctrl);
  for (int k = 0; k < o->nret_outputs; k++) free(o->ret_outputs[k].src);
  free(o->ret_outputs);
  for (int k = 0; k < o->nret_ops; k++) free(o->ret_ops[k]);
  free(o->ret_ops);
  free(o);
}

static void replace_str(char** dst, const char* src) {
  free(*dst);
  *dst = src ? mt_strdup(src) : NULL;
}

void TF_ImportGraphDefOptionsSetPrefix(TF_ImportGraphDefOptions* o, const char* prefix) {
  replace_str(&o->prefix, prefix);
}

void TF_ImportGraphDefOptionsSetDefaultDevice(TF_ImportGraphDefOptions* o, const char* device) {
  replace_str(&o->default_device, device);
}

void TF_ImportGraphDefOptionsSetUniquifyNames(TF_ImportGraphDefOptions* o, unsigned char v) {
  o->uniquify_names = v != 0;
}

void TF_ImportGraphDefOptionsSetUniquifyPrefix(TF_ImportGraphDefOptions* o, unsigned char v) {
  o->uniquify_prefix = v != 0;
}

/* Appends one element to a small options array; silently keeps the old
 * array on allocation failure (these setters take no status). */
static void* append(void* arr, int* n, size_t sz) {
  void* p = realloc(arr, sz * (size_t)(*n + 1));
  if (!p) return NULL;
  (*n)++;
  return p;
}

void TF_ImportGraphDefOptionsAddInputMapping(TF_ImportGraphDefOptions* o, const char* src_name,
                                             int src_index, TF_Output dst) {
  input_map_entry e = {mt_strdup(src_name), src_index, dst};
  void* p = e.src ? append(o->maps, &o->nmaps, sizeof e) : NULL;
  if (!p) {
    free(e.src);
    return;
  }
  o->maps = p;
  o->maps[o->nmaps - 1] = e;
}

void TF_ImportGraphDefOptionsRemapControlDependency(TF_ImportGraphDefOptions* o,
                                                    const char* src_name, TF_Operation* dst) {
  control_map_entry e = {mt_strdup(src_name), dst};
  void* p = e.src ? append(o->cmaps, &o->ncmaps, sizeof e) : NULL;
  if (!p) {
    free(e.src);
    return;
  }
  o->cmaps = p;
  o->cmaps[o->ncmaps - 1] = e;
}

void TF_ImportGraphDefOptionsAddControlDependency(TF_ImportGraphDefOptions* o,
                                                  TF_Operation* oper) {
  void* p = append(o->ctrl, &o->nctrl, sizeof oper);
  if (!p) return;
  o->ctrl = p;
  o->ctrl[o->nctrl - 1] = oper;
}

void TF_ImportGraphDefOptionsAddReturnOutput(TF_ImportGraphDefOptions* o, const char* oper_name,
                                             int index) {
  input_map_entry e = {mt_strdup(oper_name), index, {NULL, 0}};
  void* p = e.src ? append(o->ret_outputs, &o->nret_outputs, sizeof e) : NULL;
  if (!p) {
    free(e.src);
    return;
  }
  o->ret_outputs = p;
  o->ret_outputs[o->nret_outputs - 1] = e;
}

int TF_ImportGraphDefOptionsNumReturnOutputs(const TF_ImportGraphDefOptions* o) {
  return o->nret_outputs;
}

void TF_ImportGraphDefOptionsAddReturnOperation(TF_ImportGraphDefOptions* o,
                                                const char* oper_name) {
  char* name = mt_strdup(oper_name);
  void* p = name ? append(o->ret_ops, &o->nret_ops, sizeof name) : NULL;
  if (!p) {
    free(name);
    return;
  }
  o->ret_ops = p;
  o->ret_ops[o->nret_ops - 1] = name;
}

int TF_ImportGraphDefOptionsNumReturnOperations(const TF_ImportGraphDefOptions* o) {
  return o->nret_ops;
}

void TF_ImportGraphDefResultsReturnOutputs(TF_ImportGraphDefResults* r, int* num_outputs,
                                           TF_Output** outputs) {
  *num_outputs = r->noutputs;
  *outputs = r->outputs;
}

void TF_ImportGraphDefResultsReturnOperations(TF_ImportGraphDefResults* r, int* num_opers,
                                              TF_Operation*** opers) {
  *num_opers = r->nopers;
  *opers = r->opers;
}

void TF_ImportGraphDefResultsMissingUnusedInputMappings(TF_ImportGraphDefResults* r,
                                                        int* num_missing, const char*** names,
                                                        int** indexes) {
  *num_missing = r->nmissing;
  *names = r->missing_names;
  *indexes = r->missing_indexes;
}

void TF_DeleteImportGraphDefResults(TF_ImportGraphDefResults* r) {
  if (!r) return;
  free(r->outputs);
  free(r->opers);
  for (int k = 0; k < r->nmissing; k++) free((char*)r->missing_names[k]);
  free(r->missing_names);
  free(r->missing_indexes);
  free(r);
}

/* ------------------------------------------------------------------------ */
/* Import */

/* One input of a NodeDef, resolved before any op is created. */
typedef struct imp_input {
  int control;
  int back;      /* a loop's back edge: NextIteration into Merge, connected last */
  int node;      /* producer's index in the GraphDef, or -1 when mapped */
  int index;     /* output index (data inputs) */
  TF_Output ext; /* mapped data input */
  TF_Operation* ext_ctrl; /* remapped control input */
} imp_input;

typedef struct imp_node {
  int ninputs;
  imp_input* inputs;
  int state; /* topological sort: 0 new, 1 on the stack, 2 done */
  TF_Operation* op;
} imp_node;

typedef struct importer {
  TF_Graph* graph;
  const TF_ImportGraphDefOptions* opts;
  mt_graph_def gd;
  imp_node* nodes;
  int hcap;
  int* htab; /* node index + 1; 0 = empty */
  unsigned char* map_used;
  int* order;
  char* prefix; /* "p/" or "" */
  TF_Status* s;
} importer;

static uint64_t hash_bytes(const char* p, size_t n) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t k = 0; k < n; k++) h = (h ^ (uint8_t)p[k]) * 1099511628211ULL;
  return h;
}

/* Index of GraphDef node `name[0, n)`, or -1. */
static int find_node(const importer* im, const char* name, size_t n) {
  if (!im->hcap) return -1;
  for (uint64_t h = hash_bytes(name, n);; h++) {
    int slot = im->htab[h & (uint64_t)(im->hcap - 1)];
    if (!slot) return -1;
    const char* cand = im->gd.nodes[slot - 1].name;
    if (strncmp(cand, name, n) == 0 && cand[n] == 0) return slot - 1;
  }
}

static int index_nodes(importer* im) {
  int n = im->gd.nnodes;
  im->hcap = 16;
  while (im->hcap < 2 * n) im->hcap *= 2;
  im->htab = calloc((size_t)im->hcap, sizeof(int));
  if (!im->htab) {
    mt_status_setf(im->s, TF_RESOURCE_EXHAUSTED, "out of memory importing a GraphDef");
    return 0;
  }
  for (int k = 0; k < n; k++) {
    const char* name = im->gd.nodes[k].name;
    if (!name[0]) {
      mt_status_setf(im->s, TF_INVALID_ARGUMENT, "Node %d in the GraphDef has no name", k);
      return 0;
    }
    if (find_node(im, name, strlen(name)) >= 0) {
      mt_status_setf(im->s, TF_INVALID_ARGUMENT, "Node '%s' is not unique", name);
      return 0;
    }
    uint64_t h = hash_bytes(name, strlen(name));
    while (im->htab[h & (uint64_t)(im->hcap - 1)]) h++;
    im->htab[h & (uint64_t)(im->hcap - 1)] = k + 1;
  }
  return 1;
}

/* Splits "name:12" into name length and index (TensorFlow's
 * ParseTensorName: a trailing ":digits" is the output index). */
static size_t split_tensor_name(const char* str, int* index) {
  size_t n = strlen(str);
  const char* colon = strrchr(str, ':');
  *index = 0;
  if (!colon || !colon[1]) return n;
  long v = 0;
  for (const char* p = colon + 1; *p; p++) {
    if (*p < '0' || *p > '9' || v > 100000000) return n;
    v = v * 10 + (*p - '0');
  }
  *index = (int)v;
  return (size_t)(colon - str);
}

static int resolve_input(importer* im, const mt_node_def* nd, const char* in, imp_input* out) {
  const TF_ImportGraphDefOptions* o = im->opts;
  memset(out, 0, sizeof *out);
  out->node = -1;
  if (in[0] == '^') {
    out->control = 1;
    for (int k = 0; o && k < o->ncmaps; k++) {
      if (strcmp(o->cmaps[k].src, in + 1) == 0) {
        out->ext_ctrl = o->cmaps[k].dst;
        return 1;
      }
    }
    out->node = find_node(im, in + 1, strlen(in + 1));
  } else {
    size_t n = split_tensor_name(in, &out->index);
    for (int k = 0; o && k < o->nmaps; k++) {
      const input_map_entry* m = &o->maps[k];
      if (m->index == out->index && strncmp(m->src, in, n) == 0 && m->src[n] == 0) {
        out->ext = m->dst;
        im->map_used[k] = 1;
        return 1;
      }
    }
    out->node = find_node(im, in, n);
  }
  if (out->node < 0) {
    mt_status_setf(im->s, TF_INVALID_ARGUMENT, "Node '%s': Unknown input node '%s'", nd->name, in);
    return 0;
  }
  return 1;
}

static int resolve_inputs(importer* im) {
  for (int k = 0; k < im->gd.nnodes; k++) {
    const mt_node_def* nd = &im->gd.nodes[k];
    imp_node* node = &im->nodes[k];
    node->inputs = calloc((size_t)(nd->ninputs ? nd->ninputs : 1), sizeof(imp_input));
    if (!node->inputs) {
      mt_status_setf(im->s, TF_RESOURCE_EXHAUSTED, "out of memory importing a GraphDef");
      return 0;
    }
    node->ninputs = nd->ninputs;
    int seen_control = 0;
    for (int j = 0; j < nd->ninputs; j++) {
      if (!resolve_input(im, nd, nd->inputs[j], &node->inputs[j])) return 0;
      if (node->inputs[j].control) {
        seen_control = 1;
      } else if (seen_control) {
        mt_status_setf(im->s, TF_INVALID_ARGUMENT,
                       "Node '%s': Control dependencies must come after regular dependencies",
                       nd->name);
        return 0;
      }
    }
  }
  return 1;
}

static int is_type(const mt_node_def* nd, const char* a, const char* b) {
  return strcmp(nd->op, a) == 0 || strcmp(nd->op, b) == 0;
}

/* Marks the inputs of each Merge that come from a NextIteration: while
 * loops are cycles through them, and TensorFlow's importer adds them after
 * every node exists. */
static void mark_back_edges(importer* im) {
  for (int k = 0; k < im->gd.nnodes; k++) {
    if (!is_type(&im->gd.nodes[k], "Merge", "RefMerge")) continue;
    imp_node* node = &im->nodes[k];
    for (int j = 0; j < node->ninputs; j++) {
      imp_input* in = &node->inputs[j];
      in->back = !in->control && in->node >= 0 &&
                 is_type(&im->gd.nodes[in->node], "NextIteration", "RefNextIteration");
    }
  }
}

/* Orders the nodes so that producers come first, keeping the GraphDef's
 * order where it already allows (back edges do not count). Iterative DFS: deep chains cannot
 * overflow the C stack. */
static int topo_sort(importer* im) {
  int n = im->gd.nnodes, norder = 0;
  int* stack = malloc(sizeof(int) * 2 * (size_t)(n ? n : 1)); /* (node, next input) pairs */
  im->order = malloc(sizeof(int) * (size_t)(n ? n : 1));
  if (!stack || !im->order) {
    free(stack);
    mt_status_setf(im->s, TF_RESOURCE_EXHAUSTED, "out of memory importing a GraphDef");
    return 0;
  }
  for (int root = 0; root < n; root++) {
    if (im->nodes[root].state) continue;
    int sp = 0;
    stack[0] = root;
    stack[1] = 0;
    im->nodes[root].state = 1;
    sp = 1;
    while (sp > 0) {
      int cur = stack[2 * (sp - 1)];
      int* next = &stack[2 * (sp - 1) + 1];
      imp_node* node = &im->nodes[cur];
      if (*next < node->ninputs) {
        const imp_input* in = &node->inputs[(*next)++];
        int dep = in->node;
        if (dep < 0 || in->back || im->nodes[dep].state == 2) continue;
        if (im->nodes[dep].state == 1) {
          mt_status_setf(im->s, TF_INVALID_ARGUMENT,
                         "Node '%s': GraphDef contains a cycle through input '%s'",
                         im->gd.nodes[cur].name, im->gd.nodes[dep].name);
          free(stack);
          return 0;
        }
        im->nodes[dep].state = 1;
        stack[2 * sp] = dep;
        stack[2 * sp + 1] = 0;
        sp++;
      } else {
        node->state = 2;
        im->order[norder++] = cur;
        sp--;
      }
    }
  }
  free(stack);
  return 1;
}

static int arg_length(const mt_op_def* def, const mt_arg_def* a, const mt_node_def* nd) {
  return mt_arg_length(def, a, nd->attrs, nd->nattrs);
}

static char* node_name(importer* im, const char* name) {
  size_t n = strlen(im->prefix) + strlen(name) + 1;
  char* out = malloc(n + 16);
  if (!out) return NULL;
  snprintf(out, n, "%s%s", im->prefix, name);
  if (!im->opts || !im->opts->uniquify_names) return out;
  for (int k = 1; mt_graph_find(im->graph, out); k++)
    snprintf(out, n + 16, "%s%s_%d", im->prefix, name, k);
  return out;
}

/* "_class" colocation entries name nodes: they follow the prefix. */
static int prefix_colocation(importer* im, mt_node_def* nd) {
  mt_attr* a = (mt_attr*)mt_attrs_find(nd->attrs, nd->nattrs, "_class");
  if (!im->prefix[0] || !a || !a->value.is_list || a->value.kind != MT_ATTR_S) return 1;
  for (int k = 0; k < a->value.list.n; k++) {
    mt_bytes* b = &a->value.list.s[k];
    if (b->len < 5 || strncmp(b->data, "loc:@", 5) != 0) continue;
    size_t n = b->len + strlen(im->prefix) + 1;
    char* d = malloc(n);
    if (!d) return 0;
    snprintf(d, n, "loc:@%s%s", im->prefix, b->data + 5);
    free(b->data);
    b->data = d;
    b->len = strlen(d);
  }
  return 1;
}

static TF_Output input_output(const importer* im, const imp_input* in) {
  if (in->node < 0) return in->ext;
  TF_Output o = {im->nodes[in->node].op, in->index};
  return o;
}

/* Checks the data inputs against the op signature and adds them grouped
 * by input arg. */
static int add_inputs(importer* im, int k, const mt_op_def* def, TF_OperationDescription* d) {
  const mt_node_def* nd = &im->gd.nodes[k];
  const imp_node* node = &im->nodes[k];
  int ndata = 0, want = 0;
  for (int j = 0; j < node->ninputs; j++) {
    const imp_input* in = &node->inputs[j];
    if (in->control) continue;
    ndata++;
    if (in->back) continue; /* checked when connected */
    TF_Output o = input_output(im, in);
    if (in->node >= 0 && in->index >= TF_OperationNumOutputs(o.oper)) {
      mt_status_setf(im->s, TF_INVALID_ARGUMENT,
                     "Node '%s': Connecting to invalid output %d of source node %s which has "
                     "%d outputs.", nd->name, in->index, im->gd.nodes[in->node].name,
                     TF_OperationNumOutputs(o.oper));
      return 0;
    }
  }
  for (int a = 0; a < def->ninputs; a++) {
    int len = arg_length(def, &def->inputs[a], nd);
    if (len < 0) {
      mt_status_setf(im->s, TF_INVALID_ARGUMENT,
                     "Node '%s': missing or invalid length attr for input list '%s' of op '%s'",
                     nd->name, def->inputs[a].name, nd->op);
      return 0;
    }
    want += len;
  }
  if (want != ndata) {
    mt_status_setf(im->s, TF_INVALID_ARGUMENT,
                   "Node '%s': op '%s' expects %d inputs, the NodeDef has %d", nd->name, nd->op,
                   want, ndata);
    return 0;
  }
  TF_Output* list = malloc(sizeof(TF_Output) * (size_t)(ndata ? ndata : 1));
  if (!list) {
    mt_status_setf(im->s, TF_RESOURCE_EXHAUSTED, "out of memory importing a GraphDef");
    return 0;
  }
  /* A back edge's NextIteration does not exist yet: the Merge reads one of
   * its other inputs until connect_back_edges runs. */
  TF_Output stand_in = {NULL, 0};
  for (int j = 0; j < ndata; j++)
    if (!node->inputs[j].back) stand_in = input_output(im, &node->inputs[j]);
  for (int j = 0; j < ndata; j++) {
    list[j] = node->inputs[j].back ? stand_in : input_output(im, &node->inputs[j]);
    if (!list[j].oper) {
      mt_status_setf(im->s, TF_INVALID_ARGUMENT,
                     "Node '%s': every input of this Merge is a NextIteration, so no input can "
                     "arrive first (a loop's Merge needs an input from its Enter)", nd->name);
      free(list);
      return 0;
    }
  }
  int at = 0;
  for (int a = 0; a < def->ninputs; a++) {
    const mt_arg_def* arg = &def->inputs[a];
    int len = arg_length(def, arg, nd);
    if (arg->number_attr || arg->type_list_attr) TF_AddInputList(d, list + at, len);
    else TF_AddInput(d, list[at]);
    at += len;
  }
  free(list);
  return 1;
}

static void add_control_inputs(importer* im, int k, TF_OperationDescription* d) {
  const imp_node* node = &im->nodes[k];
  int from_import = 0;
  for (int j = 0; j < node->ninputs; j++) {
    const imp_input* in = &node->inputs[j];
    if (in->node >= 0) from_import = 1;
    if (!in->control) continue;
    TF_AddControlInput(d, in->node >= 0 ? im->nodes[in->node].op : in->ext_ctrl);
  }
  /* Nodes fed by other imported nodes depend on the extra control inputs
   * through them already. */
  for (int j = 0; !from_import && im->opts && j < im->opts->nctrl; j++)
    TF_AddControlInput(d, im->opts->ctrl[j]);
}

/* Moves the NodeDef's attrs into the description. */
static int move_attrs(importer* im, mt_node_def* nd, TF_OperationDescription* d) {
  if (!prefix_colocation(im, nd)) {
    mt_status_setf(im->s, TF_RESOURCE_EXHAUSTED, "out of memory importing a GraphDef");
    return 0;
  }
  for (int j = 0; j < nd->nattrs; j++) {
    mt_attr* a = &nd->attrs[j];
    if (strcmp(a->name, "_output_shapes") == 0) continue; /* applied, then dropped */
    if (a->value.kind == MT_ATTR_NONE && !a->value.is_list) {
      mt_status_setf(im->s, TF_INVALID_ARGUMENT, "Node '%s': attr '%s' has no value", nd->name,
                     a->name);
      return 0;
    }
    if (!mt_attrs_set(&d->attrs, &d->nattrs, a->name, &a->value)) {
      mt_status_setf(im->s, TF_RESOURCE_EXHAUSTED, "out of memory importing a GraphDef");
      return 0;
    }
  }
  return 1;
}

/* As TF's importer (GraphConstructor::ValidateShape): a node's `_output_shapes` attr
 * refines the shapes its shape function inferred (a loop's Enter, a ReadVariableOp whose
 * handle comes through control flow), must agree with them, and is not kept. */
static int apply_output_shapes(importer* im, const mt_node_def* nd, TF_Operation* op) {
  const mt_attr_value* v = NULL;
  for (int j = 0; j < nd->nattrs; j++)
    if (strcmp(nd->attrs[j].name, "_output_shapes") == 0) v = &nd->attrs[j].value;
  if (!v || !v->is_list || (v->kind != MT_ATTR_SHAPE && v->list.n > 0)) return 1;
  if (v->list.n < op->noutputs) {
    mt_status_setf(im->s, TF_INVALID_ARGUMENT, "Node '%s' has %d outputs but the "
                   "_output_shapes attribute specifies shapes for %d outputs", nd->name,
                   op->noutputs, v->list.n);
    return 0;
  }
  for (int i = 0; i < op->noutputs; i++) {
    mt_shape merged = op->output_shapes[i];
    const mt_shape* want = &v->list.shape[i];
    if (mt_shape_merge(&merged, want)) {
      op->output_shapes[i] = merged;
      continue;
    }
    const mt_shape* have = &op->output_shapes[i];
    if (have->rank != want->rank) {
      mt_status_setf(im->s, TF_INVALID_ARGUMENT, "Node '%s' has an _output_shapes attribute "
                     "inconsistent with the GraphDef for output #%d: Shapes must be equal "
                     "rank, but are %d and %d", nd->name, i, have->rank, want->rank);
      return 0;
    }
    for (int d = 0; d < have->rank; d++) {
      if (have->dims[d] < 0 || want->dims[d] < 0 || have->dims[d] == want->dims[d]) continue;
      char a[256], b[256];
      mt_status_setf(im->s, TF_INVALID_ARGUMENT, "Node '%s' has an _output_shapes attribute "
                     "inconsistent with the GraphDef for output #%d: Dimension %d in both "
                     "shapes must be equal, but are %lld and %lld. Shapes are %s and %s.",
                     nd->name, i, d, (long long)have->dims[d], (long long)want->dims[d],
                     mt_shape_str(have, a, sizeof a), mt_shape_str(want, b, sizeof b));
      return 0;
    }
  }
  return 1;
}

static int build_node(importer* im, int k) {
  mt_node_def* nd = &im->gd.nodes[k];
  const mt_op_def* def = mt_op_lookup(nd->op);
  if (!def) {
    op_not_registered(im->s, nd->op);
    mt_status_prefix(im->s, "Node '%s': ", nd->name);
    return 0;
  }
  char* name = node_name(im, nd->name);
  if (!name) {
    mt_status_setf(im->s, TF_RESOURCE_EXHAUSTED, "out of memory importing a GraphDef");
    return 0;
  }
  if (mt_graph_find(im->graph, name)) {
    mt_status_setf(im->s, TF_INVALID_ARGUMENT, "Node name '%s' already exists in the Graph",
                   name);
    free(name);
    return 0;
  }
  TF_OperationDescription* d = TF_NewOperation(im->graph, nd->op, name);
  free(name);
  if (!d) {
    mt_status_setf(im->s, TF_RESOURCE_EXHAUSTED, "out of memory importing a GraphDef");
    return 0;
  }
  const char* dev = nd->device[0] ? nd->device : im->opts ? im->opts->default_device : NULL;
  if (dev && dev[0]) TF_SetDevice(d, dev);
  if (!add_inputs(im, k, def, d) || !move_attrs(im, nd, d)) {
    mt_desc_free(d);
    return 0;
  }
  add_control_inputs(im, k, d);
  im->nodes[k].op = TF_FinishOperation(d, im->s);
  return im->nodes[k].op != NULL && apply_output_shapes(im, nd, im->nodes[k].op);
}

/* The prefix as "p/", made unique if asked. */
static int set_prefix(importer* im) {
  const char* p = im->opts && im->opts->prefix ? im->opts->prefix : "";
  size_t n = strlen(p);
  if (n && p[n - 1] == '/') n--;
  im->prefix = malloc(n + 24);
  if (!im->prefix) return 0;
  if (!n) {
    im->prefix[0] = 0;
    return 1;
  }
  snprintf(im->prefix, n + 24, "%.*s", (int)n, p);
  for (int k = 1; im->opts->uniquify_prefix; k++) {
    int used = 0;
    size_t m = strlen(im->prefix);
    for (int j = 0; j < im->graph->nops && !used; j++) {
      const char* name = im->graph->ops[j]->name;
      used = strncmp(name, im->prefix, m) == 0 && (name[m] == 0 || name[m] == '/');
    }
    if (!used) break;
    snprintf(im->prefix, n + 24, "%.*s_%d", (int)n, p, k);
  }
  strcat(im->prefix, "/");
  return 1;
}

static TF_ImportGraphDefResults* make_results(importer* im) {
  const TF_ImportGraphDefOptions* o = im->opts;
  TF_ImportGraphDefResults* r = calloc(1, sizeof *r);
  int nout = o ? o->nret_outputs : 0, nops = o ? o->nret_ops : 0, nmaps = o ? o->nmaps : 0;
  if (!r) goto oom;
  r->outputs = calloc((size_t)nout + 1, sizeof(TF_Output));
  r->opers = calloc((size_t)nops + 1, sizeof(TF_Operation*));
  r->missing_names = calloc((size_t)nmaps + 1, sizeof(char*));
  r->missing_indexes = calloc((size_t)nmaps + 1, sizeof(int));
  if (!r->outputs || !r->opers || !r->missing_names || !r->missing_indexes) goto oom;
  for (int k = 0; k < nout; k++) {
    const input_map_entry* e = &o->ret_outputs[k];
    int mapped = 0;
    for (int j = 0; j < nmaps && !mapped; j++) {
      if (o->maps[j].index == e->index && strcmp(o->maps[j].src, e->src) == 0) {
        r->outputs[k] = o->maps[j].dst;
        mapped = 1;
      }
    }
    if (mapped) continue;
    int node = find_node(im, e->src, strlen(e->src));
    if (node < 0) {
      mt_status_setf(im->s, TF_INVALID_ARGUMENT,
                     "Requested return tensor '%s:%d' not found in graph def", e->src, e->index);
      goto fail;
    }
    TF_Operation* op = im->nodes[node].op;
    if (e->index < 0 || e->index >= TF_OperationNumOutputs(op)) {
      mt_status_setf(im->s, TF_INVALID_ARGUMENT,
                     "Invalid return output %d of node '%s', which has %d output(s)", e->index,
                     e->src, TF_OperationNumOutputs(op));
      goto fail;
    }
    r->outputs[k].oper = op;
    r->outputs[k].index = e->index;
  }
  r->noutputs = nout;
  for (int k = 0; k < nops; k++) {
    int node = find_node(im, o->ret_ops[k], strlen(o->ret_ops[k]));
    if (node < 0) {
      mt_status_setf(im->s, TF_INVALID_ARGUMENT,
                     "Requested return node '%s' not found in graph def", o->ret_ops[k]);
      goto fail;
    }
    r->opers[k] = im->nodes[node].op;
  }
  r->nopers = nops;
  for (int k = 0; k < nmaps; k++) {
    if (im->map_used[k]) continue;
    if (!(r->missing_names[r->nmissing] = mt_strdup(o->maps[k].src))) goto oom;
    r->missing_indexes[r->nmissing++] = o->maps[k].index;
  }
  return r;
oom:
  mt_status_setf(im->s, TF_RESOURCE_EXHAUSTED, "out of memory importing a GraphDef");
fail:
  TF_DeleteImportGraphDefResults(r);
  return NULL;
}

static int check_versions(importer* im) {
  if (im->gd.has_versions && im->gd.min_consumer > MT_GRAPH_DEF_PRODUCER) {
    mt_status_setf(im->s, TF_INVALID_ARGUMENT,
                   "GraphDef min consumer %d above current version %d for TensorFlow",
                   im->gd.min_consumer, MT_GRAPH_DEF_PRODUCER);
    return 0;
  }
  return 1;
}

/* The GraphDef's functions join the graph's library before its nodes. */
static int add_library(importer* im) {
  for (int k = 0; k < im->gd.nfunctions; k++)
    if (!mt_graph_add_function(im->graph, im->gd.functions[k], NULL, im->s)) return 0;
  for (int k = 0; k < im->gd.ngradients; k++) {
    mt_fn_entry* f = mt_graph_find_function(im->graph, im->gd.gradients[2 * k]);
    mt_fn_entry* g = mt_graph_find_function(im->graph, im->gd.gradients[2 * k + 1]);
    if (!f || !g) {
      mt_status_setf(im->s, TF_INVALID_ARGUMENT,
                     "Cannot add gradient function '%s' for '%s': no such function",
                     im->gd.gradients[2 * k + 1], im->gd.gradients[2 * k]);
      return 0;
    }
    if (!mt_graph_add_function(im->graph, f->fn, g->fn, im->s)) return 0;
  }
  return im->gd.nfunctions == 0 || mt_graph_check_functions(im->graph, im->s);
}

/* Points each Merge's back-edge inputs at their NextIteration, and gives
 * the Merge the shape its real inputs agree on. */
static int connect_back_edges(importer* im) {
  for (int k = 0; k < im->gd.nnodes; k++) {
    imp_node* node = &im->nodes[k];
    int data = 0, changed = 0;
    for (int j = 0; j < node->ninputs; j++) {
      const imp_input* in = &node->inputs[j];
      if (in->control) continue;
      if (in->back) {
        TF_Output src = {im->nodes[in->node].op, in->index};
        if (in->index >= src.oper->noutputs) {
          mt_status_setf(im->s, TF_INVALID_ARGUMENT,
                         "Node '%s': Connecting to invalid output %d of source node %s which has "
                         "%d outputs.", im->gd.nodes[k].name, in->index,
                         im->gd.nodes[in->node].name, src.oper->noutputs);
          return 0;
        }
        if (!mt_graph_update_input(im->graph, node->op, data, src, im->s)) return 0;
        changed = 1;
      }
      data++;
    }
    if (!changed) continue;
    TF_Operation* op = node->op;
    mt_shape out = op->output_shapes[0];
    for (int j = 0; j < op->ninputs; j++) {
      const mt_shape* in = &op->inputs[j].oper->output_shapes[op->inputs[j].index];
      if (in->rank != out.rank) {
        out = mt_shape_unknown();
        break;
      }
      for (int d = 0; d < out.rank; d++)
        if (in->dims[d] != out.dims[d]) out.dims[d] = -1;
    }
    op->output_shapes[0] = out;
  }
  return 1;
}

static TF_ImportGraphDefResults* import(importer* im, const TF_Buffer* buf) {
  const void* data = buf ? buf->data : NULL;
  size_t len = buf && buf->data ? buf->length : 0;
  if (!mt_graph_def_parse(data, len, &im->gd, im->s)) {
    mt_status_prefix(im->s, "Invalid GraphDef: ");
    return NULL;
  }
  int n = im->gd.nnodes, nmaps = im->opts ? im->opts->nmaps : 0;
  im->nodes = calloc((size_t)n + 1, sizeof(imp_node));
  im->map_used = calloc((size_t)nmaps + 1, 1);
  if (!im->nodes || !im->map_used || !set_prefix(im)) {
    mt_status_setf(im->s, TF_RESOURCE_EXHAUSTED, "out of memory importing a GraphDef");
    return NULL;
  }
  if (!check_versions(im) || !add_library(im) || !index_nodes(im) || !resolve_inputs(im))
    return NULL;
  mark_back_edges(im);
  if (!topo_sort(im)) return NULL;
  for (int k = 0; k < n; k++)
    if (!build_node(im, im->order[k])) return NULL;
  if (!connect_back_edges(im)) return NULL;
  return make_results(im);
}

static void importer_free(importer* im) {
  for (int k = 0; im->nodes && k < im->gd.nnodes; k++) free(im->nodes[k].inputs);
  free(im->nodes);
  mt_graph_def_clear(&im->gd);
  free(im->htab);
  free(im->map_used);
  free(im->order);
  free(im->prefix);
}

TF_ImportGraphDefResults* TF_GraphImportGraphDefWithResults(TF_Graph* graph,
                                                            const TF_Buffer* graph_def,
                                                            const TF_ImportGraphDefOptions* options,
                                                            TF_Status* status) {
  importer im;
  memset(&im, 0, sizeof im);
  im.graph = graph;
  im.opts = options;
  im.s = status;
  TF_SetStatus(status, TF_OK, "");
  int nops_before = graph->nops, nfns_before = mt_graph_num_functions(graph);
  TF_ImportGraphDefResults* r = import(&im, graph_def);
  if (!r) {
    mt_graph_truncate(graph, nops_before);
    mt_graph_truncate_functions(graph, nfns_before);
  }
  else TF_SetStatus(status, TF_OK, "");
  importer_free(&im);
  return r;
}

void TF_GraphImportGraphDefWithReturnOutputs(TF_Graph* graph, const TF_Buffer* graph_def,
                                             const TF_ImportGraphDefOptions* options,
                                             TF_Output* return_outputs, int num_return_outputs,
                                             TF_Status* status) {
  int want = options ? options->nret_outputs : 0;
  if (num_return_outputs != want) {
    mt_status_setf(status, TF_INVALID_ARGUMENT,
                   "Expected 'num_return_outputs' to be %d, got %d", want, num_return_outputs);
    return;
  }
  TF_ImportGraphDefResults* r = TF_GraphImportGraphDefWithResults(graph, graph_def, options,
                                                                  status);
  if (!r) return;
  for (int k = 0; k < num_return_outputs; k++) return_outputs[k] = r->outputs[k];
  TF_DeleteImportGraphDefResults(r);
}

void TF_GraphImportGraphDef(TF_Graph* graph, const TF_Buffer* graph_def,
                            const TF_ImportGraphDefOptions* options, TF_Status* status) {
  TF_DeleteImportGraphDefResults(
      TF_GraphImportGraphDefWithResults(graph, graph_def, options, status));
}
