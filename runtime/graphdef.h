/* Codecs between TensorFlow's protos and the runtime's structures, with
 * TensorFlow's field numbers (tensorflow/core/framework/ protos):
 * TensorShapeProto, TensorProto, AttrValue, NodeDef, GraphDef (+VersionDef),
 * OpDef/OpList, and the ConfigProto subset the session honours.
 *
 * Decoding goes through protoc-c's codec generated from the package's .proto
 * files (runtime/pb_unpack.h: nesting-checked unpack into an arena); the
 * *_from_pb functions convert the unpacked messages, the *_parse ones take
 * bytes. Malformed input gives TF_INVALID_ARGUMENT (never a crash, never an
 * allocation the input does not justify; see the tensor fill limit below).
 * Encoders append to an mt_pb_writer; allocation failure shows up as the
 * writer's `failed` flag. Everything here is reentrant: no globals.
 */
#ifndef MINITF_RUNTIME_GRAPHDEF_H_
#define MINITF_RUNTIME_GRAPHDEF_H_

#include "runtime/attr.h"
#include "runtime/graph.h"
#include "runtime/op_registry.h"
#include "runtime/proto.h"
#include "runtime/session.h"

/* protoc-c's message types (the minitf/core/framework pb-c headers) */
struct Tensorflow__TensorShapeProto;
struct Tensorflow__TensorProto;
struct Tensorflow__AttrValue;
struct Tensorflow__NodeDef;

/* VersionDef we write: producer is what TensorFlow 2.21 writes
 * (TF_GRAPH_DEF_VERSION, read from the fixtures), min_consumer is
 * TensorFlow's TF_GRAPH_DEF_VERSION_MIN_CONSUMER (0, so left out of the
 * bytes as proto3 does). We accept GraphDefs whose min_consumer is at most
 * our producer version. */
#define MT_GRAPH_DEF_PRODUCER 2474
#define MT_GRAPH_DEF_MIN_CONSUMER 0

/* A TensorProto given by one value repeated over a large shape (TF's
 * "repeat the last value" rule) could ask for any size from a few bytes of
 * input; expansions beyond this many bytes are refused with
 * TF_INVALID_ARGUMENT. tensor_content must match the shape exactly, so it
 * is never bigger than the input. */
#define MT_PB_MAX_FILL_BYTES ((size_t)256 << 20)

/* TensorShapeProto. Unknown rank -> rank -1; more than MT_MAX_DIMS dims or a
 * dim below -1 -> TF_INVALID_ARGUMENT. */
int mt_shape_from_pb(const struct Tensorflow__TensorShapeProto* p, mt_shape* out, TF_Status* s);
int mt_shape_parse(const void* data, size_t len, mt_shape* out, TF_Status* s);
void mt_shape_to_proto(mt_pb_writer* w, const mt_shape* sh);

/* TensorProto -> new tensor (caller frees with TF_DeleteTensor). Reads
 * tensor_content or the typed repeated fields (float_val, double_val,
 * int_val, int64_val, bool_val, string_val, half_val, scomplex_val,
 * dcomplex_val, uint32_val, uint64_val, float8_val); a typed field shorter
 * than the element count is padded with its last value (zeros when empty).
 * NULL + TF_INVALID_ARGUMENT on malformed input or an unsupported dtype. */
TF_Tensor* mt_tensor_from_pb(const struct Tensorflow__TensorProto* p, TF_Status* s);
TF_Tensor* mt_tensor_parse(const void* data, size_t len, TF_Status* s);
/* Writes dtype, shape and the values as TensorFlow's make_tensor_proto
 * does for constants: tensor_content for more than one element of a plain
 * numeric type, else the packed typed field (float_val, int_val, bool_val,
 * scomplex_val, ...); string_val for TF_STRING. */
void mt_tensor_to_proto(mt_pb_writer* w, const TF_Tensor* t);
/* Where the values go: MT_PROTO_AUTO as above; MT_PROTO_TYPED always the
 * typed repeated field (every element written, as TensorFlow's
 * Tensor::AsProtoField); MT_PROTO_CONTENT always tensor_content (as
 * Tensor::AsProtoTensorContent; TF_STRING still uses string_val, which
 * TensorFlow also does). */
typedef enum { MT_PROTO_AUTO = 0, MT_PROTO_TYPED = 1, MT_PROTO_CONTENT = 2 } mt_proto_layout;
void mt_tensor_to_proto_as(mt_pb_writer* w, const TF_Tensor* t, mt_proto_layout layout);

/* AttrValue -> *out (initialized by this call; clear with
 * mt_attr_value_clear). An AttrValue with no value set gives kind
 * MT_ATTR_NONE, is_list 0; an empty list gives kind MT_ATTR_NONE, is_list 1.
 * For func values only the function name is kept (attrs of the
 * NameAttrList are dropped). */
int mt_attr_value_from_pb(const struct Tensorflow__AttrValue* p, mt_attr_value* out,
                          TF_Status* s);
int mt_attr_value_parse(const void* data, size_t len, mt_attr_value* out, TF_Status* s);
void mt_attr_value_to_proto(mt_pb_writer* w, const mt_attr_value* v);

/* A NodeDef as read from a GraphDef. All strings are owned. */
typedef struct mt_node_def {
  char* name;
  char* op;
  char* device; /* "" when absent */
  int ninputs;
  char** inputs; /* "x", "x:1", "^x" as written */
  int nattrs;
  mt_attr* attrs;
} mt_node_def;

struct mt_function;

typedef struct mt_graph_def {
  int nnodes;
  mt_node_def* nodes;
  /* library: FunctionDefs (each holds one reference) and GradientDefs as
   * (function_name, gradient_func) pairs */
  int nfunctions;
  struct mt_function** functions;
  int ngradients;
  char** gradients; /* 2 * ngradients strings */
  int has_versions;
  int producer, min_consumer;
} mt_graph_def;

/* One map<string, AttrValue> entry added to attrs (value NULL: no value set). */
int mt_attr_entry_from_pb(const char* key, const struct Tensorflow__AttrValue* value,
                          mt_attr** attrs, int* nattrs, TF_Status* s);
/* Writes op's attrs sorted by name as map entries of field `num`. */
void mt_attrs_to_proto(mt_pb_writer* w, uint32_t num, const mt_attr* attrs, int nattrs);
/* Number of tensors input arg `a` of `def` takes for a node with these
 * attrs (list args read their length attr, falling back to the op's
 * default); -1 when it cannot be told. */
int mt_arg_length(const mt_op_def* def, const mt_arg_def* a, const mt_attr* attrs, int nattrs);

/* On error *out is left empty. */
int mt_node_def_from_pb(const struct Tensorflow__NodeDef* p, mt_node_def* out, TF_Status* s);
void mt_node_def_clear(mt_node_def* n);

/* Parses a serialized GraphDef (nodes, library and versions; other fields
 * are ignored). Each library function keeps its FunctionDef's bytes as they
 * sit in `data`. On error *out is left empty. */
int mt_graph_def_parse(const void* data, size_t len, mt_graph_def* out, TF_Status* s);
void mt_graph_def_clear(mt_graph_def* g);

/* Writes `op` as a NodeDef: name, op, data inputs ("x", "x:1") then control
 * inputs ("^x"), requested device (if any), attrs sorted by name. */
void mt_operation_to_node_def(mt_pb_writer* w, const TF_Operation* op);
/* GraphDef body: every op in creation order (control inputs sorted by name,
 * as TensorFlow's Graph::ToGraphDef sorts them), the function library (when
 * not empty), then versions. The caller
 * holds whatever lock keeps the graph from growing meanwhile. */
void mt_graph_to_graph_def(mt_pb_writer* w, TF_Graph* g);

/* OpDef / OpList from the registry. */
void mt_op_def_to_proto(mt_pb_writer* w, const mt_op_def* def);
void mt_op_list_to_proto(mt_pb_writer* w, const mt_registry* reg);

/* ConfigProto: reads intra_op_parallelism_threads (2),
 * inter_op_parallelism_threads (5) and use_per_session_threads (9) into
 * *opts; other fields are skipped. On error *opts is unchanged. */
int mt_config_from_proto(const void* data, size_t len, struct TF_SessionOptions* opts,
                         TF_Status* s);

#endif
