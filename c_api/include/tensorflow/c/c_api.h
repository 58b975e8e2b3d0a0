/* minitf's C API: TensorFlow's c_api.h names, signatures and enum values.
 *
 * Conventions (as in TensorFlow):
 *  - Functions that can fail take a TF_Status* last. On failure the status
 *    holds a code and a message naming the node involved, and no other output
 *    is promised; on success every output is set.
 *  - TF_NewX / TF_DeleteX pairs: the caller owns what TF_NewX returns.
 *  - A TF_Graph may be read from several threads at once; adding operations
 *    to it is serialized by the graph's lock. A TF_Session may run from
 *    several threads at once.
 */
#ifndef TENSORFLOW_C_C_API_H_
#define TENSORFLOW_C_C_API_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/tf_attrtype.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/c/tf_tstring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version string of this library, e.g. "2.21.0-minitf". Static storage. */
TF_CAPI_EXPORT extern const char* TF_Version(void);

/* ------------------------------------------------------------------------ */
/* Session options */

typedef struct TF_SessionOptions TF_SessionOptions;

/* New default options; caller frees with TF_DeleteSessionOptions. */
TF_CAPI_EXPORT extern TF_SessionOptions* TF_NewSessionOptions(void);
/* Target of the session ("" = in-process; other targets are refused at
 * TF_NewSession with TF_UNIMPLEMENTED). The string is copied. */
TF_CAPI_EXPORT extern void TF_SetTarget(TF_SessionOptions* options, const char* target);
/* Sets the config from a serialized tensorflow.ConfigProto. Honoured:
 * intra_op_parallelism_threads, inter_op_parallelism_threads,
 * use_per_session_threads; other fields are parsed and ignored. Malformed
 * bytes: TF_INVALID_ARGUMENT, options unchanged. */
TF_CAPI_EXPORT extern void TF_SetConfig(TF_SessionOptions* options, const void* proto,
                                        size_t proto_len, TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeleteSessionOptions(TF_SessionOptions*);

/* ------------------------------------------------------------------------ */
/* Graph */

typedef struct TF_Graph TF_Graph;
typedef struct TF_OperationDescription TF_OperationDescription;
typedef struct TF_Operation TF_Operation;

/* An input or output of an operation. */
typedef struct TF_Input { TF_Operation* oper; int index; } TF_Input;
typedef struct TF_Output { TF_Operation* oper; int index; } TF_Output;

/* New empty graph; caller frees with TF_DeleteGraph. */
TF_CAPI_EXPORT extern TF_Graph* TF_NewGraph(void);
/* Frees the graph once no session refers to it (a session created on it
 * keeps it alive until TF_DeleteSession). Operations become invalid. */
TF_CAPI_EXPORT extern void TF_DeleteGraph(TF_Graph*);

/* Static shape of `output` as inferred at construction. Rank -1 = unknown;
 * unknown dims are -1. TF_GraphGetTensorShape requires num_dims equal to
 * the rank (else TF_INVALID_ARGUMENT). */
TF_CAPI_EXPORT extern int TF_GraphGetTensorNumDims(TF_Graph* graph, TF_Output output,
                                                   TF_Status* status);
TF_CAPI_EXPORT extern void TF_GraphGetTensorShape(TF_Graph* graph, TF_Output output,
                                                  int64_t* dims, int num_dims, TF_Status* status);
/* Makes input `dst` consume `new_src` instead of its current source (the back
 * edge of a while loop: NextIteration -> Merge, added after both exist).
 * dst's output shapes are not re-inferred. Errors: TF_OUT_OF_RANGE for an
 * index past the outputs of new_src or the inputs of dst, TF_INVALID_ARGUMENT
 * for a dtype that does not fit dst's input or a static shape incompatible
 * with the current source's. Not thread-safe against concurrent construction
 * of the same graph; sessions that ran the graph build new plans. */
TF_CAPI_EXPORT extern void TF_UpdateEdge(TF_Graph* graph, TF_Output new_src, TF_Input dst,
                                         TF_Status* status);
/* Refines the static shape of `output` (num_dims -1 = unknown rank). The new
 * shape is merged with the known one; an incompatible shape gives
 * TF_INVALID_ARGUMENT and leaves the graph unchanged. */
TF_CAPI_EXPORT extern void TF_GraphSetTensorShape(TF_Graph* graph, TF_Output output,
                                                  const int64_t* dims, const int num_dims,
                                                  TF_Status* status);

/* Starts describing a new operation of type `op_type` named `oper_name`.
 * Must be followed by TF_FinishOperation (which frees the description). */
TF_CAPI_EXPORT extern TF_OperationDescription* TF_NewOperation(TF_Graph* graph,
                                                               const char* op_type,
                                                               const char* oper_name);
TF_CAPI_EXPORT extern void TF_SetDevice(TF_OperationDescription* desc, const char* device);
/* Adds the next input (for a single-tensor argument). */
TF_CAPI_EXPORT extern void TF_AddInput(TF_OperationDescription* desc, TF_Output input);
/* Adds a whole list argument (number_attr / type_list_attr inputs). */
TF_CAPI_EXPORT extern void TF_AddInputList(TF_OperationDescription* desc, const TF_Output* inputs,
                                           int num_inputs);
TF_CAPI_EXPORT extern void TF_AddControlInput(TF_OperationDescription* desc, TF_Operation* input);
TF_CAPI_EXPORT extern void TF_ColocateWith(TF_OperationDescription* desc, TF_Operation* op);

/* Attribute setters. Values are copied; a later call for the same name
 * replaces the earlier value. Type mismatches with the op's registration are
 * reported by TF_FinishOperation. */
TF_CAPI_EXPORT extern void TF_SetAttrString(TF_OperationDescription* desc, const char* attr_name,
                                            const void* value, size_t length);
TF_CAPI_EXPORT extern void TF_SetAttrStringList(TF_OperationDescription* desc,
                                                const char* attr_name, const void* const* values,
                                                const size_t* lengths, int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrInt(TF_OperationDescription* desc, const char* attr_name,
                                         int64_t value);
TF_CAPI_EXPORT extern void TF_SetAttrIntList(TF_OperationDescription* desc, const char* attr_name,
                                             const int64_t* values, int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrFloat(TF_OperationDescription* desc, const char* attr_name,
                                           float value);
TF_CAPI_EXPORT extern void TF_SetAttrFloatList(TF_OperationDescription* desc,
                                               const char* attr_name, const float* values,
                                               int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrBool(TF_OperationDescription* desc, const char* attr_name,
                                          unsigned char value);
TF_CAPI_EXPORT extern void TF_SetAttrBoolList(TF_OperationDescription* desc,
                                              const char* attr_name, const unsigned char* values,
                                              int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrType(TF_OperationDescription* desc, const char* attr_name,
                                          TF_DataType value);
TF_CAPI_EXPORT extern void TF_SetAttrTypeList(TF_OperationDescription* desc,
                                              const char* attr_name, const TF_DataType* values,
                                              int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrPlaceholder(TF_OperationDescription* desc,
                                                 const char* attr_name, const char* placeholder);
TF_CAPI_EXPORT extern void TF_SetAttrFuncName(TF_OperationDescription* desc,
                                              const char* attr_name, const char* value,
                                              size_t length);
/* num_dims -1 = unknown rank; dims of -1 are unknown. */
TF_CAPI_EXPORT extern void TF_SetAttrShape(TF_OperationDescription* desc, const char* attr_name,
                                           const int64_t* dims, int num_dims);
TF_CAPI_EXPORT extern void TF_SetAttrShapeList(TF_OperationDescription* desc,
                                               const char* attr_name, const int64_t* const* dims,
                                               const int* num_dims, int num_shapes);
/* The tensor's contents are copied (the caller keeps ownership of `value`). */
TF_CAPI_EXPORT extern void TF_SetAttrTensor(TF_OperationDescription* desc, const char* attr_name,
                                            TF_Tensor* value, TF_Status* status);
TF_CAPI_EXPORT extern void TF_SetAttrTensorList(TF_OperationDescription* desc,
                                                const char* attr_name, TF_Tensor* const* values,
                                                int num_values, TF_Status* status);
/* Sets an attr from a serialized tensorflow.AttrValue. */
TF_CAPI_EXPORT extern void TF_SetAttrValueProto(TF_OperationDescription* desc,
                                                const char* attr_name, const void* proto,
                                                size_t proto_len, TF_Status* status);

/* Validates the description against the op's registration (known op type,
 * unique name, input count and dtypes, attr kinds, allowed values), fills
 * attr defaults, runs shape inference and adds the operation to the graph.
 * Always frees `desc`. Returns the new operation (owned by the graph), or
 * NULL with TF_INVALID_ARGUMENT / TF_NOT_FOUND naming the node. */
TF_CAPI_EXPORT extern TF_Operation* TF_FinishOperation(TF_OperationDescription* desc,
                                                       TF_Status* status);

/* Operation accessors. Returned strings are owned by the graph. */
TF_CAPI_EXPORT extern const char* TF_OperationName(TF_Operation* oper);
TF_CAPI_EXPORT extern const char* TF_OperationOpType(TF_Operation* oper);
TF_CAPI_EXPORT extern const char* TF_OperationDevice(TF_Operation* oper);
TF_CAPI_EXPORT extern int TF_OperationNumOutputs(TF_Operation* oper);
TF_CAPI_EXPORT extern TF_DataType TF_OperationOutputType(TF_Output oper_out);
TF_CAPI_EXPORT extern int TF_OperationOutputListLength(TF_Operation* oper, const char* arg_name,
                                                       TF_Status* status);
TF_CAPI_EXPORT extern int TF_OperationNumInputs(TF_Operation* oper);
TF_CAPI_EXPORT extern TF_DataType TF_OperationInputType(TF_Input oper_in);
TF_CAPI_EXPORT extern int TF_OperationInputListLength(TF_Operation* oper, const char* arg_name,
                                                      TF_Status* status);
/* The producer of input `oper_in`. */
TF_CAPI_EXPORT extern TF_Output TF_OperationInput(TF_Input oper_in);
/* Fills inputs[0, min(max_inputs, NumInputs)). */
TF_CAPI_EXPORT extern void TF_OperationAllInputs(TF_Operation* oper, TF_Output* inputs,
                                                 int max_inputs);
TF_CAPI_EXPORT extern int TF_OperationOutputNumConsumers(TF_Output oper_out);
/* Fills up to max_consumers consumers; returns the total number. */
TF_CAPI_EXPORT extern int TF_OperationOutputConsumers(TF_Output oper_out, TF_Input* consumers,
                                                      int max_consumers);
TF_CAPI_EXPORT extern int TF_OperationNumControlInputs(TF_Operation* oper);
TF_CAPI_EXPORT extern int TF_OperationGetControlInputs(TF_Operation* oper,
                                                       TF_Operation** control_inputs,
                                                       int max_control_inputs);
TF_CAPI_EXPORT extern int TF_OperationNumControlOutputs(TF_Operation* oper);
TF_CAPI_EXPORT extern int TF_OperationGetControlOutputs(TF_Operation* oper,
                                                        TF_Operation** control_outputs,
                                                        int max_control_outputs);

typedef struct TF_AttrMetadata {
  unsigned char is_list;
  int64_t list_size;   /* -1 if not a list */
  TF_AttrType type;
  int64_t total_size;  /* strings: bytes; shapes: dims; lists: see TensorFlow's c_api.h */
} TF_AttrMetadata;

/* Attribute getters; TF_INVALID_ARGUMENT if the attr is missing or of
 * another kind. */
TF_CAPI_EXPORT extern TF_AttrMetadata TF_OperationGetAttrMetadata(TF_Operation* oper,
                                                                  const char* attr_name,
                                                                  TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrString(TF_Operation* oper, const char* attr_name,
                                                     void* value, size_t max_length,
                                                     TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrInt(TF_Operation* oper, const char* attr_name,
                                                  int64_t* value, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrIntList(TF_Operation* oper, const char* attr_name,
                                                      int64_t* values, int max_values,
                                                      TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrFloat(TF_Operation* oper, const char* attr_name,
                                                    float* value, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrBool(TF_Operation* oper, const char* attr_name,
                                                   unsigned char* value, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrType(TF_Operation* oper, const char* attr_name,
                                                   TF_DataType* value, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrTypeList(TF_Operation* oper, const char* attr_name,
                                                       TF_DataType* values, int max_values,
                                                       TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrShape(TF_Operation* oper, const char* attr_name,
                                                    int64_t* value, int num_dims,
                                                    TF_Status* status);
/* *value is a new tensor the caller frees with TF_DeleteTensor. */
TF_CAPI_EXPORT extern void TF_OperationGetAttrTensor(TF_Operation* oper, const char* attr_name,
                                                     TF_Tensor** value, TF_Status* status);
/* Writes the attr as a serialized tensorflow.AttrValue into `output_attr_value`. */
TF_CAPI_EXPORT extern void TF_OperationGetAttrValueProto(TF_Operation* oper,
                                                         const char* attr_name,
                                                         TF_Buffer* output_attr_value,
                                                         TF_Status* status);

/* Returns the operation named `oper_name`, or NULL. */
TF_CAPI_EXPORT extern TF_Operation* TF_GraphOperationByName(TF_Graph* graph,
                                                            const char* oper_name);
/* Iterates over the graph's operations in creation order: start with
 * *pos = 0; returns NULL at the end. */
TF_CAPI_EXPORT extern TF_Operation* TF_GraphNextOperation(TF_Graph* graph, size_t* pos);

/* Serializes the graph as a tensorflow.GraphDef into `output_graph_def`
 * (which must be empty; the caller frees it with TF_DeleteBuffer). */
TF_CAPI_EXPORT extern void TF_GraphToGraphDef(TF_Graph* graph, TF_Buffer* output_graph_def,
                                              TF_Status* status);
/* The registered signature of `op_name` as a serialized tensorflow.OpDef;
 * TF_NOT_FOUND for an unknown op. */
TF_CAPI_EXPORT extern void TF_GraphGetOpDef(TF_Graph* graph, const char* op_name,
                                            TF_Buffer* output_op_def, TF_Status* status);
/* Every registered op as a serialized tensorflow.OpList. Caller frees the
 * buffer with TF_DeleteBuffer. */
TF_CAPI_EXPORT extern TF_Buffer* TF_GetAllOpList(void);
/* Serializes one operation as a tensorflow.NodeDef. */
TF_CAPI_EXPORT extern void TF_OperationToNodeDef(TF_Operation* oper, TF_Buffer* output_node_def,
                                                 TF_Status* status);

/* ------------------------------------------------------------------------ */
/* GraphDef import */

typedef struct TF_ImportGraphDefOptions TF_ImportGraphDefOptions;
typedef struct TF_ImportGraphDefResults TF_ImportGraphDefResults;

TF_CAPI_EXPORT extern TF_ImportGraphDefOptions* TF_NewImportGraphDefOptions(void);
TF_CAPI_EXPORT extern void TF_DeleteImportGraphDefOptions(TF_ImportGraphDefOptions* opts);
/* Every imported node is named "<prefix>/<name>". */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetPrefix(TF_ImportGraphDefOptions* opts,
                                                             const char* prefix);
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetDefaultDevice(
    TF_ImportGraphDefOptions* opts, const char* device);
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetUniquifyNames(
    TF_ImportGraphDefOptions* opts, unsigned char uniquify_names);
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetUniquifyPrefix(
    TF_ImportGraphDefOptions* opts, unsigned char uniquify_prefix);
/* Uses `dst` (already in the graph) wherever the GraphDef reads
 * "src_name:src_index". */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsAddInputMapping(
    TF_ImportGraphDefOptions* opts, const char* src_name, int src_index, TF_Output dst);
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsRemapControlDependency(
    TF_ImportGraphDefOptions* opts, const char* src_name, TF_Operation* dst);
/* Adds a control input on `oper` to every imported node without inputs. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsAddControlDependency(
    TF_ImportGraphDefOptions* opts, TF_Operation* oper);
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsAddReturnOutput(
    TF_ImportGraphDefOptions* opts, const char* oper_name, int index);
TF_CAPI_EXPORT extern int TF_ImportGraphDefOptionsNumReturnOutputs(
    const TF_ImportGraphDefOptions* opts);
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsAddReturnOperation(
    TF_ImportGraphDefOptions* opts, const char* oper_name);
TF_CAPI_EXPORT extern int TF_ImportGraphDefOptionsNumReturnOperations(
    const TF_ImportGraphDefOptions* opts);

/* Result accessors: the arrays are owned by `results`. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefResultsReturnOutputs(
    TF_ImportGraphDefResults* results, int* num_outputs, TF_Output** outputs);
TF_CAPI_EXPORT extern void TF_ImportGraphDefResultsReturnOperations(
    TF_ImportGraphDefResults* results, int* num_opers, TF_Operation*** opers);
TF_CAPI_EXPORT extern void TF_ImportGraphDefResultsMissingUnusedInputMappings(
    TF_ImportGraphDefResults* results, int* num_missing_unused_input_mappings,
    const char*** src_names, int** src_indexes);
TF_CAPI_EXPORT extern void TF_DeleteImportGraphDefResults(TF_ImportGraphDefResults* results);

/* Imports a serialized tensorflow.GraphDef into `graph`. All or nothing: on
 * error (malformed bytes: TF_INVALID_ARGUMENT; unknown op: TF_NOT_FOUND;
 * bad node: TF_INVALID_ARGUMENT naming it) the graph is unchanged and NULL
 * is returned. Caller frees the results with TF_DeleteImportGraphDefResults. */
TF_CAPI_EXPORT extern TF_ImportGraphDefResults* TF_GraphImportGraphDefWithResults(
    TF_Graph* graph, const TF_Buffer* graph_def, const TF_ImportGraphDefOptions* options,
    TF_Status* status);
TF_CAPI_EXPORT extern void TF_GraphImportGraphDefWithReturnOutputs(
    TF_Graph* graph, const TF_Buffer* graph_def, const TF_ImportGraphDefOptions* options,
    TF_Output* return_outputs, int num_return_outputs, TF_Status* status);
TF_CAPI_EXPORT extern void TF_GraphImportGraphDef(TF_Graph* graph, const TF_Buffer* graph_def,
                                                  const TF_ImportGraphDefOptions* options,
                                                  TF_Status* status);

/* ------------------------------------------------------------------------ */
/* Sessions */

typedef struct TF_Session TF_Session;

/* New session on `graph` (kept alive until TF_DeleteSession). Variables and
 * other resources live in the session. Caller frees with TF_DeleteSession. */
TF_CAPI_EXPORT extern TF_Session* TF_NewSession(TF_Graph* graph, const TF_SessionOptions* opts,
                                                TF_Status* status);
/* Closes the session: later runs fail with TF_FAILED_PRECONDITION; frees
 * session resources. Idempotent. */
TF_CAPI_EXPORT extern void TF_CloseSession(TF_Session*, TF_Status* status);
/* Closes (if needed) and frees the session. */
TF_CAPI_EXPORT extern void TF_DeleteSession(TF_Session*, TF_Status* status);

/* Runs the graph: feeds `inputs[i]` with `input_values[i]` (not taken over:
 * the caller still deletes them, though the runtime may share their memory
 * while the run lasts and, for fetched values that forward a feed, after),
 * computes `outputs` into new tensors `output_values[i]` (owned by the
 * caller) and runs `target_opers` for their effects. `run_options` and
 * `run_metadata` may be NULL. Thread-safe. Errors: TF_INVALID_ARGUMENT (bad
 * feed dtype/shape, unfed placeholder, kernel errors), TF_NOT_FOUND,
 * TF_FAILED_PRECONDITION (closed session, uninitialized variable); on error
 * no output tensors are returned (all set to NULL). */
TF_CAPI_EXPORT extern void TF_SessionRun(TF_Session* session, const TF_Buffer* run_options,
                                         const TF_Output* inputs, TF_Tensor* const* input_values,
                                         int ninputs, const TF_Output* outputs,
                                         TF_Tensor** output_values, int noutputs,
                                         const TF_Operation* const* target_opers, int ntargets,
                                         TF_Buffer* run_metadata, TF_Status* status);

/* The devices a session runs on: for minitf one, the host CPU
 * ("/job:localhost/replica:0/task:0/device:CPU:0", type "CPU", TensorFlow's 256 MiB memory
 * limit, a random non-zero incarnation). The caller frees the list with TF_DeleteDeviceList.
 * The accessors set TF_INVALID_ARGUMENT "index out of bounds" (returning NULL / -1 / 0) for a
 * bad index, "list is null!" for a NULL list; returned strings live as long as the list. */
typedef struct TF_DeviceList TF_DeviceList;
TF_CAPI_EXPORT extern TF_DeviceList* TF_SessionListDevices(TF_Session* session,
                                                           TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeleteDeviceList(TF_DeviceList* list);
TF_CAPI_EXPORT extern int TF_DeviceListCount(const TF_DeviceList* list);
TF_CAPI_EXPORT extern const char* TF_DeviceListName(const TF_DeviceList* list, int index,
                                                    TF_Status* status);
TF_CAPI_EXPORT extern const char* TF_DeviceListType(const TF_DeviceList* list, int index,
                                                    TF_Status* status);
TF_CAPI_EXPORT extern int64_t TF_DeviceListMemoryBytes(const TF_DeviceList* list, int index,
                                                       TF_Status* status);
TF_CAPI_EXPORT extern uint64_t TF_DeviceListIncarnation(const TF_DeviceList* list, int index,
                                                        TF_Status* status);

/* Loads the SavedModel in `export_dir` (TensorFlow's TF1 SavedModel loader): reads
 * saved_model.pb (else saved_model.pbtxt), picks the MetaGraphDef whose tag set equals `tags` (order and duplicates do
 * not matter), imports its graph into `graph` (which must be empty), creates a session on it
 * with `session_options`, restores the variables from <export_dir>/variables/variables with
 * the saver's restore op (skipped when variables/variables.index does not exist, as in TF),
 * and runs the init op (signature __saved_model_init_op, collection saved_model_main_op or
 * legacy_init_op); both runs get `run_options` (may be NULL) and each asset's path
 * <export_dir>/assets/<file> fed to its tensor. If `meta_graph_def` is not NULL it must be
 * an empty TF_Buffer and receives the chosen MetaGraphDef, serialized (freed with its
 * deallocator, e.g. by TF_DeleteBuffer). Returns the session (the caller deletes it with
 * TF_CloseSession + TF_DeleteSession), or NULL with `status` set and `graph` left empty:
 * TF_INVALID_ARGUMENT "Graph is non-empty.", TF_NOT_FOUND "Could not find SavedModel .pb or
 * .pbtxt at supplied export directory path: ..." and "Could not find meta graph def matching
 * supplied tags: { ... }. ...", TF_DATA_LOSS "Can't parse <file> as binary proto" / "...
 * as text proto", or the error of an import or of the
 * restore/init run (e.g. TF_NOT_FOUND naming a variable missing from the checkpoint).
 * Thread-safe for distinct graphs. */
TF_CAPI_EXPORT extern TF_Session* TF_LoadSessionFromSavedModel(
    const TF_SessionOptions* session_options, const TF_Buffer* run_options,
    const char* export_dir, const char* const* tags, int tags_len, TF_Graph* graph,
    TF_Buffer* meta_graph_def, TF_Status* status);

/* Partial runs: one execution of the graph spread over several calls, as
 * TensorFlow's DirectSession::PRunSetup / PRun. Setup declares every feed
 * (`inputs`), fetch (`outputs`) and target of the run and returns in
 * `*handle` a new NUL-terminated string owned by the caller, who frees it
 * with TF_DeletePRunHandle. Nothing runs at setup. Thread-safe. Errors:
 * TF_INVALID_ARGUMENT ("x:0 is both fed and fetched.", bad outputs or
 * operations, a cycle), TF_FAILED_PRECONDITION (closed session); then
 * `*handle` is NULL. */
TF_CAPI_EXPORT extern void TF_SessionPRunSetup(TF_Session* session, const TF_Output* inputs,
                                               int ninputs, const TF_Output* outputs,
                                               int noutputs,
                                               const TF_Operation* const* target_opers,
                                               int ntargets, const char** handle,
                                               TF_Status* status);

/* Continues partial run `handle`: stores `input_values` for `inputs` (each
 * declared at setup and not fed before; values borrowed as in
 * TF_SessionRun), runs every node of the run not yet run whose inputs are
 * now available — each node runs at most once per partial run, so a
 * stateful op feeding several fetches runs once —, returns `outputs` (each
 * declared and not fetched before) as new tensors owned by the caller, and
 * checks that `target_opers` (declared at setup) have run. Intermediates
 * are freed after their last use. Thread-safe, but one call per handle at a
 * time. Errors, with TensorFlow's messages: TF_INVALID_ARGUMENT "Must run
 * 'setup' before performing partial runs!" (unknown or finished handle),
 * "The feed a:0 was not specified in partial_run_setup.", "The feed a:0 has
 * already been fed.", "The fetch r:0 was not specified in
 * partial_run_setup.", "The fetch r:0 has already been fetched.", "Fetch
 * a:0 can't be computed from the feeds that have been fed so far." (names
 * the feed still missing), feed dtype/shape errors — after these the
 * partial run is unchanged; kernel errors (as TF_SessionRun) end the
 * partial run. TF_FAILED_PRECONDITION for a closed session. On error all
 * `output_values` are NULL. The run's state is freed once every declared
 * feed was fed, every fetch returned and every target ran (later calls on
 * the handle then fail with "Must run 'setup'...", as in TensorFlow), on an
 * execution error, by
 * TF_DeletePRunHandle, or when the session closes. */
TF_CAPI_EXPORT extern void TF_SessionPRun(TF_Session* session, const char* handle,
                                          const TF_Output* inputs,
                                          TF_Tensor* const* input_values, int ninputs,
                                          const TF_Output* outputs, TF_Tensor** output_values,
                                          int noutputs, const TF_Operation* const* target_opers,
                                          int ntargets, TF_Status* status);

/* Frees a handle from TF_SessionPRunSetup and ends its partial run if still
 * live (freeing the tensors it holds). Safe after the run finished or its
 * session closed; NULL is ignored. Thread-safe; a step in flight on the
 * handle completes first and the run ends after it. */
TF_CAPI_EXPORT extern void TF_DeletePRunHandle(const char* handle);

/* ---- gradients ---- */

/* Adds operations computing the partial derivatives of the sum of the `y`s
 * with respect to each `x`: dy[i] = d(y_1 + y_2 + ...)/dx_i. `dx`, when not
 * NULL, holds ny initial gradients (the derivatives of some loss with
 * respect to each y); NULL means OnesLike of each y. The new nodes are named
 * "gradients/<op>_grad/..." ("gradients_1/..." and so on when that scope
 * is taken), using the same built-in gradient of each op type as
 * tf.gradients in Python. `dy` (caller-allocated, nx items) receives the
 * outputs; an x that no y depends on gets {NULL, -1}. Status: TF_NOT_FOUND
 * ("No gradient defined for op: <type>") when an op on a path has no
 * gradient, TF_INVALID_ARGUMENT for outputs not of this graph. Nodes
 * added before an error stay in the graph. Not thread-safe against other
 * construction on the same graph. */
TF_CAPI_EXPORT extern void TF_AddGradients(TF_Graph* g, TF_Output* y, int ny, TF_Output* x,
                                           int nx, TF_Output* dx, TF_Status* status,
                                           TF_Output* dy);

/* TF_AddGradients with the name scope `prefix` instead of "gradients";
 * TF_INVALID_ARGUMENT ("prefix [p] conflicts with existing node in the
 * graph named [n]") when a node named prefix or prefix/... exists. NULL
 * prefix behaves as TF_AddGradients. */
TF_CAPI_EXPORT extern void TF_AddGradientsWithPrefix(TF_Graph* g, const char* prefix,
                                                     TF_Output* y, int ny, TF_Output* x, int nx,
                                                     TF_Output* dx, TF_Status* status,
                                                     TF_Output* dy);

/* ------------------------------------------------------------------------ */
/* Functions (TensorFlow's FunctionDef, kept in a graph's function library and
 * called by PartitionedCall, If, While and Case nodes). A TF_Function is an
 * immutable, refcounted definition: TF_GraphCopyFunction adds it to a graph
 * (the graph keeps its own reference), TF_DeleteFunction drops the caller's.
 * Graph construction functions are not thread-safe against other
 * construction on the same graph; reading a TF_Function is. */
typedef struct TF_Function TF_Function;
typedef struct TF_FunctionOptions TF_FunctionOptions;

/* A function whose body is `opers` of `fn_body` (num_opers = -1: every op
 * except those producing `inputs`, which must then have one output), with
 * arguments `inputs` and results `outputs` named `output_names` (NULL:
 * from the producing ops). Argument and result names are the producing ops'
 * names lowercased, other characters '_', made unique (x, x_0, x_1...).
 * append_hash_to_fn_name is not supported (TF_UNIMPLEMENTED if set).
 * Returns a new function the caller deletes with TF_DeleteFunction, or NULL
 * with TF_INVALID_ARGUMENT (an input given twice, a body op reading a tensor
 * that is neither an input nor made in the body). `opts` must be NULL. */
TF_CAPI_EXPORT extern TF_Function* TF_GraphToFunction(
    const TF_Graph* fn_body, const char* fn_name, unsigned char append_hash_to_fn_name,
    int num_opers, const TF_Operation* const* opers, int ninputs, const TF_Output* inputs,
    int noutputs, const TF_Output* outputs, const char* const* output_names,
    const TF_FunctionOptions* opts, const char* description, TF_Status* status);
/* TF_GraphToFunction with control outputs: ops of the body that run at
 * every call even when no result depends on them. */
TF_CAPI_EXPORT extern TF_Function* TF_GraphToFunctionWithControlOutputs(
    const TF_Graph* fn_body, const char* fn_name, unsigned char append_hash_to_fn_name,
    int num_opers, const TF_Operation* const* opers, int ninputs, const TF_Output* inputs,
    int noutputs, const TF_Output* outputs, const char* const* output_names,
    int ncontrol_outputs, const TF_Operation* const* control_outputs,
    const char* const* control_output_names, const TF_FunctionOptions* opts,
    const char* description, TF_Status* status);
/* The function's name; owned by `func`. */
TF_CAPI_EXPORT extern const char* TF_FunctionName(TF_Function* func);
/* The serialized FunctionDef into output_func_def (its data is freed with
 * the buffer). */
TF_CAPI_EXPORT extern void TF_FunctionToFunctionDef(TF_Function* func,
                                                    TF_Buffer* output_func_def,
                                                    TF_Status* status);
/* A function from a serialized FunctionDef; NULL + TF_INVALID_ARGUMENT when
 * the bytes are malformed. The caller deletes it. */
TF_CAPI_EXPORT extern TF_Function* TF_FunctionImportFunctionDef(const void* proto,
                                                                size_t proto_len,
                                                                TF_Status* status);
/* The function attr `attr_name` as a serialized AttrValue; TF_INVALID_ARGUMENT
 * when absent. */
TF_CAPI_EXPORT extern void TF_FunctionGetAttrValueProto(TF_Function* func,
                                                        const char* attr_name,
                                                        TF_Buffer* output_attr_value,
                                                        TF_Status* status);
/* Drops the caller's reference; NULL is ignored. */
TF_CAPI_EXPORT extern void TF_DeleteFunction(TF_Function* func);
/* Adds `func` (and `grad`, when not NULL, as its gradient) to g's library.
 * TF_INVALID_ARGUMENT when a different function of the same name is there. */
TF_CAPI_EXPORT extern void TF_GraphCopyFunction(TF_Graph* g, const TF_Function* func,
                                                const TF_Function* grad, TF_Status* status);
/* Number of functions in g's library. */
TF_CAPI_EXPORT extern int TF_GraphNumFunctions(TF_Graph* g);
/* Stores up to max_func of g's functions in funcs (new references the caller
 * deletes); returns how many. */
TF_CAPI_EXPORT extern int TF_GraphGetFunctions(TF_Graph* g, TF_Function** funcs, int max_func,
                                               TF_Status* status);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_C_API_H_ */
