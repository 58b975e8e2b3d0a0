/* Building operation descriptions inside the runtime: the functions behind
 * TF_NewOperation / TF_AddInput / TF_SetAttr* (the C API wraps these) and
 * what runtime code that adds ops itself (gradients) uses. A description
 * collects inputs and attrs; mt_graph_finish (graph.h) validates and adds
 * it. Allocation failures are recorded in d->alloc_failed and reported by
 * mt_graph_finish. Not thread-safe per description. */
#ifndef MINITF_RUNTIME_GRAPH_BUILD_H_
#define MINITF_RUNTIME_GRAPH_BUILD_H_

#include "runtime/graph.h"

/* A new description of an op of `op_type` named `oper_name` (copied); NULL
 * on OOM. Freed by mt_graph_finish or mt_desc_free. */
TF_OperationDescription* mt_desc_new(TF_Graph* graph, const char* op_type, const char* oper_name);
void mt_desc_set_device(TF_OperationDescription* d, const char* device);
/* Appends one input arg: a single tensor (is_list 0, n 1) or a list. */
void mt_desc_add_input(TF_OperationDescription* d, const TF_Output* items, int n, int is_list);
void mt_desc_add_control(TF_OperationDescription* d, TF_Operation* input);
/* Stores *v under name, taking ownership of its contents. */
void mt_desc_set_attr(TF_OperationDescription* d, const char* name, mt_attr_value* v);
/* Copies len bytes of data into *b (NUL-terminated). */
void mt_desc_set_bytes(mt_bytes* b, const void* data, size_t len, TF_OperationDescription* d);
/* Appends "loc:@<op>" to the _class attr, as TensorFlow's colocation does. */
void mt_desc_colocate_with(TF_OperationDescription* d, TF_Operation* op);

/* An empty scalar attr value of `kind`, and a list of n zeroed items (the
 * caller allocates the item array). */
mt_attr_value mt_attr_scalar(mt_attr_kind kind);
mt_attr_value mt_attr_list(mt_attr_kind kind, int n);

#endif
