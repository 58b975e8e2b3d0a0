/* Operation descriptions (see graph_build.h). */
#include "runtime/graph_build.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/attr.h"

TF_OperationDescription* mt_desc_new(TF_Graph* graph, const char* op_type, const char* oper_name) {
  TF_OperationDescription* d = calloc(1, sizeof(*d));
  if (!d) return NULL;
  d->graph = graph;
  d->op_type = strdup(op_type ? op_type : "");
  d->name = strdup(oper_name ? oper_name : "");
  if (!d->op_type || !d->name) d->alloc_failed = 1;
  return d;
}

void mt_desc_set_device(TF_OperationDescription* d, const char* device) {
  free(d->device);
  d->device = strdup(device ? device : "");
  if (!d->device) d->alloc_failed = 1;
}

void mt_desc_add_input(TF_OperationDescription* d, const TF_Output* items, int n, int is_list) {
  if (n < 0) n = 0;
  if (d->ninputs == d->inputs_cap) {
    int cap = d->inputs_cap ? d->inputs_cap * 2 : 4;
    mt_desc_input* grown = realloc(d->inputs, sizeof(*grown) * (size_t)cap);
    if (!grown) {
      d->alloc_failed = 1;
      return;
    }
    d->inputs = grown;
    d->inputs_cap = cap;
  }
  mt_desc_input* in = &d->inputs[d->ninputs];
  in->is_list = is_list;
  in->n = n;
  in->items = malloc(sizeof(TF_Output) * (size_t)(n ? n : 1));
  if (!in->items) {
    d->alloc_failed = 1;
    return;
  }
  if (n) memcpy(in->items, items, sizeof(TF_Output) * (size_t)n);
  d->ninputs++;
}


void mt_desc_add_control(TF_OperationDescription* d, TF_Operation* input) {
  if (d->ncontrol == d->control_cap) {
    int cap = d->control_cap ? d->control_cap * 2 : 4;
    TF_Operation** grown = realloc(d->control, sizeof(*grown) * (size_t)cap);
    if (!grown) {
      d->alloc_failed = 1;
      return;
    }
    d->control = grown;
    d->control_cap = cap;
  }
  d->control[d->ncontrol++] = input;
}

/* Stores v (taking ownership) under name. */
void mt_desc_set_attr(TF_OperationDescription* d, const char* name, mt_attr_value* v) {
  if (!mt_attrs_set(&d->attrs, &d->nattrs, name, v)) {
    mt_attr_value_clear(v);
    d->alloc_failed = 1;
  }
}

void mt_desc_set_bytes(mt_bytes* b, const void* data, size_t len, TF_OperationDescription* d) {
  b->data = mt_strndup(data ? data : "", data ? len : 0);
  b->len = data ? len : 0;
  if (!b->data) d->alloc_failed = 1;
}

mt_attr_value mt_attr_scalar(mt_attr_kind kind) {
  mt_attr_value v;
  memset(&v, 0, sizeof(v));
  v.kind = kind;
  return v;
}

mt_attr_value mt_attr_list(mt_attr_kind kind, int n) {
  mt_attr_value v = mt_attr_scalar(kind);
  v.is_list = 1;
  v.list.n = n < 0 ? 0 : n;
  return v;
}

void mt_desc_colocate_with(TF_OperationDescription* d, TF_Operation* op) {
  /* appends "loc:@<op>" to the _class list attr, as TensorFlow does */
  const mt_attr* cur = mt_attrs_find(d->attrs, d->nattrs, "_class");
  int n = cur && cur->value.is_list ? cur->value.list.n : 0;
  mt_attr_value v = mt_attr_list(MT_ATTR_S, n + 1);
  v.list.s = calloc((size_t)n + 1, sizeof(mt_bytes));
  if (!v.list.s) {
    d->alloc_failed = 1;
    return;
  }
  for (int k = 0; k < n; k++) mt_desc_set_bytes(&v.list.s[k], cur->value.list.s[k].data, cur->value.list.s[k].len, d);
  size_t len = strlen(op->name) + 5;
  char* loc = malloc(len + 1);
  if (loc) {
    memcpy(loc, "loc:@", 5);
    memcpy(loc + 5, op->name, len - 5 + 1);
    v.list.s[n].data = loc;
    v.list.s[n].len = len;
  } else {
    d->alloc_failed = 1;
  }
  mt_desc_set_attr(d, "_class", &v);
}

