/* Functions: TensorFlow's FunctionDefs, kept in a graph's function library
 * and run by the functional ops (PartitionedCall, If, While, Case).
 *
 * A function holds its FunctionDef as serialized bytes (what export writes,
 * so a library read from TensorFlow goes back out byte for byte) and the
 * parts the runtime needs: the signature (an OpDef), the body's NodeDefs
 * and the ret / control_ret maps. A graph's library entry instantiates the
 * function on its first call: the body becomes a graph of its own
 * (a Placeholder per argument, the nodes, the returned outputs) with one
 * cached plan, shared by every later call. Functions are immutable and
 * refcounted; the same function may sit in several libraries.
 *
 * Thread-safety: libraries are guarded by the graph's lib_mu; an entry's
 * instantiation by its own mutex, so calls may run concurrently. */
#ifndef MINITF_RUNTIME_FUNCTION_H_
#define MINITF_RUNTIME_FUNCTION_H_

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/graph.h"
#include "runtime/graphdef.h"
#include "runtime/session.h"

typedef struct mt_function {
  int refs; /* atomic */
  char* name;
  uint8_t* fdef; /* the serialized FunctionDef */
  size_t fdef_len;
  mt_op_def sig;
  int nnodes;
  mt_node_def* nodes;
  int nret;
  char** ret_keys; /* output arg name -> "node:out_arg:index" or an input arg name */
  char** ret_vals;
  int ncret;
  char** cret_keys; /* control output name -> node name */
  char** cret_vals;
  int nattrs;
  mt_attr* attrs; /* FunctionDef.attr */
} mt_function;

/* One function in a graph's library, with its instantiation there. */
typedef struct mt_fn_entry {
  mt_function* fn;
  char* grad; /* name of its gradient function (GradientDef), or NULL */
  pthread_mutex_t mu;
  int state; /* 0 not instantiated, 1 ready, 2 failed */
  TF_Code error_code;
  char* error;
  TF_Graph* body;
  mt_plan* plan;
  int nargs, nrets;
} mt_fn_entry;

/* Parses a serialized FunctionDef. NULL + TF_INVALID_ARGUMENT on malformed
 * bytes or a signature without a name. The result has one reference. */
mt_function* mt_function_parse(const void* data, size_t len, TF_Status* s);
/* The same from an unpacked FunctionDef whose encoding is data/len (kept as the
 * function's bytes; copied). */
struct Tensorflow__FunctionDef;
mt_function* mt_function_from_pb(const struct Tensorflow__FunctionDef* p, const void* data,
                                 size_t len, TF_Status* s);
void mt_function_ref(mt_function* f);
void mt_function_unref(mt_function* f);

/* A function made from ops of graph `g` (TF_GraphToFunction): `opers`
 * (nopers < 0: every op not feeding only `inputs`), arguments `inputs`,
 * results `outputs` named `output_names` (NULL: from the ops), control
 * outputs. Names follow TensorFlow's: argument and result names are the
 * producing ops' names lowercased with other characters as '_', made
 * unique. TF_INVALID_ARGUMENT for inputs given twice, ops outside the body
 * that a body op reads, or an invalid name. */
mt_function* mt_function_from_graph(TF_Graph* g, const char* name, int nopers,
                                    const TF_Operation* const* opers, int ninputs,
                                    const TF_Output* inputs, int noutputs,
                                    const TF_Output* outputs, const char* const* output_names,
                                    int ncontrol, const TF_Operation* const* control,
                                    const char* const* control_names, const char* description,
                                    TF_Status* s);

/* The graph whose library `g` uses: a function body uses its caller's. */
TF_Graph* mt_graph_lib_root(TF_Graph* g);
/* Adds `f` (and, when grad is not NULL, `grad` as its gradient) to the
 * library of `g`. A function of the same name already there must have the
 * same definition (TF_INVALID_ARGUMENT otherwise, TensorFlow's wording). */
int mt_graph_add_function(TF_Graph* g, mt_function* f, mt_function* grad, TF_Status* s);
/* The entry named `name` in g's library (through mt_graph_lib_root), or
 * NULL. Entries live as long as the library's graph. */
mt_fn_entry* mt_graph_find_function(TF_Graph* g, const char* name);
int mt_graph_num_functions(TF_Graph* g);
/* Up to max functions of g's own library, each with a new reference. */
int mt_graph_get_functions(TF_Graph* g, mt_function** out, int max);
void mt_graph_free_functions(TF_Graph* g);
/* Removes the entries added after the first n (import rollback). */
void mt_graph_truncate_functions(TF_Graph* g, int n);
/* Checks a library for calls of undefined functions and for recursion
 * (TF_INVALID_ARGUMENT naming the function). */
int mt_graph_check_functions(TF_Graph* g, TF_Status* s);

/* Writes g's library as a FunctionDefLibrary body (nothing when empty). */
void mt_graph_library_to_proto(mt_pb_writer* w, TF_Graph* g);

/* Calls function `name` of op's library with `args` (borrowed, one per
 * argument); `rets` receives new handles. Instantiates it on first use.
 * The body runs under `ctl` (the caller's step deadline and cancellation;
 * NULL: none). TF_NOT_FOUND when no such function, TF_INVALID_ARGUMENT when
 * the argument count or types do not match its signature. */
void mt_function_call(const TF_Operation* op, const char* name, mt_session_state* st,
                      int intra_threads, const mt_run_ctl* ctl, TF_Tensor* const* args,
                      int nargs, TF_Tensor** rets, int nrets, TF_Status* s);
/* mt_function_call in two steps, for callers that call one function many
 * times (While): the entry, instantiated (NULL + status as above), then a
 * call of it. */
mt_fn_entry* mt_function_ready(const TF_Operation* op, const char* name, TF_Status* s);
void mt_function_run(mt_fn_entry* e, mt_session_state* st, int intra_threads,
                     const mt_run_ctl* ctl, TF_Tensor* const* args, int nargs, TF_Tensor** rets,
                     int nrets, TF_Status* s);
/* mt_function_run that takes the argument handles (each one taken is set
 * to NULL; the caller frees the rest): a loop passes its variables this way
 * so the body may update a TensorList it alone holds in place instead of
 * copying it every iteration. */
void mt_function_run_donated(mt_fn_entry* e, mt_session_state* st, int intra_threads,
                             const mt_run_ctl* ctl, TF_Tensor** args, int nargs,
                             TF_Tensor** rets, int nrets, TF_Status* s);
/* Builds the body of function `name` of lib's library into graph `dst` (a
 * frontend's FuncGraph, to differentiate or rewrite it): a Placeholder per
 * argument named as the argument, then the body's nodes under their own
 * names. args / rets (nargs, nrets: the signature's counts) receive the
 * placeholders and the returned outputs. TF_NOT_FOUND when no such
 * function, TF_INVALID_ARGUMENT for wrong counts, a name already used in
 * dst or a malformed body; dst keeps what was built before an error. */
int mt_function_build_into(TF_Graph* lib, const char* name, TF_Graph* dst, TF_Output* args,
                           int nargs, TF_Output* rets, int nrets, TF_Status* s);

/* The signature of function `name` in op's library (NULL if none). */
const mt_op_def* mt_function_signature(const TF_Operation* op, const char* name);

#endif
