/* Graph construction: validation against the op registry, attr defaults
 * and type inference, shape inference, and the name index. */
#include "runtime/graph.h"
#include "runtime/resource.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/function.h"
#include "runtime/kernel.h"
#include "runtime/status.h"

/* ---- name index: open addressing, FNV-1a ---- */

static uint64_t hash_name(const char* s) {
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

static void index_put(TF_Operation** tab, int cap, TF_Operation* op) {
  uint64_t i = hash_name(op->name) & (uint64_t)(cap - 1);
  while (tab[i]) i = (i + 1) & (uint64_t)(cap - 1);
  tab[i] = op;
}

static int index_grow(TF_Graph* g) {
  int cap = g->hcap ? g->hcap * 2 : 64;
  TF_Operation** tab = calloc((size_t)cap, sizeof(*tab));
  if (!tab) return 0;
  for (int k = 0; k < g->nops; k++) index_put(tab, cap, g->ops[k]);
  free(g->htab);
  g->htab = tab;
  g->hcap = cap;
  return 1;
}

static void index_rebuild(TF_Graph* g) {
  memset(g->htab, 0, sizeof(*g->htab) * (size_t)g->hcap);
  for (int k = 0; k < g->nops; k++) index_put(g->htab, g->hcap, g->ops[k]);
}

TF_Operation* mt_graph_find(TF_Graph* g, const char* name) {
  if (!g->hcap || !name) return NULL;
  uint64_t i = hash_name(name) & (uint64_t)(g->hcap - 1);
  while (g->htab[i]) {
    if (strcmp(g->htab[i]->name, name) == 0) return g->htab[i];
    i = (i + 1) & (uint64_t)(g->hcap - 1);
  }
  return NULL;
}

/* ---- attrs ---- */

const mt_attr_value* mt_op_attr(const TF_Operation* op, const char* name) {
  const mt_attr* a = mt_attrs_find(op->attrs, op->nattrs, name);
  return a ? &a->value : NULL;
}

int64_t mt_op_attr_int(const TF_Operation* op, const char* name, int64_t dflt) {
  const mt_attr_value* v = mt_op_attr(op, name);
  return v && !v->is_list && v->kind == MT_ATTR_I ? v->v.i : dflt;
}

int mt_op_attr_bool(const TF_Operation* op, const char* name, int dflt) {
  const mt_attr_value* v = mt_op_attr(op, name);
  return v && !v->is_list && v->kind == MT_ATTR_B ? v->v.b : dflt;
}

float mt_op_attr_float(const TF_Operation* op, const char* name, float dflt) {
  const mt_attr_value* v = mt_op_attr(op, name);
  return v && !v->is_list && v->kind == MT_ATTR_F ? v->v.f : dflt;
}

TF_DataType mt_op_attr_type(const TF_Operation* op, const char* name, TF_DataType dflt) {
  const mt_attr_value* v = mt_op_attr(op, name);
  return v && !v->is_list && v->kind == MT_ATTR_TYPE ? v->v.type : dflt;
}

const char* mt_op_attr_str(const TF_Operation* op, const char* name, const char* dflt) {
  const mt_attr_value* v = mt_op_attr(op, name);
  return v && !v->is_list && v->kind == MT_ATTR_S ? v->v.s.data : dflt;
}

static int arg_range(const mt_arg_def* args, int nargs, const int* lens, const char* name,
                     int* start, int* len) {
  int at = 0;
  for (int k = 0; k < nargs; k++) {
    if (strcmp(args[k].name, name) == 0) {
      *start = at;
      *len = lens[k];
      return 1;
    }
    at += lens[k];
  }
  return 0;
}

int mt_op_input_range(const TF_Operation* op, const char* name, int* start, int* len) {
  return arg_range(op->def->inputs, op->def->ninputs, op->input_arg_len, name, start, len);
}

int mt_op_output_range(const TF_Operation* op, const char* name, int* start, int* len) {
  return arg_range(op->def->outputs, op->def->noutputs, op->output_arg_len, name, start, len);
}

/* ---- validation ---- */

/* Node names as TensorFlow accepts them: [A-Za-z0-9.][A-Za-z0-9_.\-/>]* */
static int valid_node_name(const char* name) {
  if (!name || !*name) return 0;
  char c = name[0];
  if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.'))
    return 0;
  for (const char* p = name + 1; *p; p++) {
    c = *p;
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
          c == '_' || c == '.' || c == '-' || c == '/' || c == '>'))
      return 0;
  }
  return 1;
}

/* Sets (or checks) a scalar attr inferred from the inputs. */
/* A ref type (dtype + 100, TensorFlow's DT_FLOAT_REF) without the ref:
 * type attrs and non-ref inputs take the base type. */
static TF_DataType base_type(TF_DataType dt) {
  return (int)dt > 100 ? (TF_DataType)((int)dt - 100) : dt;
}

static int infer_type_attr(TF_OperationDescription* d, const char* attr, TF_DataType dt,
                           const char* arg, TF_Status* s) {
  const mt_attr* a = mt_attrs_find(d->attrs, d->nattrs, attr);
  if (a) {
    if (!a->value.is_list && a->value.kind == MT_ATTR_TYPE && a->value.v.type != dt) {
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "Input '%s' of '%s' Op has type %s that does not match type %s of "
                     "attr '%s' for node '%s'",
                     arg, d->op_type, mt_dtype_name(dt), mt_dtype_name(a->value.v.type), attr,
                     d->name);
      return 0;
    }
    return 1;
  }
  mt_attr_value v;
  memset(&v, 0, sizeof(v));
  v.kind = MT_ATTR_TYPE;
  v.v.type = dt;
  return mt_attrs_set(&d->attrs, &d->nattrs, attr, &v);
}

static int infer_int_attr(TF_OperationDescription* d, const char* attr, int64_t n,
                          const char* arg, TF_Status* s) {
  const mt_attr* a = mt_attrs_find(d->attrs, d->nattrs, attr);
  if (a) {
    if (!a->value.is_list && a->value.kind == MT_ATTR_I && a->value.v.i != n) {
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "Input '%s' of node '%s' has %lld tensors but attr '%s' is %lld", arg,
                     d->name, (long long)n, attr, (long long)a->value.v.i);
      return 0;
    }
    return 1;
  }
  mt_attr_value v;
  memset(&v, 0, sizeof(v));
  v.kind = MT_ATTR_I;
  v.v.i = n;
  return mt_attrs_set(&d->attrs, &d->nattrs, attr, &v);
}

static int infer_type_list_attr(TF_OperationDescription* d, const char* attr,
                                const mt_desc_input* in, const char* arg, TF_Status* s) {
  if (mt_attrs_find(d->attrs, d->nattrs, attr)) return 1; /* checked with the types later */
  mt_attr_value v;
  memset(&v, 0, sizeof(v));
  v.kind = MT_ATTR_TYPE;
  v.is_list = 1;
  v.list.n = in->n;
  v.list.type = calloc((size_t)(in->n ? in->n : 1), sizeof(TF_DataType));
  if (!v.list.type) return 0;
  for (int k = 0; k < in->n; k++)
    v.list.type[k] = base_type(in->items[k].oper->output_types[in->items[k].index]);
  return mt_attrs_set(&d->attrs, &d->nattrs, attr, &v);
}

/* Matches description inputs to the op's input args and infers attrs. */
static int bind_inputs(TF_OperationDescription* d, const mt_op_def* def, TF_Status* s) {
  if (d->ninputs != def->ninputs) {
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Inconsistent values for attr: node '%s' (op '%s') has %d inputs "
                   "specified, but the op expects %d",
                   d->name, def->name, d->ninputs, def->ninputs);
    return 0;
  }
  for (int k = 0; k < def->ninputs; k++) {
    const mt_arg_def* a = &def->inputs[k];
    mt_desc_input* in = &d->inputs[k];
    int wants_list = a->number_attr || a->type_list_attr;
    if (wants_list != in->is_list) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Input '%s' of node '%s' (op '%s') %s", a->name,
                     d->name, def->name,
                     wants_list ? "expects a list of tensors" : "expects a single tensor");
      return 0;
    }
    for (int j = 0; j < in->n; j++) {
      TF_Output o = in->items[j];
      if (!o.oper || o.index < 0 || o.index >= o.oper->noutputs || o.oper->graph != d->graph) {
        mt_status_setf(s, TF_INVALID_ARGUMENT, "Input '%s' of node '%s' is not a valid output",
                       a->name, d->name);
        return 0;
      }
    }
    if (a->number_attr && !infer_int_attr(d, a->number_attr, in->n, a->name, s)) return 0;
    if (a->type_list_attr && !infer_type_list_attr(d, a->type_list_attr, in, a->name, s))
      return 0;
    if (a->type_attr) {
      for (int j = 0; j < in->n; j++) {
        TF_DataType dt = base_type(in->items[j].oper->output_types[in->items[j].index]);
        if (!infer_type_attr(d, a->type_attr, dt, a->name, s)) return 0;
      }
    }
  }
  return mt_ok(s);
}

static void fill_defaults(TF_OperationDescription* d, const mt_op_def* def) {
  for (int k = 0; k < def->nattrs; k++) {
    const mt_attr_def* ad = &def->attrs[k];
    if (!ad->has_default || mt_attrs_find(d->attrs, d->nattrs, ad->name)) continue;
    mt_attr_value v;
    if (mt_attr_value_copy(&v, &ad->default_value)) mt_attrs_set(&d->attrs, &d->nattrs, ad->name, &v);
  }
}

static int value_in_allowed(const mt_attr_def* ad, const mt_attr_value* v, int idx) {
  const mt_attr_value* al = &ad->allowed_values;
  for (int k = 0; k < al->list.n; k++) {
    if (al->kind == MT_ATTR_TYPE) {
      TF_DataType t = v->is_list ? v->list.type[idx] : v->v.type;
      if (al->list.type[k] == t) return 1;
    } else {
      const mt_bytes* b = v->is_list ? &v->list.s[idx] : &v->v.s;
      if (al->list.s[k].len == b->len && memcmp(al->list.s[k].data, b->data, b->len) == 0)
        return 1;
    }
  }
  return 0;
}

static void allowed_str(const mt_attr_def* ad, char* buf, size_t cap) {
  size_t at = 0;
  buf[0] = '\0';
  const mt_attr_value* al = &ad->allowed_values;
  for (int k = 0; k < al->list.n && at < cap; k++) {
    const char* name = al->kind == MT_ATTR_TYPE ? mt_dtype_name(al->list.type[k])
                                                : al->list.s[k].data;
    at += (size_t)snprintf(buf + at, cap - at, k ? ", %s" : "%s", name);
  }
}

static const char* value_str(const mt_attr_value* v, int idx, char* buf, size_t cap) {
  if (v->kind == MT_ATTR_TYPE)
    snprintf(buf, cap, "%s", mt_dtype_name(v->is_list ? v->list.type[idx] : v->v.type));
  else
    snprintf(buf, cap, "\"%s\"", v->is_list ? v->list.s[idx].data : v->v.s.data);
  return buf;
}

/* Every attr the op declares is present, of the declared kind, allowed. */
static int check_attrs(TF_OperationDescription* d, const mt_op_def* def, TF_Status* s) {
  for (int k = 0; k < def->nattrs; k++) {
    const mt_attr_def* ad = &def->attrs[k];
    const mt_attr* a = mt_attrs_find(d->attrs, d->nattrs, ad->name);
    if (!a) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "NodeDef missing attr '%s' from Op<name=%s>; "
                     "NodeDef: {{node %s}}", ad->name, def->name, d->name);
      return 0;
    }
    const mt_attr_value* v = &a->value;
    const char* got = mt_attr_type_name(v);
    int empty_list = v->is_list && v->list.n == 0;
    if (strcmp(got, ad->type) != 0 && !(empty_list && strncmp(ad->type, "list(", 5) == 0)) {
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "AttrValue had value with type '%s' when '%s' expected\n\t for attr '%s'"
                     "\n\t; NodeDef: {{node %s}}", got, ad->type, ad->name, d->name);
      return 0;
    }
    int n = v->is_list ? v->list.n : 1;
    if (ad->has_allowed) {
      for (int j = 0; j < n; j++) {
        if (value_in_allowed(ad, v, j)) continue;
        char allowed[1024], one[256];
        allowed_str(ad, allowed, sizeof(allowed));
        mt_status_setf(s, TF_INVALID_ARGUMENT,
                       "Value for attr '%s' of %s is not in the list of allowed values: %s"
                       "\n\t; NodeDef: {{node %s}}; Op<name=%s>", ad->name,
                       value_str(v, j, one, sizeof(one)), allowed, d->name, def->name);
        return 0;
      }
    }
    if (ad->has_minimum) {
      int64_t got_n = v->is_list ? v->list.n : v->v.i;
      if (got_n < ad->minimum) {
        mt_status_setf(s, TF_INVALID_ARGUMENT,
                       "Value for attr '%s' of %lld must be at least minimum %lld"
                       "\n\t; NodeDef: {{node %s}}", ad->name, (long long)got_n,
                       (long long)ad->minimum, d->name);
        return 0;
      }
    }
  }
  for (int k = 0; k < d->nattrs; k++) {
    const char* name = d->attrs[k].name;
    if (name[0] != '_' && !mt_op_attr_def(def, name)) {
      mt_status_setf(s, TF_INVALID_ARGUMENT,
                     "NodeDef mentions attr '%s' not in Op<name=%s>; NodeDef: {{node %s}}", name,
                     def->name, d->name);
      return 0;
    }
  }
  return 1;
}

/* Number of tensors and their types for one arg, from the final attrs. */
static int arg_types(const mt_arg_def* a, const mt_attr* attrs, int nattrs, TF_DataType* out,
                     int cap) {
  int n = 1;
  if (a->number_attr) {
    int64_t v = mt_attrs_find(attrs, nattrs, a->number_attr)->value.v.i;
    n = v < 0 ? 0 : v > 1000000 ? 1000000 : (int)v;
  }
  if (a->type_list_attr) {
    const mt_attr_value* v = &mt_attrs_find(attrs, nattrs, a->type_list_attr)->value;
    n = v->list.n;
    for (int k = 0; k < n && k < cap; k++) out[k] = v->list.type[k];
    return n;
  }
  TF_DataType t = a->type;
  if (a->type_attr) t = mt_attrs_find(attrs, nattrs, a->type_attr)->value.v.type;
  if (a->is_ref) t = (TF_DataType)((int)t + 100);
  for (int k = 0; k < n && k < cap; k++) out[k] = t;
  return n;
}

static int count_outputs(const mt_op_def* def, const mt_attr* attrs, int nattrs) {
  int total = 0;
  TF_DataType tmp[1];
  for (int k = 0; k < def->noutputs; k++) total += arg_types(&def->outputs[k], attrs, nattrs, tmp, 0);
  return total;
}

/* ---- building the operation ---- */

static void free_op(TF_Operation* op) {
  if (!op) return;
  free(op->name);
  free(op->op_type);
  free(op->device);
  free(op->inputs);
  free(op->input_types);
  free(op->input_arg_len);
  free(op->control_inputs);
  free(op->control_outputs);
  mt_attrs_free(op->attrs, op->nattrs);
  free(op->output_types);
  free(op->output_shapes);
  free(op->output_arg_len);
  if (op->folded)
    for (int k = 0; k < op->noutputs; k++) mt_tensor_free(op->folded[k]);
  free(op->folded);
  free(op->fold_state);
  if (op->consumers)
    for (int k = 0; k < op->noutputs; k++) free(op->consumers[k].items);
  free(op->consumers);
  free(op);
}

/* Moves the description's contents into a new operation. */
static TF_Operation* make_op(TF_OperationDescription* d, const mt_op_def* def, TF_Status* s) {
  TF_Operation* op = mt_calloc(1, sizeof(TF_Operation), s);
  if (!op) return NULL;
  op->graph = d->graph;
  op->def = def;
  op->name = d->name;
  op->op_type = d->op_type;
  op->device = d->device ? d->device : strdup("");
  d->name = d->op_type = d->device = NULL;
  op->attrs = d->attrs;
  op->nattrs = d->nattrs;
  d->attrs = NULL;
  d->nattrs = 0;
  int nin = 0;
  for (int k = 0; k < d->ninputs; k++) nin += d->inputs[k].n;
  op->ninputs = nin;
  op->inputs = mt_calloc((size_t)nin, sizeof(TF_Output), s);
  op->input_types = mt_calloc((size_t)nin, sizeof(TF_DataType), s);
  op->input_arg_len = mt_calloc((size_t)d->ninputs, sizeof(int), s);
  op->control_inputs = mt_calloc((size_t)d->ncontrol, sizeof(TF_Operation*), s);
  int nout = count_outputs(def, op->attrs, op->nattrs);
  op->noutputs = nout;
  op->output_types = mt_calloc((size_t)nout, sizeof(TF_DataType), s);
  op->output_shapes = mt_calloc((size_t)nout, sizeof(mt_shape), s);
  op->output_arg_len = mt_calloc((size_t)def->noutputs, sizeof(int), s);
  op->consumers = mt_calloc((size_t)nout, sizeof(mt_consumers), s);
  if (!mt_ok(s)) {
    free_op(op);
    return NULL;
  }
  int at = 0;
  for (int k = 0; k < d->ninputs; k++) {
    op->input_arg_len[k] = d->inputs[k].n;
    for (int j = 0; j < d->inputs[k].n; j++, at++) {
      op->inputs[at] = d->inputs[k].items[j];
      op->input_types[at] = op->inputs[at].oper->output_types[op->inputs[at].index];
      /* a ref output feeding a non-ref input is read as a value */
      if (!def->inputs[k].is_ref) op->input_types[at] = base_type(op->input_types[at]);
    }
  }
  /* drop duplicate control inputs, keeping first-seen order */
  for (int k = 0; k < d->ncontrol; k++) {
    int dup = 0;
    for (int j = 0; j < op->ncontrol_inputs; j++) dup |= op->control_inputs[j] == d->control[k];
    if (!dup) op->control_inputs[op->ncontrol_inputs++] = d->control[k];
  }
  at = 0;
  for (int k = 0; k < def->noutputs; k++) {
    int n = arg_types(&def->outputs[k], op->attrs, op->nattrs, op->output_types + at, nout - at);
    op->output_arg_len[k] = n;
    at += n;
  }
  for (int k = 0; k < nout; k++) op->output_shapes[k] = mt_shape_unknown();
  return op;
}

/* Checks input dtypes against the declared (fixed or list) types. */
static int check_input_types(const TF_Operation* op, TF_Status* s) {
  TF_DataType* want = mt_calloc((size_t)op->ninputs + 1, sizeof(TF_DataType), s);
  if (!want) return 0;
  int at = 0, ok = 1;
  for (int k = 0; ok && k < op->def->ninputs; k++) {
    const mt_arg_def* a = &op->def->inputs[k];
    int n = arg_types(a, op->attrs, op->nattrs, want + at, op->ninputs - at);
    if (n != op->input_arg_len[k]) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Input '%s' of node '%s' has %d tensors, expected %d",
                     a->name, op->name, op->input_arg_len[k], n);
      ok = 0;
      break;
    }
    for (int j = 0; j < n; j++, at++) {
      TF_DataType got = op->input_types[at];
      if (got != want[at]) {
        mt_status_setf(s, TF_INVALID_ARGUMENT,
                       "Input %d of node '%s' was passed %s from %s:%d incompatible with "
                       "expected %s.",
                       at, op->name, mt_dtype_name(got), op->inputs[at].oper->name,
                       op->inputs[at].index, mt_dtype_name(want[at]));
        ok = 0;
        break;
      }
    }
  }
  free(want);
  return ok;
}

/* ---- construction-time constant folding ---- */

#define MT_FOLD_MAX_DEPTH 32

static const TF_Tensor* fold(TF_Output o, int depth);

static int fold_marks(TF_Operation* op) {
  if (op->fold_state) return 1;
  op->fold_state = calloc((size_t)op->noutputs + 1, 1);
  op->folded = calloc((size_t)op->noutputs + 1, sizeof(TF_Tensor*));
  if (op->fold_state && op->folded) return 1;
  free(op->fold_state);
  free(op->folded);
  op->fold_state = NULL;
  op->folded = NULL;
  return 0;
}


/* Shape, Size and Rank of a tensor whose static shape is known are
 * constants even when the tensor is not (TensorFlow folds them too). */
static TF_Tensor* fold_shape_op(TF_Operation* op, TF_Status* s) {
  const mt_shape* in = &op->inputs[0].oper->output_shapes[op->inputs[0].index];
  TF_DataType out_type = mt_op_attr_type(op, "out_type", TF_INT32);
  int is_shape = strcmp(op->op_type, "Shape") == 0;
  int is_size = strcmp(op->op_type, "Size") == 0;
  if (in->rank < 0 || ((is_shape || is_size) && !mt_shape_known(in))) return NULL;
  if (out_type != TF_INT32 && out_type != TF_INT64) return NULL;
  int64_t n = in->rank;
  TF_Tensor* t = mt_tensor_new(out_type, &n, is_shape ? 1 : 0, s);
  if (!t) return NULL;
  int64_t value = is_size ? mt_shape_nelems(in) : in->rank;
  for (int64_t k = 0; k < (is_shape ? n : 1); k++) {
    int64_t v = is_shape ? in->dims[k] : value;
    if (out_type == TF_INT32) ((int32_t*)mt_tensor_data(t))[k] = (int32_t)v;
    else ((int64_t*)mt_tensor_data(t))[k] = v;
  }
  return t;
}

static int foldable(const TF_Operation* op) {
  if (!op->def->kernel || (op->def->flags & MT_OP_STATEFUL) || op->noutputs == 0) return 0;
  static const char* never[] = {"Placeholder", "PlaceholderWithDefault", "VarHandleOp",
                                "ReadVariableOp", "Assert", "CheckNumerics",
                                /* calls Python: only when run, as TensorFlow */
                                "PyFuncStateless",
                                /* call functions: a loop may never end, and
                                 * TensorFlow's shape inference runs none */
                                "StatelessWhile", "StatelessIf", "StatelessCase",
                                "PartitionedCall"};
  for (size_t k = 0; k < sizeof(never) / sizeof(never[0]); k++)
    if (strcmp(op->op_type, never[k]) == 0) return 0;
  return 1;
}

/* Runs op's kernel on folded inputs; fills op->folded or marks it not
 * constant. Kernels see no session state, so only stateless ops fold. */
static void try_fold(TF_Operation* op, int depth) {
  TF_Status st = {TF_OK, NULL};
  int n = op->ninputs, ok = 1;
  memset(op->fold_state, 2, (size_t)op->noutputs);
  if (depth > MT_FOLD_MAX_DEPTH || !foldable(op)) return;
  int shape_op = n == 1 && (strcmp(op->op_type, "Shape") == 0 ||
                            strcmp(op->op_type, "Size") == 0 || strcmp(op->op_type, "Rank") == 0);
  if (shape_op) {
    TF_Tensor* t = fold_shape_op(op, &st);
    free(st.msg);
    if (t) {
      op->folded[0] = t;
      op->fold_state[0] = 1;
    }
    return;
  }
  TF_Tensor** in = calloc((size_t)n + 1, sizeof(TF_Tensor*));
  TF_Tensor** out = calloc((size_t)op->noutputs + 1, sizeof(TF_Tensor*));
  unsigned char* fwd = calloc((size_t)n + 1, 1);
  for (int k = 0; ok && in && k < n; k++) {
    in[k] = (TF_Tensor*)fold(op->inputs[k], depth + 1);
    ok = in[k] != NULL;
  }
  if (ok && in && out && fwd) {
    mt_kernel_ctx ctx = {op, n, in, fwd, op->noutputs, out, NULL, NULL, 1, &st};
    op->def->kernel(&ctx);
    for (int k = 0; k < op->noutputs; k++) {
      int small = out[k] && mt_tensor_nelems(out[k]) <= MT_FOLD_MAX_ELEMS;
      if (mt_ok(&st) && small) {
        op->folded[k] = out[k];
        op->fold_state[k] = 1;
      } else {
        mt_tensor_free(out[k]);
      }
    }
  }
  free(st.msg);
  free(in);
  free(out);
  free(fwd);
}

/* Value of an output when it is known at construction, or NULL. */
static const TF_Tensor* fold(TF_Output o, int depth) {
  TF_Operation* op = o.oper;
  if (strcmp(op->op_type, "Const") == 0) {
    const mt_attr_value* v = mt_op_attr(op, "value");
    return v && v->kind == MT_ATTR_TENSOR && !v->is_list ? v->v.tensor : NULL;
  }
  if (!fold_marks(op)) return NULL;
  if (op->fold_state[o.index] == 0) try_fold(op, depth);
  return op->fold_state[o.index] == 1 ? op->folded[o.index] : NULL;
}

/* ---- partial shapes from shape tensors ---- */

/* A scalar dim: a folded integer, or Shape(x)[i] via StridedSlice with
 * shrink_axis_mask; -1 if unknown. */
static int64_t scalar_dim(TF_Output o) {
  const TF_Tensor* v = fold(o, 0);
  if (v && v->ndims == 0 && (v->dtype == TF_INT32 || v->dtype == TF_INT64))
    return v->dtype == TF_INT32 ? *(int32_t*)mt_tensor_data(v) : *(int64_t*)mt_tensor_data(v);
  TF_Operation* op = o.oper;
  if (strcmp(op->op_type, "StridedSlice") != 0 || op->ninputs != 4) return -1;
  if (strcmp(op->inputs[0].oper->op_type, "Shape") != 0) return -1;
  if (mt_op_attr_int(op, "shrink_axis_mask", 0) != 1) return -1;
  const TF_Tensor* begin = fold(op->inputs[1], 0);
  if (!begin || begin->ndims != 1 || begin->dims[0] != 1) return -1;
  int64_t b = begin->dtype == TF_INT32 ? *(int32_t*)mt_tensor_data(begin)
                                       : *(int64_t*)mt_tensor_data(begin);
  TF_Operation* shape_op = op->inputs[0].oper;
  const mt_shape* src = &shape_op->inputs[0].oper->output_shapes[shape_op->inputs[0].index];
  if (src->rank < 0) return -1;
  if (b < 0) b += src->rank;
  return b >= 0 && b < src->rank ? src->dims[b] : -1;
}

static int partial_shape(TF_Output o, mt_shape* out, int depth) {
  *out = mt_shape_unknown();
  const TF_Tensor* v = fold(o, 0);
  if (v) {
    if (v->dtype != TF_INT32 && v->dtype != TF_INT64) return 0;
    int64_t n = mt_tensor_nelems(v);
    if (v->ndims == 0) { /* a scalar -1 means unknown rank */
      int64_t x = v->dtype == TF_INT32 ? *(int32_t*)mt_tensor_data(v) : *(int64_t*)mt_tensor_data(v);
      return x == -1;
    }
    if (v->ndims != 1 || n > MT_MAX_DIMS) return 0;
    out->rank = (int)n;
    for (int64_t k = 0; k < n; k++) {
      int64_t x = v->dtype == TF_INT32 ? ((int32_t*)mt_tensor_data(v))[k]
                                       : ((int64_t*)mt_tensor_data(v))[k];
      if (x < -1) return 0;
      out->dims[k] = x;
    }
    return 1;
  }
  TF_Operation* op = o.oper;
  if (strcmp(op->op_type, "Shape") == 0 && op->ninputs == 1) {
    *out = op->inputs[0].oper->output_shapes[op->inputs[0].index];
    return 1;
  }
  if (strcmp(op->op_type, "Pack") == 0 && mt_op_attr_int(op, "axis", 0) == 0 &&
      op->ninputs <= MT_MAX_DIMS) {
    out->rank = op->ninputs;
    for (int k = 0; k < op->ninputs; k++) out->dims[k] = scalar_dim(op->inputs[k]);
    return 1;
  }
  if (strcmp(op->op_type, "ConcatV2") == 0 && op->ninputs >= 2 && depth < 8) {
    mt_shape acc;
    acc.rank = 0;
    for (int k = 0; k + 1 < op->ninputs; k++) {
      mt_shape part;
      partial_shape(op->inputs[k], &part, depth + 1);
      if (part.rank < 0 || acc.rank + part.rank > MT_MAX_DIMS) return 1;
      for (int j = 0; j < part.rank; j++) acc.dims[acc.rank++] = part.dims[j];
    }
    *out = acc;
    return 1;
  }
  const mt_shape* static_shape = &op->output_shapes[o.index];
  if (static_shape->rank == 1 && static_shape->dims[0] >= 0 &&
      static_shape->dims[0] <= MT_MAX_DIMS) {
    out->rank = (int)static_shape->dims[0];
    for (int k = 0; k < out->rank; k++) out->dims[k] = -1;
  }
  return 1;
}

int mt_shape_input_as_shape(const mt_shape_ctx* ctx, int idx, mt_shape* out) {
  if (idx < 0 || idx >= ctx->ninputs) {
    *out = mt_shape_unknown();
    return 1;
  }
  return partial_shape(ctx->op->inputs[idx], out, 0);
}

/* One attr value as TensorFlow's SummarizeNodeDef prints it. */
static void print_attr(FILE* f, const mt_attr_value* v) {
  int n = v->is_list ? v->list.n : 1;
  if (v->is_list) fputc('[', f);
  for (int k = 0; k < n; k++) {
    if (k) fputs(", ", f);
    char buf[512];
    switch (v->kind) {
      case MT_ATTR_S: case MT_ATTR_FUNC: case MT_ATTR_PLACEHOLDER:
        fprintf(f, "\"%s\"", v->is_list ? v->list.s[k].data : v->v.s.data);
        break;
      case MT_ATTR_I: fprintf(f, "%lld", (long long)(v->is_list ? v->list.i[k] : v->v.i)); break;
      case MT_ATTR_F: fprintf(f, "%g", (double)(v->is_list ? v->list.f[k] : v->v.f)); break;
      case MT_ATTR_B: fputs((v->is_list ? v->list.b[k] : v->v.b) ? "true" : "false", f); break;
      case MT_ATTR_TYPE: {
        TF_DataType t = v->is_list ? v->list.type[k] : v->v.type;
        const char* name = mt_dtype_name(t);
        fputs("DT_", f);
        for (const char* c = name; *c; c++) fputc(*c >= 'a' && *c <= 'z' ? *c - 32 : *c, f);
        break;
      }
      case MT_ATTR_SHAPE:
        fputs(mt_shape_str(v->is_list ? &v->list.shape[k] : &v->v.shape, buf, sizeof(buf)), f);
        break;
      default: fputs("<tensor>", f); break;
    }
  }
  if (v->is_list) fputc(']', f);
}

static int by_attr_name(const void* a, const void* b) {
  return strcmp((*(const mt_attr* const*)a)->name, (*(const mt_attr* const*)b)->name);
}

/* "{{node add}} = AddV2[T=DT_FLOAT](a, b)", TensorFlow's node summary in
 * shape errors. Returns a heap string or NULL. */
static char* summarize_node(const TF_Operation* op) {
  char* out = NULL;
  size_t len = 0;
  FILE* f = open_memstream(&out, &len);
  if (!f) return NULL;
  fprintf(f, "{{node %s}} = %s", op->name, op->op_type);
  const mt_attr** sorted = calloc((size_t)op->nattrs + 1, sizeof(*sorted));
  int n = 0;
  for (int k = 0; sorted && k < op->nattrs; k++)
    if (op->attrs[k].name[0] != '_') sorted[n++] = &op->attrs[k];
  if (sorted) qsort(sorted, (size_t)n, sizeof(*sorted), by_attr_name);
  fputc('[', f); /* TensorFlow prints "Op[](...)" for a node without attrs too */
  for (int k = 0; k < n; k++) {
    fprintf(f, "%s%s=", k ? ", " : "", sorted[k]->name);
    print_attr(f, &sorted[k]->value);
  }
  fputc(']', f);
  free(sorted);
  fputc('(', f);
  for (int k = 0; k < op->ninputs; k++) {
    fprintf(f, k ? ", %s" : "%s", op->inputs[k].oper->name);
    if (op->inputs[k].index) fprintf(f, ":%d", op->inputs[k].index);
  }
  for (int k = 0; k < op->ncontrol_inputs; k++)
    fprintf(f, op->ninputs + k ? ", ^%s" : "^%s", op->control_inputs[k]->name);
  fputc(')', f);
  fclose(f);
  return out;
}

static int infer_shapes(TF_Operation* op, TF_Status* s) {
  if (!op->def->shape) return 1;
  int n = op->ninputs;
  mt_shape* in = mt_calloc((size_t)n, sizeof(mt_shape), s);
  const TF_Tensor** vals = mt_calloc((size_t)n, sizeof(TF_Tensor*), s);
  if (!mt_ok(s)) {
    free(in);
    free(vals);
    return 0;
  }
  for (int k = 0; k < n; k++) {
    in[k] = op->inputs[k].oper->output_shapes[op->inputs[k].index];
    vals[k] = fold(op->inputs[k], 0);
  }
  mt_shape_ctx ctx = {op, n, in, op->input_types, vals, op->noutputs, op->output_shapes, s};
  op->def->shape(&ctx);
  if (!mt_ok(s)) {
    char* summary = summarize_node(op);
    mt_status_append(s, " for '%s' with input shapes: ", summary ? summary : op->name);
    for (int k = 0; k < n; k++) {
      char buf[512];
      mt_status_append(s, k ? ", %s" : "%s", mt_shape_str(&in[k], buf, sizeof(buf)));
    }
    mt_status_append(s, ".");
    free(summary);
  }
  free(in);
  free(vals);
  return mt_ok(s);
}

static int add_consumer(mt_consumers* c, TF_Input in) {
  if (c->n == c->cap) {
    int cap = c->cap ? c->cap * 2 : 4;
    TF_Input* grown = realloc(c->items, sizeof(TF_Input) * (size_t)cap);
    if (!grown) return 0;
    c->items = grown;
    c->cap = cap;
  }
  c->items[c->n++] = in;
  return 1;
}

static int add_control_output(TF_Operation* from, TF_Operation* to) {
  if (from->ncontrol_outputs == from->control_outputs_cap) {
    int cap = from->control_outputs_cap ? from->control_outputs_cap * 2 : 4;
    TF_Operation** grown = realloc(from->control_outputs, sizeof(*grown) * (size_t)cap);
    if (!grown) return 0;
    from->control_outputs = grown;
    from->control_outputs_cap = cap;
  }
  from->control_outputs[from->ncontrol_outputs++] = to;
  return 1;
}

/* Appends op to the graph (graph->mu held). */
static int insert_op(TF_Graph* g, TF_Operation* op, TF_Status* s) {
  if (g->nops == g->cap) {
    int cap = g->cap ? g->cap * 2 : 64;
    TF_Operation** grown = realloc(g->ops, sizeof(*grown) * (size_t)cap);
    if (!grown) goto oom;
    g->ops = grown;
    g->cap = cap;
  }
  if ((g->nops + 1) * 2 > g->hcap && !index_grow(g)) goto oom;
  for (int k = 0; k < op->ninputs; k++) {
    TF_Input in = {op, k};
    if (!add_consumer(&op->inputs[k].oper->consumers[op->inputs[k].index], in)) goto oom;
  }
  for (int k = 0; k < op->ncontrol_inputs; k++)
    if (!add_control_output(op->control_inputs[k], op)) goto oom;
  op->id = g->nops;
  g->ops[g->nops++] = op;
  index_put(g->htab, g->hcap, op);
  return 1;
oom:
  mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM adding node '%s'", op->name);
  return 0;
}

static void free_desc(TF_OperationDescription* d) {
  free(d->op_type);
  free(d->name);
  free(d->device);
  for (int k = 0; k < d->ninputs; k++) free(d->inputs[k].items);
  free(d->inputs);
  free(d->control);
  mt_attrs_free(d->attrs, d->nattrs);
  TF_DeleteStatus(d->deferred);
  free(d);
}

static TF_Operation* finish_locked(TF_OperationDescription* d, TF_Status* s) {
  if (d->deferred && !mt_ok(d->deferred)) {
    mt_status_copy(s, d->deferred);
    return NULL;
  }
  if (d->alloc_failed) {
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM while describing node '%s'", d->name);
    return NULL;
  }
  if (!valid_node_name(d->name)) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Node name '%s' is not valid", d->name ? d->name : "");
    return NULL;
  }
  const mt_op_def* def = mt_op_lookup(d->op_type);
  if (!def) {
    mt_status_setf(s, TF_NOT_FOUND,
                   "Op type not registered '%s' in binary running on minitf. Make sure the Op "
                   "and Kernel are registered in the binary running in this process. (node '%s')",
                   d->op_type, d->name);
    return NULL;
  }
  if (mt_graph_find(d->graph, d->name)) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Duplicate node name in graph: '%s'", d->name);
    return NULL;
  }
  for (int k = 0; k < d->ncontrol; k++) {
    if (!d->control[k] || d->control[k]->graph != d->graph) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Control input of node '%s' is not in the graph",
                     d->name);
      return NULL;
    }
  }
  if (!bind_inputs(d, def, s)) return NULL;
  fill_defaults(d, def);
  if (!check_attrs(d, def, s)) return NULL;
  TF_Operation* op = make_op(d, def, s);
  if (!op) return NULL;
  if (!check_input_types(op, s) || !infer_shapes(op, s) || !insert_op(d->graph, op, s)) {
    free_op(op);
    return NULL;
  }
  return op;
}

TF_Operation* mt_graph_finish(TF_OperationDescription* d, TF_Status* s) {
  TF_Graph* g = d->graph;
  TF_SetStatus(s, TF_OK, NULL);
  pthread_mutex_lock(&g->mu);
  TF_Operation* op = finish_locked(d, s);
  pthread_mutex_unlock(&g->mu);
  free_desc(d);
  return op;
}

static void remove_consumers_of(TF_Operation* op) {
  for (int k = 0; k < op->ninputs; k++) {
    mt_consumers* c = &op->inputs[k].oper->consumers[op->inputs[k].index];
    int w = 0;
    for (int j = 0; j < c->n; j++)
      if (c->items[j].oper != op) c->items[w++] = c->items[j];
    c->n = w;
  }
  for (int k = 0; k < op->ncontrol_inputs; k++) {
    TF_Operation* from = op->control_inputs[k];
    int w = 0;
    for (int j = 0; j < from->ncontrol_outputs; j++)
      if (from->control_outputs[j] != op) from->control_outputs[w++] = from->control_outputs[j];
    from->ncontrol_outputs = w;
  }
}

int mt_graph_update_input(TF_Graph* g, TF_Operation* op, int idx, TF_Output src, TF_Status* s) {
  pthread_mutex_lock(&g->mu);
  TF_DataType want = op->input_types[idx], got = src.oper->output_types[src.index];
  if (mt_dtype_base(want) != mt_dtype_base(got) ||
      (mt_dtype_is_ref(want) && !mt_dtype_is_ref(got))) {
    pthread_mutex_unlock(&g->mu);
    mt_status_setf(s, TF_INVALID_ARGUMENT,
                   "Input %d of node %s was passed %s from %s:%d incompatible with expected %s.",
                   idx, op->name, mt_dtype_name(got), src.oper->name, src.index,
                   mt_dtype_name(want));
    return 0;
  }
  TF_Input in = {op, idx};
  if (!add_consumer(&src.oper->consumers[src.index], in)) {
    pthread_mutex_unlock(&g->mu);
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM updating an input of node '%s'", op->name);
    return 0;
  }
  mt_consumers* c = &op->inputs[idx].oper->consumers[op->inputs[idx].index];
  for (int j = 0; j < c->n; j++)
    if (c->items[j].oper == op && c->items[j].index == idx) {
      c->items[j] = c->items[--c->n];
      break;
    }
  op->inputs[idx] = src;
  g->mutations++;
  pthread_mutex_unlock(&g->mu);
  return 1;
}

/* Grows an array of n items of `size` bytes to m, zeroing the new ones. */
static int grow_zeroed(void** arr, size_t size, int n, int m) {
  void* grown = realloc(*arr, size * (size_t)(m > 0 ? m : 1));
  if (!grown) return 0;
  memset((char*)grown + size * (size_t)n, 0, size * (size_t)(m - n));
  *arr = grown;
  return 1;
}

int mt_graph_append_inputs(TF_Graph* g, TF_Operation* op, const TF_Output* srcs, int n,
                           TF_Status* s) {
  const mt_op_def* def = op->def;
  const mt_arg_def* last = def->ninputs ? &def->inputs[def->ninputs - 1] : NULL;
  if (!last || !(last->type_list_attr || last->number_attr)) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Node '%s' (%s) has no list input to append to",
                   op->name, op->op_type);
    return 0;
  }
  pthread_mutex_lock(&g->mu);
  int old = op->ninputs, total = old + n, ok = 1;
  for (int k = 0; k < n && ok; k++) ok = srcs[k].oper && srcs[k].oper->graph == g;
  if (!ok) {
    pthread_mutex_unlock(&g->mu);
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Inputs appended to node '%s' must be of its graph",
                   op->name);
    return 0;
  }
  ok = grow_zeroed((void**)&op->inputs, sizeof(TF_Output), old, total) &&
       grow_zeroed((void**)&op->input_types, sizeof(TF_DataType), old, total);
  for (int k = 0; ok && k < n; k++) {
    TF_Input in = {op, old + k};
    ok = add_consumer(&srcs[k].oper->consumers[srcs[k].index], in);
    if (!ok) break;
    op->inputs[old + k] = srcs[k];
    op->input_types[old + k] = base_type(srcs[k].oper->output_types[srcs[k].index]);
    op->ninputs++;
    op->input_arg_len[def->ninputs - 1]++;
  }
  g->mutations++;
  pthread_mutex_unlock(&g->mu);
  if (!ok) mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM appending inputs to node '%s'", op->name);
  return ok;
}

/* Shapes of outputs from `from` on by op's own shape function (an If's
 * output_shapes); a failure leaves them unknown, which is always valid.
 * The earlier outputs keep the shapes they had. graph->mu held. */
static void infer_new_shapes(TF_Operation* op, int from) {
  int n = op->noutputs;
  mt_shape* saved = malloc(sizeof(mt_shape) * (size_t)(n > 0 ? n : 1));
  TF_Status* tmp = TF_NewStatus();
  if (saved && tmp) {
    memcpy(saved, op->output_shapes, sizeof(mt_shape) * (size_t)n);
    if (!infer_shapes(op, tmp))
      for (int k = from; k < n; k++) saved[k] = mt_shape_unknown();
    else
      for (int k = from; k < n; k++) saved[k] = op->output_shapes[k];
    memcpy(op->output_shapes, saved, sizeof(mt_shape) * (size_t)n);
  }
  free(saved);
  TF_DeleteStatus(tmp);
}

int mt_graph_refresh_outputs(TF_Graph* g, TF_Operation* op, TF_Status* s) {
  int old = op->noutputs, total = count_outputs(op->def, op->attrs, op->nattrs);
  if (total < old) {
    mt_status_setf(s, TF_INVALID_ARGUMENT, "Node '%s' would lose outputs (%d of %d): outputs "
                   "can only be added", op->name, total, old);
    return 0;
  }
  pthread_mutex_lock(&g->mu);
  int ok = grow_zeroed((void**)&op->output_types, sizeof(TF_DataType), old, total) &&
           grow_zeroed((void**)&op->output_shapes, sizeof(mt_shape), old, total) &&
           grow_zeroed((void**)&op->consumers, sizeof(mt_consumers), old, total);
  if (ok && op->folded)
    ok = grow_zeroed((void**)&op->folded, sizeof(TF_Tensor*), old, total) &&
         grow_zeroed((void**)&op->fold_state, 1, old, total);
  if (ok) {
    int at = 0;
    for (int k = 0; k < op->def->noutputs; k++) {
      int m = arg_types(&op->def->outputs[k], op->attrs, op->nattrs, op->output_types + at,
                        total - at);
      op->output_arg_len[k] = m;
      at += m;
    }
    for (int k = old; k < total; k++) op->output_shapes[k] = mt_shape_unknown();
    op->noutputs = total;
    infer_new_shapes(op, old);
  }
  g->mutations++;
  pthread_mutex_unlock(&g->mu);
  if (!ok) mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "OOM adding outputs to node '%s'", op->name);
  return ok;
}

void mt_graph_truncate(TF_Graph* g, int n) {
  pthread_mutex_lock(&g->mu);
  while (g->nops > n) {
    TF_Operation* op = g->ops[--g->nops];
    remove_consumers_of(op);
    free_op(op);
  }
  if (g->hcap) index_rebuild(g);
  g->mutations++;
  pthread_mutex_unlock(&g->mu);
}

int mt_graph_grad_key_add(TF_Graph* g, const char* key) {
  for (int k = 0; k < g->ngrad_keys; k++)
    if (strcmp(g->grad_keys[k], key) == 0) return 0;
  if (g->ngrad_keys == g->grad_keys_cap) {
    int cap = g->grad_keys_cap ? 2 * g->grad_keys_cap : 8;
    char** grown = realloc(g->grad_keys, sizeof(char*) * (size_t)cap);
    if (!grown) return -1;
    g->grad_keys = grown;
    g->grad_keys_cap = cap;
  }
  char* copy = strdup(key);
  if (!copy) return -1;
  g->grad_keys[g->ngrad_keys++] = copy;
  return 1;
}

void mt_graph_free(TF_Graph* g) {
  for (int k = 0; k < g->ngrad_keys; k++) free(g->grad_keys[k]);
  free(g->grad_keys);
  for (int k = 0; k < g->nops; k++) free_op(g->ops[k]);
  free(g->ops);
  free(g->htab);
  mt_graph_free_functions(g);
  pthread_mutex_destroy(&g->lib_mu);
  pthread_mutex_destroy(&g->mu);
  free(g);
}

TF_Graph* mt_graph_new(void) {
  TF_Graph* g = calloc(1, sizeof(TF_Graph));
  if (!g) return NULL;
  pthread_mutex_init(&g->mu, NULL);
  pthread_mutex_init(&g->lib_mu, NULL);
  return g;
}

void mt_desc_free(TF_OperationDescription* d) { free_desc(d); }
