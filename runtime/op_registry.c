/* The op registry: parses the compact op specs (see op_registry.h) once
 * into OpDef-like records sorted by name. */
#include "runtime/op_registry.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Defined in runtime/kernels/all_ops.c: registers every op family. */
void mt_register_all_ops(void);

static mt_registry g_registry;
static const mt_op_spec** g_specs;
static int g_nspecs, g_specs_cap;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

void mt_register_ops(const mt_op_spec* specs, int n) {
  for (int k = 0; k < n; k++) {
    if (g_nspecs == g_specs_cap) {
      int cap = g_specs_cap ? g_specs_cap * 2 : 256;
      const mt_op_spec** grown = realloc(g_specs, sizeof(*grown) * (size_t)cap);
      if (!grown) return;
      g_specs = grown;
      g_specs_cap = cap;
    }
    g_specs[g_nspecs++] = &specs[k];
  }
}

/* ---- small text helpers ---- */

static char* trim(char* s) {
  while (isspace((unsigned char)*s)) s++;
  char* e = s + strlen(s);
  while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
  return s;
}

/* Splits `text` (a copy is modified) at top-level `sep` (not inside [] {} ()
 * or quotes). Returns the number of pieces stored in parts. */
static int split_top(char* text, char sep, char** parts, int cap) {
  int n = 0, depth = 0;
  char quote = 0;
  char* start = text;
  for (char* p = text;; p++) {
    char c = *p;
    if (quote) {
      if (c == quote) quote = 0;
      if (c) continue;
    }
    if (c == '\'' || c == '"') quote = c;
    else if (c == '[' || c == '{' || c == '(') depth++;
    else if (c == ']' || c == '}' || c == ')') depth--;
    if ((c == sep && depth == 0) || c == '\0') {
      *p = '\0';
      char* piece = trim(start);
      if (*piece && n < cap) parts[n++] = piece;
      if (c == '\0') break;
      start = p + 1;
    }
  }
  return n;
}

static const char* kNumberTypes =
    "float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
    "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64";
static const char* kRealNumberTypes =
    "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64";

/* ---- tensor defaults, in TensorFlow's text format ----
 * REGISTER_OP writes tensor defaults as TensorProto text, e.g.
 *   { dtype: DT_UINT8 tensor_shape { dim { size: 4 } } int_val: 255 ... }
 * The subset read here: dtype, tensor_shape dims, int_val (integer dtypes
 * up to 32 bits) and float_val (float); a value list shorter than the
 * shape repeats its last value, as TensorFlow fills it. */

typedef struct text_cursor {
  const char* p;
  char tok[64];
} text_cursor;

/* Next token: "{", "}", ":" or a run of other non-space characters.
 * Returns 0 at the end of the text. */
static int next_token(text_cursor* c) {
  while (isspace((unsigned char)*c->p)) c->p++;
  if (!*c->p) return 0;
  size_t n = 0;
  if (strchr("{}:", *c->p)) {
    c->tok[n++] = *c->p++;
  } else {
    while (*c->p && !isspace((unsigned char)*c->p) && !strchr("{}:", *c->p)) {
      if (n + 1 < sizeof c->tok) c->tok[n++] = *c->p;
      c->p++;
    }
  }
  c->tok[n] = '\0';
  return 1;
}

static int expect_token(text_cursor* c, const char* want) {
  return next_token(c) && strcmp(c->tok, want) == 0;
}

/* "NAME :" then the value token; returns 0 unless both are there. */
static int field_value(text_cursor* c) { return expect_token(c, ":") && next_token(c); }

static int parse_dims(text_cursor* c, int64_t* dims, int* ndims) {
  if (!expect_token(c, "{")) return 0;
  while (next_token(c)) {
    if (strcmp(c->tok, "}") == 0) return 1;
    if (strcmp(c->tok, "dim") != 0 || *ndims == MT_MAX_DIMS || !expect_token(c, "{") ||
        !expect_token(c, "size") || !field_value(c))
      return 0;
    dims[(*ndims)++] = strtoll(c->tok, NULL, 10);
    if (!expect_token(c, "}")) return 0;
  }
  return 0;
}

static int store_values(TF_Tensor* t, const double* vals, int nvals) {
  int64_t n = mt_tensor_nelems(t);
  void* d = mt_tensor_data(t);
  for (int64_t k = 0; k < n; k++) {
    double v = nvals ? vals[k < nvals ? k : nvals - 1] : 0;
    switch (t->dtype) {
      case TF_UINT8: ((uint8_t*)d)[k] = (uint8_t)v; break;
      case TF_INT8: ((int8_t*)d)[k] = (int8_t)v; break;
      case TF_UINT16: ((uint16_t*)d)[k] = (uint16_t)v; break;
      case TF_INT16: ((int16_t*)d)[k] = (int16_t)v; break;
      case TF_INT32: ((int32_t*)d)[k] = (int32_t)v; break;
      case TF_FLOAT: ((float*)d)[k] = (float)v; break;
      default: return 0;
    }
  }
  return 1;
}

static int parse_tensor_text(const char* text, TF_Tensor** out) {
  text_cursor c = {text, {0}};
  TF_DataType dt = 0;
  int64_t dims[MT_MAX_DIMS];
  int ndims = 0, nvals = 0, ok = 1, closed = 0;
  double vals[64];
  if (!expect_token(&c, "{")) return 0;
  while (ok && !closed && next_token(&c)) {
    if (strcmp(c.tok, "}") == 0) closed = 1;
    else if (strcmp(c.tok, "dtype") == 0) ok = field_value(&c) && (dt = mt_dtype_from_name(c.tok));
    else if (strcmp(c.tok, "tensor_shape") == 0) ok = parse_dims(&c, dims, &ndims);
    else if (strcmp(c.tok, "int_val") == 0 || strcmp(c.tok, "float_val") == 0)
      ok = nvals < 64 && field_value(&c) && ((vals[nvals++] = strtod(c.tok, NULL)), 1);
    else ok = 0;
  }
  int64_t n = mt_num_elements(dims, ndims);
  if (!ok || !closed || next_token(&c) || !dt || n < 0 || n > 1024 || nvals > n) return 0;
  TF_Tensor* t = TF_AllocateTensor(dt, dims, ndims, (size_t)n * TF_DataTypeSize(dt));
  if (!t || !store_values(t, vals, nvals)) {
    if (t) TF_DeleteTensor(t);
    return 0;
  }
  *out = t;
  return 1;
}

/* Parses one scalar value of `kind` from text into v (not a list). */
static int parse_scalar(mt_attr_kind kind, const char* text, mt_attr_value* v, TF_Status* s) {
  v->kind = kind;
  switch (kind) {
    case MT_ATTR_S:
    case MT_ATTR_FUNC: {
      size_t n = strlen(text);
      if (n >= 2 && (text[0] == '\'' || text[0] == '"')) {
        text++;
        n -= 2;
      }
      v->v.s.data = mt_strndup(text, n);
      v->v.s.len = n;
      return v->v.s.data != NULL;
    }
    case MT_ATTR_I: {
      char* end;
      v->v.i = strtoll(text, &end, 10);
      if (*end) break;
      return 1;
    }
    case MT_ATTR_F: {
      char* end;
      v->v.f = strtof(text, &end);
      if (*end) break;
      return 1;
    }
    case MT_ATTR_B:
      if (strcmp(text, "true") == 0) v->v.b = 1;
      else if (strcmp(text, "false") == 0) v->v.b = 0;
      else break;
      return 1;
    case MT_ATTR_TYPE:
      v->v.type = mt_dtype_from_name(text);
      if (!v->v.type) break;
      return 1;
    case MT_ATTR_SHAPE: {
      if (strcmp(text, "unknown") == 0 || strstr(text, "unknown_rank")) {
        v->v.shape = mt_shape_unknown();
        return 1;
      }
      char buf[512];
      snprintf(buf, sizeof(buf), "%s", text);
      char* body = trim(buf);
      size_t n = strlen(body);
      if (n < 2 || body[0] != '[' || body[n - 1] != ']') break;
      body[n - 1] = '\0';
      char* parts[MT_MAX_DIMS];
      int rank = split_top(body + 1, ',', parts, MT_MAX_DIMS);
      v->v.shape.rank = rank;
      for (int k = 0; k < rank; k++) v->v.shape.dims[k] = strtoll(parts[k], NULL, 10);
      return 1;
    }
    case MT_ATTR_TENSOR:
      v->v.tensor = NULL;
      if (!parse_tensor_text(text, &v->v.tensor)) break;
      return 1;
    default:
      break;
  }
  mt_status_setf(s, TF_INTERNAL, "cannot parse '%s' as %d", text, (int)kind);
  return 0;
}

/* Parses "[a, b]" into a list value of element kind `kind`. */
static int parse_list(mt_attr_kind kind, const char* text, mt_attr_value* v, TF_Status* s) {
  char buf[1024];
  snprintf(buf, sizeof(buf), "%s", text);
  char* body = trim(buf);
  size_t n = strlen(body);
  if (n < 2 || (body[0] != '[' && body[0] != '{') || (body[n - 1] != ']' && body[n - 1] != '}')) {
    mt_status_setf(s, TF_INTERNAL, "bad list '%s'", text);
    return 0;
  }
  body[n - 1] = '\0';
  char* parts[128];
  int cnt = split_top(body + 1, ',', parts, 128);
  memset(v, 0, sizeof(*v));
  v->is_list = 1;
  v->kind = kind;
  v->list.n = cnt;
  size_t m = (size_t)(cnt ? cnt : 1);
  switch (kind) {
    case MT_ATTR_S: case MT_ATTR_FUNC: v->list.s = calloc(m, sizeof(mt_bytes)); break;
    case MT_ATTR_I: v->list.i = calloc(m, sizeof(int64_t)); break;
    case MT_ATTR_F: v->list.f = calloc(m, sizeof(float)); break;
    case MT_ATTR_B: v->list.b = calloc(m, 1); break;
    case MT_ATTR_TYPE: v->list.type = calloc(m, sizeof(TF_DataType)); break;
    case MT_ATTR_SHAPE: v->list.shape = calloc(m, sizeof(mt_shape)); break;
    case MT_ATTR_TENSOR: v->list.tensor = calloc(m, sizeof(TF_Tensor*)); break;
    default: break;
  }
  for (int k = 0; k < cnt; k++) {
    mt_attr_value one;
    memset(&one, 0, sizeof(one));
    if (!parse_scalar(kind, parts[k], &one, s)) return 0;
    switch (kind) {
      case MT_ATTR_S: case MT_ATTR_FUNC: v->list.s[k] = one.v.s; break;
      case MT_ATTR_I: v->list.i[k] = one.v.i; break;
      case MT_ATTR_F: v->list.f[k] = one.v.f; break;
      case MT_ATTR_B: v->list.b[k] = (unsigned char)one.v.b; break;
      case MT_ATTR_TYPE: v->list.type[k] = one.v.type; break;
      case MT_ATTR_SHAPE: v->list.shape[k] = one.v.shape; break;
      default: break;
    }
  }
  return 1;
}

static mt_attr_kind kind_from_name(const char* name) {
  static const struct { const char* name; mt_attr_kind kind; } kinds[] = {
      {"string", MT_ATTR_S}, {"int", MT_ATTR_I},       {"float", MT_ATTR_F},
      {"bool", MT_ATTR_B},   {"type", MT_ATTR_TYPE},   {"shape", MT_ATTR_SHAPE},
      {"tensor", MT_ATTR_TENSOR}, {"func", MT_ATTR_FUNC}};
  for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
    if (strcmp(kinds[k].name, name) == 0) return kinds[k].kind;
  return MT_ATTR_NONE;
}

/* "{float, double}" / "numbertype" / "{'NHWC', 'NCHW'}" -> allowed list. */
static int parse_allowed(const char* text, mt_attr_def* a, mt_attr_kind* kind, TF_Status* s) {
  char buf[1024];
  if (strcmp(text, "numbertype") == 0) snprintf(buf, sizeof(buf), "{%s}", kNumberTypes);
  else if (strcmp(text, "realnumbertype") == 0) snprintf(buf, sizeof(buf), "{%s}", kRealNumberTypes);
  else snprintf(buf, sizeof(buf), "%s", text);
  const char* inner = buf + 1;
  while (isspace((unsigned char)*inner)) inner++;
  *kind = (*inner == '\'' || *inner == '"') ? MT_ATTR_S : MT_ATTR_TYPE;
  a->has_allowed = 1;
  return parse_list(*kind, buf, &a->allowed_values, s);
}

static int is_set_text(const char* t) {
  return t[0] == '{' || strcmp(t, "numbertype") == 0 || strcmp(t, "realnumbertype") == 0;
}

/* One attr: "name: kind [>= min] [= default]". */
static int parse_attr(char* text, mt_attr_def* a, TF_Status* s) {
  char* colon = strchr(text, ':');
  if (!colon) {
    mt_status_setf(s, TF_INTERNAL, "attr '%s' lacks ':'", text);
    return 0;
  }
  *colon = '\0';
  a->name = strdup(trim(text));
  char* rest = trim(colon + 1);
  char* dflt = NULL;
  /* the default follows the first '=' not part of ">=" */
  for (char* p = rest; *p; p++) {
    if (*p == '=' && (p == rest || p[-1] != '>')) {
      *p = '\0';
      dflt = trim(p + 1);
      break;
    }
  }
  char* ge = strstr(rest, ">=");
  if (ge) {
    *ge = '\0';
    a->has_minimum = 1;
    a->minimum = strtoll(ge + 2, NULL, 10);
  }
  rest = trim(rest);
  int is_list = strncmp(rest, "list(", 5) == 0;
  char kindtext[1024];
  snprintf(kindtext, sizeof(kindtext), "%s", rest);
  if (is_list) {
    size_t n = strlen(kindtext);
    kindtext[n - 1] = '\0';
    memmove(kindtext, kindtext + 5, n - 4);
  }
  char* kt = trim(kindtext);
  mt_attr_kind kind;
  if (is_set_text(kt)) {
    if (!parse_allowed(kt, a, &kind, s)) return 0;
  } else {
    kind = kind_from_name(kt);
    if (kind == MT_ATTR_NONE) {
      mt_status_setf(s, TF_INTERNAL, "attr '%s' has unknown kind '%s'", a->name, kt);
      return 0;
    }
  }
  char tname[32];
  static const char* names[] = {"", "string", "int", "float", "bool", "type", "shape", "tensor",
                                "func", "placeholder"};
  snprintf(tname, sizeof(tname), is_list ? "list(%s)" : "%s", names[kind]);
  a->type = strdup(tname);
  if (dflt) {
    a->has_default = 1;
    int ok = is_list ? parse_list(kind, dflt, &a->default_value, s)
                     : parse_scalar(kind, dflt, &a->default_value, s);
    if (!ok) return 0;
  }
  return 1;
}

static const mt_attr_def* find_attr_def(const mt_op_def* d, const char* name) {
  for (int k = 0; k < d->nattrs; k++)
    if (strcmp(d->attrs[k].name, name) == 0) return &d->attrs[k];
  return NULL;
}

/* One arg: "name: T" / "name: float" / "name: N * T" / "name: Tlist" / Ref(T). */
static int parse_arg(char* text, const mt_op_def* d, mt_arg_def* a, TF_Status* s) {
  char* colon = strchr(text, ':');
  if (!colon) {
    mt_status_setf(s, TF_INTERNAL, "arg '%s' lacks ':'", text);
    return 0;
  }
  *colon = '\0';
  a->name = strdup(trim(text));
  char* t = trim(colon + 1);
  if (strncmp(t, "Ref(", 4) == 0) {
    a->is_ref = 1;
    t[strlen(t) - 1] = '\0';
    t = trim(t + 4);
  }
  char* star = strchr(t, '*');
  if (star) {
    *star = '\0';
    a->number_attr = strdup(trim(t));
    t = trim(star + 1);
  }
  TF_DataType fixed = mt_dtype_from_name(t);
  const mt_attr_def* ad = find_attr_def(d, t);
  if (ad && strcmp(ad->type, "type") == 0) {
    a->type_attr = strdup(t);
  } else if (ad && strcmp(ad->type, "list(type)") == 0 && !a->number_attr) {
    a->type_list_attr = strdup(t);
  } else if (fixed && !ad) {
    a->type = fixed;
  } else {
    mt_status_setf(s, TF_INTERNAL, "arg '%s' has unknown type '%s'", a->name, t);
    return 0;
  }
  if (a->number_attr && !find_attr_def(d, a->number_attr)) {
    mt_status_setf(s, TF_INTERNAL, "arg '%s' names unknown number attr", a->name);
    return 0;
  }
  return 1;
}

static int parse_args(const char* text, const mt_op_def* d, mt_arg_def** out, int* n,
                      TF_Status* s) {
  *out = NULL;
  *n = 0;
  if (!text || !*text) return 1;
  char* copy = strdup(text);
  char* parts[64];
  int cnt = split_top(copy, ',', parts, 64);
  *out = calloc((size_t)(cnt ? cnt : 1), sizeof(mt_arg_def));
  int ok = *out != NULL;
  for (int k = 0; ok && k < cnt; k++) {
    ok = parse_arg(parts[k], d, &(*out)[k], s);
    *n = k + 1;
  }
  free(copy);
  return ok;
}

int mt_op_def_parse(const mt_op_spec* spec, mt_op_def* d, TF_Status* s) {
  memset(d, 0, sizeof(*d));
  d->name = strdup(spec->name);
  d->flags = spec->flags;
  d->shape = spec->shape;
  d->kernel = spec->kernel;
  if (spec->attrs && *spec->attrs) {
    char* copy = strdup(spec->attrs);
    char* parts[64];
    int cnt = split_top(copy, ';', parts, 64);
    d->attrs = calloc((size_t)(cnt ? cnt : 1), sizeof(mt_attr_def));
    int ok = d->attrs != NULL;
    for (int k = 0; ok && k < cnt; k++) {
      ok = parse_attr(parts[k], &d->attrs[k], s);
      d->nattrs = k + 1;
    }
    free(copy);
    if (!ok) return 0;
  }
  if (!parse_args(spec->inputs, d, &d->inputs, &d->ninputs, s)) return 0;
  if (!parse_args(spec->outputs, d, &d->outputs, &d->noutputs, s)) return 0;
  return 1;
}

static void free_args(mt_arg_def* args, int n) {
  for (int k = 0; k < n; k++) {
    free(args[k].name);
    free(args[k].type_attr);
    free(args[k].number_attr);
    free(args[k].type_list_attr);
  }
  free(args);
}

void mt_op_def_free(mt_op_def* d) {
  free(d->name);
  free_args(d->inputs, d->ninputs);
  free_args(d->outputs, d->noutputs);
  for (int k = 0; k < d->nattrs; k++) {
    free(d->attrs[k].name);
    free(d->attrs[k].type);
    mt_attr_value_clear(&d->attrs[k].default_value);
    mt_attr_value_clear(&d->attrs[k].allowed_values);
  }
  free(d->attrs);
  memset(d, 0, sizeof(*d));
}

static int by_name(const void* a, const void* b) {
  return strcmp(((const mt_op_def*)a)->name, ((const mt_op_def*)b)->name);
}

static void build_registry(void) {
  mt_register_all_ops();
  g_registry.ops = calloc((size_t)(g_nspecs ? g_nspecs : 1), sizeof(mt_op_def));
  if (!g_registry.ops) return;
  TF_Status st = {TF_OK, NULL};
  for (int k = 0; k < g_nspecs; k++) {
    mt_op_def* d = &g_registry.ops[g_registry.nops];
    if (mt_op_def_parse(g_specs[k], d, &st)) {
      g_registry.nops++;
    } else {
      fprintf(stderr, "minitf: bad op spec for %s: %s\n", g_specs[k]->name,
              st.msg ? st.msg : "");
      mt_op_def_free(d);
      free(st.msg);
      st.msg = NULL;
      st.code = TF_OK;
    }
  }
  qsort(g_registry.ops, (size_t)g_registry.nops, sizeof(mt_op_def), by_name);
  for (int k = 1; k < g_registry.nops; k++)
    if (strcmp(g_registry.ops[k - 1].name, g_registry.ops[k].name) == 0)
      fprintf(stderr, "minitf: op %s registered twice\n", g_registry.ops[k].name);
}

const mt_registry* mt_registry_get(void) {
  pthread_once(&g_once, build_registry);
  return &g_registry;
}

const mt_op_def* mt_op_lookup(const char* name) {
  const mt_registry* r = mt_registry_get();
  mt_op_def key;
  key.name = (char*)name;
  return bsearch(&key, r->ops, (size_t)r->nops, sizeof(mt_op_def), by_name);
}

const mt_attr_def* mt_op_attr_def(const mt_op_def* def, const char* name) {
  return find_attr_def(def, name);
}
