/* Graph mutations of existing operations for the Python frontend (see
 * tensorflow/c/python_api.h). */
#include "tensorflow/c/python_api.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/attr.h"
#include "runtime/function.h"
#include "runtime/graphdef.h"
#include "runtime/graph.h"
#include "runtime/proto.h"
#include "runtime/py_func.h"
#include "runtime/status.h"

static int grow_ops(TF_Operation*** arr, int n, int* cap) {
  if (cap && n < *cap) return 1;
  int want = cap ? (*cap ? *cap * 2 : 4) : n + 1;
  TF_Operation** grown = realloc(*arr, sizeof(**arr) * (size_t)want);
  if (!grown) return 0;
  *arr = grown;
  if (cap) *cap = want;
  return 1;
}

void MT_AddControlInput(TF_Graph* graph, TF_Operation* op, TF_Operation* input,
                        TF_Status* status) {
  if (!op || !input || op->graph != graph || input->graph != graph || op == input) {
    mt_status_setf(status, TF_INVALID_ARGUMENT,
                   "Control input must be another operation of the same graph");
    return;
  }
  pthread_mutex_lock(&graph->mu);
  for (int i = 0; i < op->ncontrol_inputs; i++) {
    if (op->control_inputs[i] == input) {
      pthread_mutex_unlock(&graph->mu);
      TF_SetStatus(status, TF_OK, "");
      return;
    }
  }
  /* Reserve both arrays before linking, so a failure leaves no half edge. */
  int ok = grow_ops(&op->control_inputs, op->ncontrol_inputs, NULL) &&
           grow_ops(&input->control_outputs, input->ncontrol_outputs,
                    &input->control_outputs_cap);
  if (ok) {
    op->control_inputs[op->ncontrol_inputs++] = input;
    input->control_outputs[input->ncontrol_outputs++] = op;
    graph->mutations++; /* cached plans no longer see every dependency */
  }
  pthread_mutex_unlock(&graph->mu);
  if (ok)
    TF_SetStatus(status, TF_OK, "");
  else
    mt_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory adding a control input to %s",
                   op->name);
}

void MT_RemoveAllControlInputs(TF_Graph* graph, TF_Operation* op, TF_Status* status) {
  if (!op || op->graph != graph) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "Operation of another graph");
    return;
  }
  pthread_mutex_lock(&graph->mu);
  for (int i = 0; i < op->ncontrol_inputs; i++) {
    TF_Operation* from = op->control_inputs[i];
    int w = 0;
    for (int j = 0; j < from->ncontrol_outputs; j++)
      if (from->control_outputs[j] != op) from->control_outputs[w++] = from->control_outputs[j];
    from->ncontrol_outputs = w;
  }
  op->ncontrol_inputs = 0;
  graph->mutations++;
  pthread_mutex_unlock(&graph->mu);
  TF_SetStatus(status, TF_OK, "");
}

void MT_SetAttr(TF_Graph* graph, TF_Operation* op, const char* attr_name, const void* proto,
                size_t proto_len, TF_Status* status) {
  mt_attr_value v;
  if (!mt_attr_value_parse(proto, proto_len, &v, status)) {
    mt_status_prefix(status, "Unparseable AttrValue proto for attr '%s': ", attr_name);
    return;
  }
  pthread_mutex_lock(&graph->mu);
  int ok = mt_attrs_set(&op->attrs, &op->nattrs, attr_name, &v);
  if (ok) graph->mutations++; /* kernels read attrs when a plan is built */
  pthread_mutex_unlock(&graph->mu);
  if (!ok) {
    mt_attr_value_clear(&v);
    mt_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory setting attr '%s'", attr_name);
    return;
  }
  TF_SetStatus(status, TF_OK, "");
}

void MT_SetRequestedDevice(TF_Graph* graph, TF_Operation* op, const char* device,
                           TF_Status* status) {
  char* copy = strdup(device ? device : "");
  if (!copy) {
    mt_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory setting a device");
    return;
  }
  pthread_mutex_lock(&graph->mu);
  free(op->device);
  op->device = copy;
  pthread_mutex_unlock(&graph->mu);
  TF_SetStatus(status, TF_OK, "");
}

void MT_SetAttrTensorShared(TF_OperationDescription* desc, const char* attr_name,
                            TF_Tensor* value, TF_Status* status) {
  TF_SetStatus(status, TF_OK, "");
  if (!value) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "NULL tensor for attr '%s'", attr_name);
    return;
  }
  mt_attr_value v;
  memset(&v, 0, sizeof(v));
  v.kind = MT_ATTR_TENSOR;
  v.v.tensor = mt_tensor_share(value);
  if (!v.v.tensor || !mt_attrs_set(&desc->attrs, &desc->nattrs, attr_name, &v)) {
    mt_attr_value_clear(&v);
    mt_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory setting attr '%s'", attr_name);
  }
}

void MT_SetPyFuncCallback(MT_PyFuncCallback fn, void* arg) { mt_set_py_func_callback(fn, arg); }

void MT_AddWhileInputs(TF_Graph* graph, TF_Operation* op, const TF_Output* inputs, int ninputs,
                       TF_Status* status) {
  TF_SetStatus(status, TF_OK, "");
  if (!op || op->graph != graph || ninputs < 0 || (ninputs && !inputs)) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "MT_AddWhileInputs: invalid arguments");
    return;
  }
  mt_graph_append_inputs(graph, op, inputs, ninputs, status);
}

void MT_RefreshOutputs(TF_Graph* graph, TF_Operation* op, TF_Status* status) {
  TF_SetStatus(status, TF_OK, "");
  if (!op || op->graph != graph) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "MT_RefreshOutputs: invalid arguments");
    return;
  }
  mt_graph_refresh_outputs(graph, op, status);
}

int MT_FunctionArity(TF_Graph* lib, const char* name, int* nargs, int* nrets) {
  mt_fn_entry* e = lib && name ? mt_graph_find_function(lib, name) : NULL;
  if (!e) return 0;
  *nargs = e->fn->sig.ninputs;
  *nrets = e->fn->sig.noutputs;
  return 1;
}

void MT_FunctionToGraph(TF_Graph* lib, const char* name, TF_Graph* dst, TF_Output* args,
                        int nargs, TF_Output* rets, int nrets, TF_Status* status) {
  TF_SetStatus(status, TF_OK, "");
  if (!lib || !name || !dst || (nargs && !args) || (nrets && !rets)) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "MT_FunctionToGraph: invalid arguments");
    return;
  }
  mt_function_build_into(lib, name, dst, args, nargs, rets, nrets, status);
}
