/* The C API's functions: TF_Function wraps a runtime mt_function. */
#include <stdlib.h>
#include <string.h>

#include "runtime/function.h"
#include "runtime/status.h"
#include "tensorflow/c/c_api.h"

struct TF_Function {
  mt_function* fn;
};

static TF_Function* wrap(mt_function* fn, TF_Status* s) {
  if (!fn) return NULL;
  TF_Function* f = malloc(sizeof *f);
  if (!f) {
    mt_function_unref(fn);
    mt_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  f->fn = fn;
  return f;
}

TF_Function* TF_GraphToFunctionWithControlOutputs(
    const TF_Graph* fn_body, const char* fn_name, unsigned char append_hash_to_fn_name,
    int num_opers, const TF_Operation* const* opers, int ninputs, const TF_Output* inputs,
    int noutputs, const TF_Output* outputs, const char* const* output_names,
    int ncontrol_outputs, const TF_Operation* const* control_outputs,
    const char* const* control_output_names, const TF_FunctionOptions* opts,
    const char* description, TF_Status* status) {
  TF_SetStatus(status, TF_OK, "");
  if (append_hash_to_fn_name) {
    mt_status_setf(status, TF_UNIMPLEMENTED, "append_hash_to_fn_name is not supported");
    return NULL;
  }
  if (!fn_name || !fn_name[0]) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "a function needs a name");
    return NULL;
  }
  TF_Graph* g = (TF_Graph*)fn_body;
  pthread_mutex_lock(&g->mu);
  mt_function* fn = mt_function_from_graph(g, fn_name, num_opers, opers, ninputs, inputs,
                                           noutputs, outputs, output_names, ncontrol_outputs,
                                           control_outputs, control_output_names, description,
                                           status);
  pthread_mutex_unlock(&g->mu);
  return wrap(fn, status);
}

TF_Function* TF_GraphToFunction(const TF_Graph* fn_body, const char* fn_name,
                                unsigned char append_hash_to_fn_name, int num_opers,
                                const TF_Operation* const* opers, int ninputs,
                                const TF_Output* inputs, int noutputs, const TF_Output* outputs,
                                const char* const* output_names, const TF_FunctionOptions* opts,
                                const char* description, TF_Status* status) {
  return TF_GraphToFunctionWithControlOutputs(fn_body, fn_name, append_hash_to_fn_name, num_opers,
                                              opers, ninputs, inputs, noutputs, outputs,
                                              output_names, 0, NULL, NULL, opts, description,
                                              status);
}

const char* TF_FunctionName(TF_Function* func) { return func->fn->name; }

static void free_data(void* data, size_t len) { free(data); }

void TF_FunctionToFunctionDef(TF_Function* func, TF_Buffer* out, TF_Status* status) {
  TF_SetStatus(status, TF_OK, "");
  void* copy = malloc(func->fn->fdef_len ? func->fn->fdef_len : 1);
  if (!copy) {
    mt_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  memcpy(copy, func->fn->fdef, func->fn->fdef_len);
  if (out->data_deallocator) out->data_deallocator((void*)out->data, out->length);
  out->data = copy;
  out->length = func->fn->fdef_len;
  out->data_deallocator = free_data;
}

TF_Function* TF_FunctionImportFunctionDef(const void* proto, size_t proto_len,
                                          TF_Status* status) {
  TF_SetStatus(status, TF_OK, "");
  mt_function* fn = mt_function_parse(proto, proto_len, status);
  if (!fn) mt_status_prefix(status, "Invalid FunctionDef: ");
  return wrap(fn, status);
}

void TF_FunctionGetAttrValueProto(TF_Function* func, const char* attr_name,
                                  TF_Buffer* out, TF_Status* status) {
  TF_SetStatus(status, TF_OK, "");
  const mt_attr* a = mt_attrs_find(func->fn->attrs, func->fn->nattrs, attr_name);
  if (!a) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "Function '%s' has no attr named '%s'.",
                   func->fn->name, attr_name);
    return;
  }
  mt_pb_writer w = mt_pb_writer_make();
  mt_attr_value_to_proto(&w, &a->value);
  if (w.failed) {
    mt_pb_writer_free(&w);
    mt_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  size_t len = 0;
  void* data = mt_pb_writer_take(&w, &len);
  if (out->data_deallocator) out->data_deallocator((void*)out->data, out->length);
  out->data = data;
  out->length = len;
  out->data_deallocator = free_data;
}

void TF_DeleteFunction(TF_Function* func) {
  if (!func) return;
  mt_function_unref(func->fn);
  free(func);
}

void TF_GraphCopyFunction(TF_Graph* g, const TF_Function* func, const TF_Function* grad,
                          TF_Status* status) {
  TF_SetStatus(status, TF_OK, "");
  if (!func) {
    mt_status_setf(status, TF_INVALID_ARGUMENT, "'func' argument to TF_GraphCopyFunction cannot "
                   "be null");
    return;
  }
  mt_graph_add_function(g, func->fn, grad ? grad->fn : NULL, status);
}

int TF_GraphNumFunctions(TF_Graph* g) { return mt_graph_num_functions(g); }

int TF_GraphGetFunctions(TF_Graph* g, TF_Function** funcs, int max_func, TF_Status* status) {
  TF_SetStatus(status, TF_OK, "");
  mt_function** fns = calloc((size_t)(max_func > 0 ? max_func : 1), sizeof(mt_function*));
  if (!fns) {
    mt_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  int n = mt_graph_get_functions(g, fns, max_func), k = 0;
  for (; k < n; k++) {
    funcs[k] = wrap(fns[k], status);
    if (!funcs[k]) break;
  }
  for (int j = k + 1; j < n; j++) mt_function_unref(fns[j]);
  free(fns);
  return k;
}
