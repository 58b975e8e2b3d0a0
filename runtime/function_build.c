/* Making a FunctionDef from ops of a graph (TF_GraphToFunction): the ops
 * become the body, chosen tensors its arguments and results. The result is
 * written as FunctionDef bytes and parsed back, so a built function and an
 * imported one are the same thing. Names follow TensorFlow's
 * GraphToFunctionDef: results first, then arguments (both normalized unless
 * named by the caller, made unique), then body nodes (made unique against
 * both). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/function.h"
#include "runtime/status.h"

typedef struct names {
  int n, cap;
  char** used;
} names;

static int name_used(const names* u, const char* name) {
  for (int k = 0; k < u->n; k++)
    if (strcmp(u->used[k], name) == 0) return 1;
  return 0;
}

static char* name_add(names* u, char* name) {
  if (!name) return NULL;
  if (u->n == u->cap) {
    int cap = u->cap ? u->cap * 2 : 16;
    char** p = realloc(u->used, sizeof(char*) * (size_t)cap);
    if (!p) {
      free(name);
      return NULL;
    }
    u->used = p;
    u->cap = cap;
  }
  u->used[u->n++] = name;
  return name;
}

/* `name`, or name_0, name_1, ... when taken. The result is owned by u. */
static char* uniquify(names* u, const char* name) {
  if (!name_used(u, name)) return name_add(u, mt_strdup(name));
  size_t n = strlen(name) + 24;
  char* buf = malloc(n);
  for (int k = 0; buf; k++) {
    snprintf(buf, n, "%s_%d", name, k);
    if (!name_used(u, buf)) return name_add(u, buf);
  }
  return NULL;
}

/* Lowercase letters and digits, other characters '_', starting at the
 * first letter ("unknown" when there is none), as argument names must. */
static char* normalize(const char* name) {
  size_t n = strlen(name);
  char* out = malloc(n + 8);
  if (!out) return NULL;
  for (size_t k = 0; k < n; k++) {
    unsigned char c = (unsigned char)name[k];
    out[k] = isalnum(c) ? (char)tolower(c) : '_';
  }
  out[n] = 0;
  size_t first = 0;
  while (first < n && !isalpha((unsigned char)out[first])) first++;
  if (first == n) strcpy(out, "unknown");
  else memmove(out, out + first, n - first + 1);
  return out;
}

typedef struct builder {
  TF_Graph* g;
  const char* fn_name;
  int nbody;
  TF_Operation** body;
  char** body_names; /* per body op, owned by `used` */
  int ninputs;
  const TF_Output* inputs;
  char** arg_names;
  names used;
  TF_Status* s;
} builder;

static int body_index(const builder* b, const TF_Operation* op) {
  for (int k = 0; k < b->nbody; k++)
    if (b->body[k] == op) return k;
  return -1;
}

static int input_index(const builder* b, TF_Output o) {
  for (int k = 0; k < b->ninputs; k++)
    if (b->inputs[k].oper == o.oper && b->inputs[k].index == o.index) return k;
  return -1;
}

/* "node:out_arg:index" for output o of body op k, or the argument name. */
static char* tensor_ref(builder* b, TF_Output o) {
  int in = input_index(b, o);
  if (in >= 0) return mt_strdup(b->arg_names[in]);
  int k = body_index(b, o.oper);
  if (k < 0) {
    mt_status_setf(b->s, TF_INVALID_ARGUMENT,
                   "'%s:%d' is used by the function '%s' but is neither one of its inputs nor "
                   "the output of an operation in its body", o.oper->name, o.index, b->fn_name);
    return NULL;
  }
  int at = 0;
  for (int a = 0; a < o.oper->def->noutputs; a++) {
    int len = o.oper->output_arg_len[a];
    if (o.index < at + len) {
      size_t n = strlen(b->body_names[k]) + strlen(o.oper->def->outputs[a].name) + 24;
      char* ref = malloc(n);
      if (ref) snprintf(ref, n, "%s:%s:%d", b->body_names[k], o.oper->def->outputs[a].name, o.index - at);
      return ref;
    }
    at += len;
  }
  return NULL;
}

static void put_arg(mt_pb_writer* w, uint32_t num, const char* name, TF_DataType type) {
  mt_pb_writer a = mt_pb_writer_make();
  mt_pb_put_string_field(&a, 1, name);
  mt_pb_put_int64_field(&a, 3, mt_dtype_base(type));
  mt_pb_put_message(w, num, &a);
}

static void put_map_entry(mt_pb_writer* w, uint32_t num, const char* key, const char* val) {
  mt_pb_writer e = mt_pb_writer_make();
  mt_pb_put_string_field(&e, 1, key);
  mt_pb_put_string_field(&e, 2, val);
  mt_pb_put_message(w, num, &e);
}

static int put_node(builder* b, mt_pb_writer* w, int k) {
  TF_Operation* op = b->body[k];
  mt_pb_writer nd = mt_pb_writer_make();
  mt_pb_put_string_field(&nd, 1, b->body_names[k]);
  mt_pb_put_string_field(&nd, 2, op->op_type);
  for (int i = 0; i < op->ninputs; i++) {
    char* ref = tensor_ref(b, op->inputs[i]);
    if (!ref) {
      mt_pb_writer_free(&nd);
      if (mt_ok(b->s)) mt_status_setf(b->s, TF_RESOURCE_EXHAUSTED, "out of memory");
      return 0;
    }
    mt_pb_put_string_field(&nd, 3, ref);
    free(ref);
  }
  for (int i = 0; i < op->ncontrol_inputs; i++) {
    int c = body_index(b, op->control_inputs[i]);
    if (c < 0) continue; /* a dependency outside the body is the caller's to keep */
    size_t n = strlen(b->body_names[c]) + 2;
    char* ref = malloc(n);
    if (ref) {
      snprintf(ref, n, "^%s", b->body_names[c]);
      mt_pb_put_string_field(&nd, 3, ref);
    }
    free(ref);
  }
  if (op->device && op->device[0]) mt_pb_put_string_field(&nd, 4, op->device);
  mt_attrs_to_proto(&nd, 5, op->attrs, op->nattrs);
  mt_pb_put_message(w, 3, &nd);
  return 1;
}

static int cmp_pair(const void* x, const void* y) {
  return strcmp(((char* const*)x)[0], ((char* const*)y)[0]);
}

/* Map entries sorted by key, as deterministic serialization writes maps. */
static void put_sorted_map(mt_pb_writer* w, uint32_t num, char** pairs, int n) {
  qsort(pairs, (size_t)n, 2 * sizeof(char*), cmp_pair);
  for (int k = 0; k < n; k++) put_map_entry(w, num, pairs[2 * k], pairs[2 * k + 1]);
}

static int choose_body(builder* b, int nopers, const TF_Operation* const* opers) {
  TF_Graph* g = b->g;
  b->body = mt_calloc((size_t)(nopers >= 0 ? nopers : g->nops) + 1, sizeof(TF_Operation*), b->s);
  if (!b->body) return 0;
  if (nopers >= 0) {
    for (int k = 0; k < nopers; k++) b->body[b->nbody++] = (TF_Operation*)opers[k];
    return 1;
  }
  for (int k = 0; k < g->nops; k++) {
    TF_Operation* op = g->ops[k];
    int is_input = 0;
    for (int i = 0; i < b->ninputs; i++) is_input |= b->inputs[i].oper == op;
    if (is_input && op->noutputs != 1) {
      mt_status_setf(b->s, TF_INVALID_ARGUMENT,
                     "When `num_opers` is set to -1, nodes referenced in `inputs` must have a "
                     "single output. Node %s has %d outputs. Encountered while creating function "
                     "'%s'", op->name, op->noutputs, b->fn_name);
      return 0;
    }
    if (!is_input) b->body[b->nbody++] = op;
  }
  return 1;
}

static int name_args(builder* b) {
  b->arg_names = mt_calloc((size_t)b->ninputs + 1, sizeof(char*), b->s);
  if (!b->arg_names) return 0;
  for (int k = 0; k < b->ninputs; k++) {
    for (int j = 0; j < k; j++)
      if (b->inputs[j].oper == b->inputs[k].oper && b->inputs[j].index == b->inputs[k].index) {
        mt_status_setf(b->s, TF_INVALID_ARGUMENT,
                       "TF_Output %s:%d appears more than once in the input list",
                       b->inputs[k].oper->name, b->inputs[k].index);
        return 0;
      }
    char* norm = normalize(b->inputs[k].oper->name);
    b->arg_names[k] = norm ? uniquify(&b->used, norm) : NULL;
    free(norm);
    if (!b->arg_names[k]) return 0;
  }
  return 1;
}

static void builder_free(builder* b) {
  for (int k = 0; k < b->used.n; k++) free(b->used.used[k]);
  free(b->used.used);
  free(b->body);
  free(b->body_names);
  free(b->arg_names);
}

mt_function* mt_function_from_graph(TF_Graph* g, const char* name, int nopers,
                                    const TF_Operation* const* opers, int ninputs,
                                    const TF_Output* inputs, int noutputs,
                                    const TF_Output* outputs, const char* const* output_names,
                                    int ncontrol, const TF_Operation* const* control,
                                    const char* const* control_names, const char* description,
                                    TF_Status* s) {
  builder b = {g, name, 0, NULL, NULL, ninputs, inputs, NULL, {0, 0, NULL}, s};
  mt_pb_writer w = mt_pb_writer_make(), sig = mt_pb_writer_make();
  char** rets = mt_calloc((size_t)noutputs * 2 + 1, sizeof(char*), s);
  char** crets = mt_calloc((size_t)ncontrol * 2 + 1, sizeof(char*), s);
  mt_function* fn = NULL;
  int stateful = 0, ok = rets && crets && choose_body(&b, nopers, opers);
  char** out_names = ok ? mt_calloc((size_t)noutputs + 1, sizeof(char*), s) : NULL;
  ok = ok && out_names;
  for (int k = 0; ok && k < noutputs; k++) {
    char* norm = output_names && output_names[k] ? mt_strdup(output_names[k])
                                                 : normalize(outputs[k].oper->name);
    ok = norm && (out_names[k] = uniquify(&b.used, norm)) != NULL;
    free(norm);
  }
  ok = ok && name_args(&b);
  b.body_names = ok ? mt_calloc((size_t)b.nbody + 1, sizeof(char*), s) : NULL;
  ok = ok && b.body_names;
  for (int k = 0; ok && k < b.nbody; k++) {
    ok = (b.body_names[k] = uniquify(&b.used, b.body[k]->name)) != NULL;
    stateful |= (b.body[k]->def->flags & MT_OP_STATEFUL) != 0;
  }
  if (ok) {
    mt_pb_put_string_field(&sig, 1, name);
    for (int k = 0; k < ninputs; k++)
      put_arg(&sig, 2, b.arg_names[k], inputs[k].oper->output_types[inputs[k].index]);
    for (int k = 0; k < noutputs; k++)
      put_arg(&sig, 3, out_names[k], outputs[k].oper->output_types[outputs[k].index]);
    if (description && description[0]) mt_pb_put_string_field(&sig, 6, description);
    if (stateful) mt_pb_put_bool_field(&sig, 17, 1);
    for (int k = 0; k < ncontrol; k++)
      mt_pb_put_string_field(&sig, 20, control_names && control_names[k] ? control_names[k]
                                                                         : control[k]->name);
    mt_pb_put_message(&w, 1, &sig);
  }
  for (int k = 0; ok && k < b.nbody; k++) ok = put_node(&b, &w, k);
  for (int k = 0; ok && k < noutputs; k++) {
    rets[2 * k] = out_names[k];
    ok = (rets[2 * k + 1] = tensor_ref(&b, outputs[k])) != NULL;
  }
  if (ok) put_sorted_map(&w, 4, rets, noutputs);
  for (int k = 0; ok && k < ncontrol; k++) {
    int c = body_index(&b, control[k]);
    if (c < 0) {
      mt_status_setf(s, TF_INVALID_ARGUMENT, "Control output '%s' of function '%s' is not in "
                     "its body", control[k]->name, name);
      ok = 0;
      break;
    }
    crets[2 * k] = (char*)(control_names && control_names[k] ? control_names[k] : control[k]->name);
    crets[2 * k + 1] = b.body_names[c];
  }
  if (ok) put_sorted_map(&w, 6, crets, ncontrol);
  if (ok && w.failed) mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory building a function");
  if (ok && !w.failed) fn = mt_function_parse(w.data, w.len, s);
  else if (mt_ok(s)) mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory building a function");
  for (int k = 0; rets && k < noutputs; k++) free(rets[2 * k + 1]);
  free(rets);
  free(crets);
  free(out_names);
  mt_pb_writer_free(&w);
  mt_pb_writer_free(&sig);
  builder_free(&b);
  return fn;
}
