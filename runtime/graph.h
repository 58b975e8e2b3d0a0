/* The graph: operations with unique names, data inputs (node:index),
 * control inputs, attrs, requested device, and static output shapes from
 * shape inference at TF_FinishOperation. Operations are never removed
 * except by a failed import's rollback. */
#ifndef MINITF_RUNTIME_GRAPH_H_
#define MINITF_RUNTIME_GRAPH_H_

#include <pthread.h>
#include "runtime/attr.h"
#include "runtime/op_registry.h"
#include "tensorflow/c/c_api.h"

typedef struct mt_consumers {
  int n, cap;
  TF_Input* items;
} mt_consumers;

struct TF_Operation {
  TF_Graph* graph;
  int id; /* index in graph->ops */
  char* name;
  char* op_type;
  char* device;
  const mt_op_def* def;

  int ninputs;
  TF_Output* inputs;
  TF_DataType* input_types;
  /* Per input arg of def: number of tensors it took (1, or list length). */
  int* input_arg_len;

  int ncontrol_inputs;
  TF_Operation** control_inputs;
  int ncontrol_outputs, control_outputs_cap;
  TF_Operation** control_outputs;

  int nattrs;
  mt_attr* attrs; /* all attrs, defaults filled in */

  int noutputs;
  TF_DataType* output_types;
  mt_shape* output_shapes;
  int* output_arg_len;
  mt_consumers* consumers; /* one per output */

  /* Construction-time constant folding cache (graph->mu held): per output,
   * fold_state 0 = not tried, 1 = folded[i] holds the value, 2 = not a
   * constant. Allocated on first use. */
  unsigned char* fold_state;
  TF_Tensor** folded;
};

struct TF_Graph {
  pthread_mutex_t mu;
  int nops, cap;
  TF_Operation** ops;
  /* open-addressing hash: name -> op */
  int hcap;
  TF_Operation** htab;
  /* Bumped (under mu) when an existing op changes in a way plans depend on
   * (control inputs added, ops removed); part of every plan's cache key. */
  int mutations;
  int nsessions;        /* live sessions referring to the graph */
  int delete_requested; /* TF_DeleteGraph called while sessions live */
  /* Keys gradient functions have seen in this graph (TensorFlow keeps such
   * caches on its Python Graph, e.g. _SumGrad's _reduced_shape_cache). */
  int ngrad_keys, grad_keys_cap;
  char** grad_keys;
  /* The function library (runtime/function.h), guarded by lib_mu. The
   * graph of an instantiated function body has none of its own: it uses
   * lib_parent's. */
  pthread_mutex_t lib_mu;
  int nfns, fns_cap;
  struct mt_fn_entry** fns;
  TF_Graph* lib_parent;
};

typedef struct mt_desc_input {
  int is_list; /* from TF_AddInputList */
  int n;
  TF_Output* items; /* n items (1 for a single input) */
} mt_desc_input;

struct TF_OperationDescription {
  TF_Graph* graph;
  char* op_type;
  char* name;
  char* device;
  int ninputs, inputs_cap;
  mt_desc_input* inputs;
  int ncontrol, control_cap;
  TF_Operation** control;
  int nattrs;
  mt_attr* attrs;
  int alloc_failed; /* an allocation failed while describing */
  TF_Status* deferred; /* first error from a setter that takes no status */
};

/* Lookup under no lock (reads are safe against concurrent lookups; adding
 * ops takes graph->mu). */
TF_Operation* mt_graph_find(TF_Graph* g, const char* name);

/* Adds key to the graph's gradient cache keys: 1 when it is new, 0 when it
 * was there, -1 when out of memory. Graph building is single-threaded. */
int mt_graph_grad_key_add(TF_Graph* g, const char* key);

/* Validates, infers shapes and adds the described op; frees desc. Caller
 * must hold no lock. */
TF_Operation* mt_graph_finish(TF_OperationDescription* desc, TF_Status* s);

/* Makes input idx of op read src instead (a loop's Merge gets its
 * NextIteration back edge this way, as TF_UpdateEdge does). The dtypes
 * must agree: else TF_INVALID_ARGUMENT in TensorFlow's wording. Takes
 * graph->mu. Shapes are not re-inferred. */
int mt_graph_update_input(TF_Graph* g, TF_Operation* op, int idx, TF_Output src, TF_Status* s);

/* Appends `srcs` to the last input arg of op, which must be a list
 * (TensorFlow's AddWhileInputHack: a While gets its gradient accumulators
 * this way); the list's type attr must already name their types.
 * TF_INVALID_ARGUMENT when op has no list input or a source is of another
 * graph. Takes graph->mu; bumps g->mutations. */
int mt_graph_append_inputs(TF_Graph* g, TF_Operation* op, const TF_Output* srcs, int n,
                           TF_Status* s);

/* Re-derives op's outputs from its attrs after a type-list or number attr
 * grew (an If or While given more results, TensorFlow's
 * Operation._add_outputs). Existing outputs and their consumers stay; new
 * ones get the shapes op's shape function gives (unknown if it fails).
 * TF_INVALID_ARGUMENT when the attrs now give fewer outputs. Bumps
 * g->mutations, so sessions build new plans. */
int mt_graph_refresh_outputs(TF_Graph* g, TF_Operation* op, TF_Status* s);

/* Removes every op with id >= n (import rollback). */
void mt_graph_truncate(TF_Graph* g, int n);

const mt_attr_value* mt_op_attr(const TF_Operation* op, const char* name);
/* Typed getters with a default when absent. */
int64_t mt_op_attr_int(const TF_Operation* op, const char* name, int64_t dflt);
int mt_op_attr_bool(const TF_Operation* op, const char* name, int dflt);
float mt_op_attr_float(const TF_Operation* op, const char* name, float dflt);
TF_DataType mt_op_attr_type(const TF_Operation* op, const char* name, TF_DataType dflt);
/* NUL-terminated string attr, or dflt. */
const char* mt_op_attr_str(const TF_Operation* op, const char* name, const char* dflt);

/* Index range of input/output arg `name` of `def` for op: sets *start and
 * *len; returns 0 if no such arg. */
int mt_op_input_range(const TF_Operation* op, const char* name, int* start, int* len);
int mt_op_output_range(const TF_Operation* op, const char* name, int* start, int* len);

void mt_graph_free(TF_Graph* g);


TF_Graph* mt_graph_new(void);
/* Frees a description without finishing it. */
void mt_desc_free(TF_OperationDescription* d);

#endif
