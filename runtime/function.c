/* Functions: FunctionDefs (unpacked by protoc-c's codec, converted here),
 * graph libraries, instantiation and calls. See runtime/function.h. */
#include "runtime/function.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minitf/core/framework/function.pb-c.h"
#include "runtime/graph_build.h"
#include "runtime/pb_canon.h"
#include "runtime/pb_unpack.h"
#include "runtime/status.h"

/* ---- FunctionDef parsing ---- */

static int oom(TF_Status* s) {
  mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory reading a FunctionDef");
  return 0;
}

static int grow_array(void** arr, int* cap, int need, size_t elem, TF_Status* s) {
  if (need <= *cap) return 1;
  int c = *cap ? *cap * 2 : 4;
  while (c < need) c *= 2;
  void* p = realloc(*arr, (size_t)c * elem);
  if (!p) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory reading a FunctionDef");
    return 0;
  }
  *arr = p;
  *cap = c;
  return 1;
}

/* Strings the runtime keeps as NULL when empty (proto3 cannot tell empty from absent). */
static int opt_str(char** slot, const char* str, TF_Status* s) {
  if (!str || !str[0]) return 1;
  if (!(*slot = mt_strdup(str))) return oom(s);
  return 1;
}

static int arg_defs_from_pb(Tensorflow__OpDef__ArgDef* const* p, size_t n, mt_arg_def** out,
                            int* nout, TF_Status* s) {
  if (!n) return 1;
  if (!(*out = calloc(n, sizeof(mt_arg_def)))) return oom(s);
  for (size_t k = 0; k < n; k++) {
    mt_arg_def* a = &(*out)[k];
    (*nout)++;
    a->type = (TF_DataType)p[k]->type;
    a->is_ref = p[k]->is_ref != 0;
    if (!(a->name = mt_strdup(p[k]->name)) || !opt_str(&a->type_attr, p[k]->type_attr, s) ||
        !opt_str(&a->number_attr, p[k]->number_attr, s) ||
        !opt_str(&a->type_list_attr, p[k]->type_list_attr, s))
      return a->name ? 0 : oom(s);
  }
  return 1;
}

/* The signature: name, arguments, attrs' names and types (defaults and constraints are
 * not needed to run a function), is_stateful. */
static int signature_from_pb(const Tensorflow__OpDef* p, mt_op_def* d, TF_Status* s) {
  if (!p) return 1;
  if (p->name[0] && !(d->name = mt_strdup(p->name))) return oom(s);
  if (!arg_defs_from_pb(p->input_arg, p->n_input_arg, &d->inputs, &d->ninputs, s) ||
      !arg_defs_from_pb(p->output_arg, p->n_output_arg, &d->outputs, &d->noutputs, s))
    return 0;
  if (p->n_attr && !(d->attrs = calloc(p->n_attr, sizeof(mt_attr_def)))) return oom(s);
  for (size_t k = 0; k < p->n_attr; k++) {
    d->nattrs++;
    if (!(d->attrs[k].name = mt_strdup(p->attr[k]->name)) ||
        !(d->attrs[k].type = mt_strdup(p->attr[k]->type)))
      return oom(s);
  }
  if (p->is_stateful) d->flags |= MT_OP_STATEFUL;
  return 1;
}

/* A map<string, string> (ret, control_ret): RetEntry and ControlRetEntry share a layout. */
static int string_map_from_pb(Tensorflow__FunctionDef__RetEntry* const* e, size_t n,
                              char*** keys, char*** vals, int* nout, TF_Status* s) {
  if (!n) return 1;
  if (!(*keys = calloc(n, sizeof(char*))) || !(*vals = calloc(n, sizeof(char*)))) return oom(s);
  for (size_t k = 0; k < n; k++) {
    (*nout)++;
    if (!((*keys)[k] = mt_strdup(e[k]->key)) || !((*vals)[k] = mt_strdup(e[k]->value)))
      return oom(s);
  }
  return 1;
}

static int function_fields(const Tensorflow__FunctionDef* p, mt_function* fn, TF_Status* s) {
  if (!signature_from_pb(p->signature, &fn->sig, s)) return 0;
  if (p->n_node_def > INT32_MAX / 2) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Malformed FunctionDef: too many nodes");
    return 0;
  }
  if (p->n_node_def && !(fn->nodes = calloc(p->n_node_def, sizeof(mt_node_def)))) return oom(s);
  for (size_t k = 0; k < p->n_node_def; k++) {
    if (!mt_node_def_from_pb(p->node_def[k], &fn->nodes[k], s)) return 0;
    fn->nnodes++;
  }
  for (size_t k = 0; k < p->n_attr; k++)
    if (!mt_attr_entry_from_pb(p->attr[k]->key, p->attr[k]->value, &fn->attrs, &fn->nattrs, s))
      return 0;
  return string_map_from_pb(p->ret, p->n_ret, &fn->ret_keys, &fn->ret_vals, &fn->nret, s) &&
         string_map_from_pb((Tensorflow__FunctionDef__RetEntry* const*)p->control_ret,
                            p->n_control_ret, &fn->cret_keys, &fn->cret_vals, &fn->ncret, s);
}

static void free_strings(char** v, int n) {
  for (int k = 0; k < n; k++) free(v[k]);
  free(v);
}

static void function_free(mt_function* fn) {
  free(fn->name);
  free(fn->fdef);
  mt_op_def_free(&fn->sig);
  for (int k = 0; k < fn->nnodes; k++) mt_node_def_clear(&fn->nodes[k]);
  free(fn->nodes);
  free_strings(fn->ret_keys, fn->nret);
  free_strings(fn->ret_vals, fn->nret);
  free_strings(fn->cret_keys, fn->ncret);
  free_strings(fn->cret_vals, fn->ncret);
  mt_attrs_free(fn->attrs, fn->nattrs);
  free(fn);
}

void mt_function_ref(mt_function* f) { __atomic_add_fetch(&f->refs, 1, __ATOMIC_RELAXED); }

void mt_function_unref(mt_function* f) {
  if (f && __atomic_sub_fetch(&f->refs, 1, __ATOMIC_ACQ_REL) == 0) function_free(f);
}

mt_function* mt_function_from_pb(const Tensorflow__FunctionDef* p, const void* data, size_t len,
                                 TF_Status* s) {
  mt_function* fn = mt_calloc(1, sizeof(mt_function), s);
  if (!fn) return NULL;
  fn->refs = 1;
  int ok = (fn->fdef = malloc(len ? len : 1)) != NULL || oom(s);
  if (ok && len) memcpy(fn->fdef, data, len);
  fn->fdef_len = len;
  ok = ok && function_fields(p, fn, s);
  if (ok && !fn->sig.name) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "FunctionDef has no signature name");
    ok = 0;
  }
  if (ok && !(fn->name = mt_strdup(fn->sig.name))) ok = oom(s);
  if (!ok) {
    function_free(fn);
    return NULL;
  }
  return fn;
}

mt_function* mt_function_parse(const void* data, size_t len, TF_Status* s) {
  mt_pb_arena a;
  mt_pb_arena_init(&a);
  ProtobufCMessage* m =
      mt_pb_unpack(&tensorflow__function_def__descriptor, data, len, &a, "FunctionDef", s);
  mt_function* fn = m ? mt_function_from_pb((Tensorflow__FunctionDef*)m, data, len, s) : NULL;
  mt_pb_arena_free(&a);
  return fn;
}

/* ---- libraries ---- */

TF_Graph* mt_graph_lib_root(TF_Graph* g) {
  while (g->lib_parent) g = g->lib_parent;
  return g;
}

static mt_fn_entry* find_locked(TF_Graph* root, const char* name) {
  for (int k = 0; k < root->nfns; k++)
    if (strcmp(root->fns[k]->fn->name, name) == 0) return root->fns[k];
  return NULL;
}

mt_fn_entry* mt_graph_find_function(TF_Graph* g, const char* name) {
  TF_Graph* root = mt_graph_lib_root(g);
  pthread_mutex_lock(&root->lib_mu);
  mt_fn_entry* e = find_locked(root, name);
  pthread_mutex_unlock(&root->lib_mu);
  return e;
}

/* The same FunctionDef by meaning, as TensorFlow compares them: a library read back
 * through another serializer (Python's) may list its maps' entries in another order. */
static int same_definition(const mt_function* a, const mt_function* b) {
  return a == b || mt_pb_same_message(&tensorflow__function_def__descriptor, a->fdef,
                                      a->fdef_len, b->fdef, b->fdef_len);
}

/* Adds one function (no gradient) under lib_mu held. */
static int add_locked(TF_Graph* root, mt_function* f, TF_Status* s) {
  mt_fn_entry* old = find_locked(root, f->name);
  if (old) {
    if (same_definition(old->fn, f)) return 1;
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Cannot add function '%s' because a different function with the same name "
                   "already exists.", f->name);
    return 0;
  }
  if (!grow_array((void**)&root->fns, &root->fns_cap, root->nfns + 1, sizeof(mt_fn_entry*), s))
    return 0;
  mt_fn_entry* e = mt_calloc(1, sizeof(mt_fn_entry), s);
  if (!e) return 0;
  pthread_mutex_init(&e->mu, NULL);
  mt_function_ref(f);
  e->fn = f;
  root->fns[root->nfns++] = e;
  return 1;
}

int mt_graph_add_function(TF_Graph* g, mt_function* f, mt_function* grad, TF_Status* s) {
  TF_Graph* root = mt_graph_lib_root(g);
  pthread_mutex_lock(&root->lib_mu);
  int ok = add_locked(root, f, s) && (!grad || add_locked(root, grad, s));
  if (ok && grad) {
    mt_fn_entry* e = find_locked(root, f->name);
    if (e->grad && strcmp(e->grad, grad->name) != 0) {
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "Cannot assign gradient function '%s' to '%s' because it already has "
                     "gradient function '%s'", grad->name, f->name, e->grad);
      ok = 0;
    } else if (!e->grad && !(e->grad = mt_strdup(grad->name))) {
      mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
      ok = 0;
    }
  }
  pthread_mutex_unlock(&root->lib_mu);
  return ok;
}

int mt_graph_num_functions(TF_Graph* g) {
  pthread_mutex_lock(&g->lib_mu);
  int n = g->nfns;
  pthread_mutex_unlock(&g->lib_mu);
  return n;
}

int mt_graph_get_functions(TF_Graph* g, mt_function** out, int max) {
  pthread_mutex_lock(&g->lib_mu);
  int n = 0;
  for (; n < g->nfns && n < max; n++) {
    mt_function_ref(g->fns[n]->fn);
    out[n] = g->fns[n]->fn;
  }
  pthread_mutex_unlock(&g->lib_mu);
  return n;
}

static void entry_free(mt_fn_entry* e) {
  mt_plan_free(e->plan);
  if (e->body) mt_graph_free(e->body);
  free(e->error);
  free(e->grad);
  mt_function_unref(e->fn);
  pthread_mutex_destroy(&e->mu);
  free(e);
}

void mt_graph_free_functions(TF_Graph* g) {
  for (int k = 0; k < g->nfns; k++) entry_free(g->fns[k]);
  free(g->fns);
  g->fns = NULL;
  g->nfns = g->fns_cap = 0;
}

void mt_graph_truncate_functions(TF_Graph* g, int n) {
  pthread_mutex_lock(&g->lib_mu);
  while (g->nfns > n) entry_free(g->fns[--g->nfns]);
  pthread_mutex_unlock(&g->lib_mu);
}

void mt_graph_library_to_proto(mt_pb_writer* w, TF_Graph* g) {
  pthread_mutex_lock(&g->lib_mu);
  for (int k = 0; k < g->nfns; k++)
    mt_pb_put_bytes_field(w, 1, g->fns[k]->fn->fdef, g->fns[k]->fn->fdef_len);
  for (int k = 0; k < g->nfns; k++) {
    if (!g->fns[k]->grad) continue;
    mt_pb_writer gd = mt_pb_writer_make();
    mt_pb_put_string_field(&gd, 1, g->fns[k]->fn->name);
    mt_pb_put_string_field(&gd, 2, g->fns[k]->grad);
    mt_pb_put_message(w, 2, &gd);
  }
  pthread_mutex_unlock(&g->lib_mu);
}

/* ---- checking a library: undefined callees and recursion ---- */

/* Calls fn(name) for every function a node calls: its op type when that
 * is a library function, and every func attr. Stops at the first 0. */
static int each_callee(TF_Graph* root, const mt_node_def* nd,
                       int (*fn)(TF_Graph*, const char*, void*), void* arg) {
  if (find_locked(root, nd->op) && !fn(root, nd->op, arg)) return 0;
  for (int a = 0; a < nd->nattrs; a++) {
    const mt_attr_value* v = &nd->attrs[a].value;
    if (v->kind != MT_ATTR_FUNC) continue;
    int n = v->is_list ? v->list.n : 1;
    for (int k = 0; k < n; k++) {
      const mt_bytes* b = v->is_list ? &v->list.s[k] : &v->v.s;
      if (b->data && !fn(root, b->data, arg)) return 0;
    }
  }
  return 1;
}

typedef struct walk {
  unsigned char* mark; /* per entry: 0 new, 1 on the stack, 2 done */
  const char* from;
  TF_Status* s;
} walk;

static int entry_index(TF_Graph* root, const char* name) {
  for (int k = 0; k < root->nfns; k++)
    if (strcmp(root->fns[k]->fn->name, name) == 0) return k;
  return -1;
}

static int visit(TF_Graph* root, const char* name, void* arg);

static int visit_entry(TF_Graph* root, int k, walk* w) {
  if (w->mark[k] == 2) return 1;
  if (w->mark[k] == 1) {
    mt_status_setf(w->s, TF_INVALID_ARGUMENT, "Function '%s' calls itself (recursion is not "
                   "supported): reached again from '%s'", root->fns[k]->fn->name, w->from);
    return 0;
  }
  w->mark[k] = 1;
  const mt_function* fn = root->fns[k]->fn;
  for (int j = 0; j < fn->nnodes; j++) {
    w->from = fn->name;
    if (!each_callee(root, &fn->nodes[j], visit, w)) return 0;
  }
  w->mark[k] = 2;
  return 1;
}

static int visit(TF_Graph* root, const char* name, void* arg) {
  walk* w = arg;
  int k = entry_index(root, name);
  if (k < 0) {
    mt_status_setf(w->s, TF_NOT_FOUND, "Function '%s' (called by '%s') is not defined.", name,
                   w->from);
    return 0;
  }
  return visit_entry(root, k, w);
}

int mt_graph_check_functions(TF_Graph* g, TF_Status* s) {
  TF_Graph* root = mt_graph_lib_root(g);
  pthread_mutex_lock(&root->lib_mu);
  walk w = {mt_calloc((size_t)root->nfns + 1, 1, s), "", s};
  int ok = w.mark != NULL;
  for (int k = 0; ok && k < root->nfns; k++) ok = visit_entry(root, k, &w);
  pthread_mutex_unlock(&root->lib_mu);
  free(w.mark);
  return ok;
}

/* ---- instantiation: the body as a graph and a plan ---- */

typedef struct inst {
  TF_Graph* body;
  const mt_function* fn;
  TF_Operation** ops; /* per node, once built */
  TF_Status* s;
} inst;

static TF_Operation* add_arg(TF_Graph* body, const mt_arg_def* a, TF_Status* s) {
  if (!a->type || a->number_attr || a->type_list_attr || a->type_attr) {
    mt_status_setf(s, TF_UNIMPLEMENTED,
                   "argument '%s' has a polymorphic type; only functions with fixed argument "
                   "types can be called", a->name);
    return NULL;
  }
  TF_OperationDescription* d = mt_desc_new(body, "Placeholder", a->name);
  if (!d) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory instantiating a function");
    return NULL;
  }
  mt_attr_value v = mt_attr_scalar(MT_ATTR_TYPE);
  v.v.type = a->type;
  mt_desc_set_attr(d, "dtype", &v);
  return mt_graph_finish(d, s);
}

/* "arg", "node:out_arg:index" (or "node:out_arg", index 0) -> output. */
static int resolve_ref(inst* in, const char* ref, TF_Output* out) {
  const char* c1 = strchr(ref, ':');
  if (!c1) {
    for (int k = 0; k < in->fn->sig.ninputs; k++)
      if (strcmp(in->fn->sig.inputs[k].name, ref) == 0) {
        out->oper = mt_graph_find(in->body, ref);
        out->index = 0;
        return out->oper != NULL;
      }
    mt_status_setf(in->s, TF_INVALID_ARGUMENT, "Function '%s': input '%s' is not an argument",
                   in->fn->name, ref);
    return 0;
  }
  char* node = mt_strndup(ref, (size_t)(c1 - ref));
  const char* c2 = strchr(c1 + 1, ':');
  char* arg = c2 ? mt_strndup(c1 + 1, (size_t)(c2 - c1 - 1)) : mt_strdup(c1 + 1);
  int index = c2 ? atoi(c2 + 1) : 0, start = 0, len = 0, ok = 0;
  TF_Operation* op = node ? mt_graph_find(in->body, node) : NULL;
  if (op && arg && mt_op_output_range(op, arg, &start, &len) && index >= 0 && index < len) {
    out->oper = op;
    out->index = start + index;
    ok = 1;
  } else {
    mt_status_setf(in->s, TF_INVALID_ARGUMENT,
                   "Function '%s': '%s' does not name an output of a node of its body",
                   in->fn->name, ref);
  }
  free(node);
  free(arg);
  return ok;
}

/* 1 when every node input of node k is built (arguments always are): a
 * name the body graph does not have yet is a node still to come, or none,
 * which build_nodes reports when nothing more can be built. */
static int inputs_ready(const inst* in, int k) {
  const mt_node_def* nd = &in->fn->nodes[k];
  for (int j = 0; j < nd->ninputs; j++) {
    const char* ref = nd->inputs[j][0] == '^' ? nd->inputs[j] + 1 : nd->inputs[j];
    size_t n = strcspn(ref, ":");
    if (!ref[n] && nd->inputs[j][0] != '^') continue; /* an argument */
    char* node = mt_strndup(ref, n);
    int built = node && mt_graph_find(in->body, node) != NULL;
    free(node);
    if (!built) return 0;
  }
  return 1;
}

static int build_node(inst* in, int k) {
  const mt_node_def* nd = &in->fn->nodes[k];
  const mt_op_def* def = mt_op_lookup(nd->op);
  if (!def) {
    mt_status_setf(in->s, TF_NOT_FOUND, "Function '%s': node '%s' has op '%s', which is not "
                   "registered", in->fn->name, nd->name, nd->op);
    return 0;
  }
  TF_OperationDescription* d = mt_desc_new(in->body, nd->op, nd->name);
  if (!d) {
    mt_status_setf(in->s, TF_RESOURCE_EXHAUSTED, "out of memory instantiating a function");
    return 0;
  }
  int j = 0, ok = 1;
  for (int a = 0; ok && a < def->ninputs; a++) {
    int len = mt_arg_length(def, &def->inputs[a], nd->attrs, nd->nattrs);
    TF_Output* items = calloc((size_t)(len > 0 ? len : 1), sizeof(TF_Output));
    ok = len >= 0 && items;
    for (int i = 0; ok && i < len; i++, j++) {
      ok = j < nd->ninputs && nd->inputs[j][0] != '^' && resolve_ref(in, nd->inputs[j], &items[i]);
      if (!ok && mt_ok(in->s))
        mt_status_setf(in->s, TF_INVALID_ARGUMENT, "Function '%s': node '%s' has too few "
                       "inputs for op '%s'", in->fn->name, nd->name, nd->op);
    }
    if (ok) mt_desc_add_input(d, items, len, def->inputs[a].number_attr || def->inputs[a].type_list_attr);
    free(items);
  }
  for (; ok && j < nd->ninputs; j++) {
    TF_Operation* c = nd->inputs[j][0] == '^' ? mt_graph_find(in->body, nd->inputs[j] + 1) : NULL;
    if (!c) {
      mt_status_setf(in->s, TF_INVALID_ARGUMENT, "Function '%s': node '%s' input '%s' is not a "
                     "control input of a body node", in->fn->name, nd->name, nd->inputs[j]);
      ok = 0;
    } else {
      mt_desc_add_control(d, c);
    }
  }
  for (int a = 0; ok && a < nd->nattrs; a++) {
    mt_attr_value v;
    if (!mt_attr_value_copy(&v, &nd->attrs[a].value)) ok = 0;
    else mt_desc_set_attr(d, nd->attrs[a].name, &v);
  }
  if (!ok) {
    mt_desc_free(d);
    return 0;
  }
  in->ops[k] = mt_graph_finish(d, in->s);
  if (!in->ops[k]) mt_status_prefix(in->s, "Function '%s': ", in->fn->name);
  return in->ops[k] != NULL;
}

/* Builds the nodes in dependency order (a FunctionDef lists them in any). */
static int build_nodes(inst* in) {
  int left = in->fn->nnodes;
  while (left > 0) {
    int progress = 0;
    for (int k = 0; k < in->fn->nnodes; k++) {
      if (in->ops[k] || !inputs_ready(in, k)) continue;
      if (!build_node(in, k)) return 0;
      progress = 1;
      left--;
    }
    if (!progress) {
      mt_status_setf(in->s, TF_INVALID_ARGUMENT,
                     "Function '%s' has a cycle among its nodes or an input that names no node",
                     in->fn->name);
      return 0;
    }
  }
  return 1;
}

static const char* ret_value(const mt_function* fn, const char* key) {
  for (int k = 0; k < fn->nret; k++)
    if (strcmp(fn->ret_keys[k], key) == 0) return fn->ret_vals[k];
  return NULL;
}

/* The plan: arguments fed, results fetched, control outputs and stateful
 * nodes run (a call must not drop a body's side effects). */
static mt_plan* plan_body(inst* in) {
  const mt_function* fn = in->fn;
  int nin = fn->sig.ninputs, nout = fn->sig.noutputs, nt = 0;
  TF_Output* feeds = calloc((size_t)nin + 1, sizeof(TF_Output));
  TF_Output* fetches = calloc((size_t)nout + 1, sizeof(TF_Output));
  const TF_Operation** targets = calloc((size_t)fn->nnodes + 1, sizeof(TF_Operation*));
  mt_plan* p = NULL;
  if (!feeds || !fetches || !targets) {
    mt_status_setf(in->s, TF_RESOURCE_EXHAUSTED, "out of memory instantiating a function");
    goto done;
  }
  for (int k = 0; k < nin; k++) feeds[k].oper = mt_graph_find(in->body, fn->sig.inputs[k].name);
  for (int k = 0; k < nout; k++) {
    const char* ref = ret_value(fn, fn->sig.outputs[k].name);
    if (!ref) {
      mt_status_setf(in->s, TF_INVALID_ARGUMENT, "Function '%s' has no return value for output "
                     "'%s'", fn->name, fn->sig.outputs[k].name);
      goto done;
    }
    if (!resolve_ref(in, ref, &fetches[k])) goto done;
  }
  for (int k = 0; k < fn->nnodes; k++) {
    int wanted = in->ops[k]->def->flags & MT_OP_STATEFUL;
    for (int c = 0; c < fn->ncret && !wanted; c++) wanted = strcmp(fn->cret_vals[c], fn->nodes[k].name) == 0;
    if (wanted) targets[nt++] = in->ops[k];
  }
  p = mt_plan_build(in->body, feeds, nin, fetches, nout, targets, nt, in->s);
  if (!p) mt_status_prefix(in->s, "Function '%s': ", fn->name);
done:
  free(feeds);
  free(fetches);
  free(targets);
  return p;
}

int mt_function_build_into(TF_Graph* lib, const char* name, TF_Graph* dst, TF_Output* args,
                           int nargs, TF_Output* rets, int nrets, TF_Status* s) {
  mt_fn_entry* e = mt_graph_find_function(lib, name);
  if (!e) {
    mt_status_setf(s, TF_NOT_FOUND, "Function %s is not defined.", name);
    return 0;
  }
  const mt_function* fn = e->fn;
  if (nargs != fn->sig.ninputs || nrets != fn->sig.noutputs) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Function %s has %d arguments and %d results, not %d "
                   "and %d", name, fn->sig.ninputs, fn->sig.noutputs, nargs, nrets);
    return 0;
  }
  inst in = {dst, fn, calloc((size_t)fn->nnodes + 1, sizeof(TF_Operation*)), s};
  if (!in.ops) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory building function %s", name);
    return 0;
  }
  int ok = 1;
  for (int k = 0; ok && k < nargs; k++) {
    args[k].oper = add_arg(dst, &fn->sig.inputs[k], s);
    args[k].index = 0;
    ok = args[k].oper != NULL;
  }
  ok = ok && build_nodes(&in);
  for (int k = 0; ok && k < nrets; k++) {
    const char* ref = ret_value(fn, fn->sig.outputs[k].name);
    if (!ref) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Function '%s' has no return value for output '%s'",
                     name, fn->sig.outputs[k].name);
      ok = 0;
    } else {
      ok = resolve_ref(&in, ref, &rets[k]);
    }
  }
  free(in.ops);
  if (!ok) mt_status_prefix(s, "Building function '%s' into a graph: ", name);
  return ok;
}

static int instantiate(TF_Graph* root, mt_fn_entry* e, TF_Status* s) {
  inst in = {mt_graph_new(), e->fn, NULL, s};
  if (!in.body || !(in.ops = calloc((size_t)e->fn->nnodes + 1, sizeof(TF_Operation*)))) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory instantiating a function");
  } else {
    in.body->lib_parent = root;
    for (int k = 0; k < e->fn->sig.ninputs && mt_ok(s); k++)
      if (!add_arg(in.body, &e->fn->sig.inputs[k], s)) mt_status_prefix(s, "Function '%s': ", e->fn->name);
    if (mt_ok(s) && build_nodes(&in)) e->plan = plan_body(&in);
  }
  free(in.ops);
  if (!e->plan) {
    if (in.body) mt_graph_free(in.body);
    return 0;
  }
  e->body = in.body;
  e->nargs = e->fn->sig.ninputs;
  e->nrets = e->fn->sig.noutputs;
  return 1;
}

/* The entry ready to run: instantiated once; a failure is remembered and
 * reported to every caller. */
static mt_fn_entry* ready_entry(TF_Graph* g, const char* name, TF_Status* s) {
  mt_fn_entry* e = mt_graph_find_function(g, name);
  if (!e) {
    mt_status_setf(s, TF_NOT_FOUND, "Function %s is not defined.", name);
    return NULL;
  }
  pthread_mutex_lock(&e->mu);
  if (e->state == 0) {
    TF_Status* tmp = TF_NewStatus();
    if (instantiate(mt_graph_lib_root(g), e, tmp)) {
      e->state = 1;
    } else {
      e->state = 2;
      e->error_code = TF_GetCode(tmp);
      e->error = mt_strdup(TF_Message(tmp));
    }
    TF_DeleteStatus(tmp);
  }
  int state = e->state;
  pthread_mutex_unlock(&e->mu);
  if (state == 2) {
    mt_status_setf(s, e->error_code, "%s", e->error ? e->error : "function instantiation failed");
    return NULL;
  }
  return e;
}

const mt_op_def* mt_function_signature(const TF_Operation* op, const char* name) {
  mt_fn_entry* e = mt_graph_find_function(op->graph, name);
  return e ? &e->fn->sig : NULL;
}

mt_fn_entry* mt_function_ready(const TF_Operation* op, const char* name, TF_Status* s) {
  return ready_entry(op->graph, name, s);
}

/* The arguments fit e's signature (TF_INVALID_ARGUMENT otherwise). */
static int check_call(const mt_fn_entry* e, TF_Tensor* const* args, int nargs, int nrets,
                      TF_Status* s) {
  const char* name = e->fn->name;
  if (nargs != e->nargs || nrets != e->nrets) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Function %s takes %d arguments and returns %d values; called with %d and %d",
                   name, e->nargs, e->nrets, nargs, nrets);
    return 0;
  }
  for (int k = 0; k < nargs; k++)
    if (args[k] && mt_dtype_base(args[k]->dtype) != e->fn->sig.inputs[k].type) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Function %s: argument %d ('%s') must be %s, got %s",
                     name, k, e->fn->sig.inputs[k].name, mt_dtype_name(e->fn->sig.inputs[k].type),
                     mt_dtype_name(mt_dtype_base(args[k]->dtype)));
      return 0;
    }
  return 1;
}

/* A body runs once per loop iteration: the clock is read every 16th node,
 * the loop itself reads it between iterations. */
static mt_run_ctl body_ctl(const mt_run_ctl* ctl) {
  mt_run_ctl body = *ctl;
  body.clock_mask |= 15;
  return body;
}

void mt_function_run(mt_fn_entry* e, mt_session_state* st, int intra_threads,
                     const mt_run_ctl* ctl, TF_Tensor* const* args, int nargs, TF_Tensor** rets,
                     int nrets, TF_Status* s) {
  if (!check_call(e, args, nargs, nrets, s)) return;
  struct TF_SessionOptions opts = {0};
  opts.intra_op_threads = intra_threads;
  if (!ctl) {
    mt_plan_run(e->plan, st, args, rets, &opts, s);
    return;
  }
  mt_run_ctl body = body_ctl(ctl);
  mt_plan_run_ctl(e->plan, st, args, rets, &opts, &body, NULL, s);
}

void mt_function_run_donated(mt_fn_entry* e, mt_session_state* st, int intra_threads,
                             const mt_run_ctl* ctl, TF_Tensor** args, int nargs,
                             TF_Tensor** rets, int nrets, TF_Status* s) {
  if (!check_call(e, args, nargs, nrets, s)) return;
  struct TF_SessionOptions opts = {0};
  opts.intra_op_threads = intra_threads;
  mt_run_ctl body;
  if (ctl) body = body_ctl(ctl);
  mt_plan_run_donated(e->plan, st, args, rets, &opts, ctl ? &body : NULL, s);
}

void mt_function_call(const TF_Operation* op, const char* name, mt_session_state* st,
                      int intra_threads, const mt_run_ctl* ctl, TF_Tensor* const* args,
                      int nargs, TF_Tensor** rets, int nrets, TF_Status* s) {
  mt_fn_entry* e = ready_entry(op->graph, name, s);
  if (e) mt_function_run(e, st, intra_threads, ctl, args, nargs, rets, nrets, s);
}
