/* The op registry: every op is declared once, here in C, by a compact
 * signature in TensorFlow's REGISTER_OP notation, with its shape function
 * and CPU kernel. The table is parsed once (mt_registry_get) and read by
 * graph construction, the executor, and (as OpDef protos) the Python side.
 *
 * Example:
 *   { .name = "MatMul",
 *     .inputs = "a: T, b: T",
 *     .outputs = "product: T",
 *     .attrs = "transpose_a: bool = false; transpose_b: bool = false;"
 *              " T: {bfloat16, half, float, double, int32, int64}",
 *     .shape = matmul_shape, .kernel = matmul_kernel },
 *
 * inputs/outputs: comma-separated "name: T" (type attr), "name: float"
 *   (fixed type), "name: N * T" (number_attr list), "name: Tlist"
 *   (type_list attr, when the attr is declared "list(type)"), "name: Ref(T)".
 * attrs: semicolon-separated "name: kind [= default]" with kinds string, int,
 *   float, bool, type, shape, tensor, func, list(<kind>), or an allowed set
 *   "{float, double}" / "{'NHWC', 'NCHW'}" (implying type / string);
 *   "int >= 1" sets a minimum. Defaults use TensorFlow's text: false, 0,
 *   1e-3, 'NHWC', DT_FLOAT, [1, 1], [] and for shapes "unknown" or "[2, -1]".
 *   Type-set shorthands: numbertype, realnumbertype, all.
 */
#ifndef MINITF_RUNTIME_OP_REGISTRY_H_
#define MINITF_RUNTIME_OP_REGISTRY_H_

#include "runtime/attr.h"
#include "runtime/status.h"
#include "tensorflow/c/c_api.h"

struct mt_shape_ctx;
struct mt_kernel_ctx;
typedef void (*mt_shape_fn)(struct mt_shape_ctx* ctx);
typedef void (*mt_kernel_fn)(struct mt_kernel_ctx* ctx);

enum {
  MT_OP_STATEFUL = 1,
  MT_OP_COMMUTATIVE = 2,
  MT_OP_AGGREGATE = 4,
  MT_OP_ALLOWS_UNINITIALIZED_INPUT = 8,
  MT_OP_DISTRIBUTED_COMMUNICATION = 16, /* OpDef.is_distributed_communication */
};

typedef struct mt_op_spec {
  const char* name;
  const char* inputs;  /* NULL or "" = none */
  const char* outputs; /* NULL or "" = none */
  const char* attrs;   /* NULL or "" = none */
  mt_shape_fn shape;   /* NULL = outputs of unknown shape */
  mt_kernel_fn kernel; /* NULL = no CPU kernel (fails at run time) */
  unsigned flags;
} mt_op_spec;

typedef struct mt_arg_def {
  char* name;
  TF_DataType type;     /* fixed type, or 0 */
  char* type_attr;      /* or NULL */
  char* number_attr;    /* or NULL */
  char* type_list_attr; /* or NULL */
  int is_ref;
} mt_arg_def;

typedef struct mt_attr_def {
  char* name;
  char* type; /* "string", "int", "list(type)", ... */
  int has_default;
  mt_attr_value default_value;
  int has_allowed;
  mt_attr_value allowed_values; /* a list of types or strings */
  int has_minimum;
  int64_t minimum;
} mt_attr_def;

typedef struct mt_op_def {
  char* name;
  int ninputs, noutputs, nattrs;
  mt_arg_def* inputs;
  mt_arg_def* outputs;
  mt_attr_def* attrs;
  unsigned flags;
  mt_shape_fn shape;
  mt_kernel_fn kernel;
} mt_op_def;

typedef struct mt_registry {
  int nops;
  mt_op_def* ops; /* sorted by name */
} mt_registry;

/* The process-wide registry, built on first use (thread-safe). A spec that
 * does not parse is a programming error: it is reported on stderr and the
 * op left out, so the tests catch it. */
const mt_registry* mt_registry_get(void);
/* NULL if `name` is not registered. */
const mt_op_def* mt_op_lookup(const char* name);
const mt_attr_def* mt_op_attr_def(const mt_op_def* def, const char* name);

/* Called by mt_registry_get to collect specs; each op family file defines
 * one `void mt_register_<family>_ops(void)` that calls this once. */
void mt_register_ops(const mt_op_spec* specs, int n);

/* Parses one spec into *out; returns 0 and fills status on error. Exposed
 * for tests. */
int mt_op_def_parse(const mt_op_spec* spec, mt_op_def* out, TF_Status* s);
void mt_op_def_free(mt_op_def* def);

#endif
