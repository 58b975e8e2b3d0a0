/* Session state: resources (resource variables) that live in a session,
 * survive across runs and are freed when it closes. Thread-safe. */
#ifndef MINITF_RUNTIME_RESOURCE_H_
#define MINITF_RUNTIME_RESOURCE_H_

#include <pthread.h>
#include <stdint.h>
#include "runtime/attr.h"
#include "runtime/status.h"
#include "runtime/tensor.h"

/* What a TF_RESOURCE scalar tensor's buffer holds: which resource it names.
 * Strings are owned by the handle (freed by the buffer's deallocator). */
typedef struct mt_resource_handle {
  char* container;   /* "localhost" when the attr is empty, as TensorFlow */
  char* name;        /* shared_name (or the node name when empty) */
  TF_DataType dtype; /* dtype of the variable */
  mt_shape shape;
  /* A resource the handle itself keeps alive (a TensorArray, a Stack), or
   * NULL for variables, which live in the session. TensorFlow keeps such
   * per-step resources in the step's container; here each handle tensor
   * holds a reference, so the resource goes when the last handle does
   * (at the end of the step that made it, unless a handle is fetched). */
  mt_variant* obj;
} mt_resource_handle;

typedef struct mt_var {
  char* key; /* "container/name" */
  TF_DataType dtype;
  TF_Tensor* value; /* NULL until first assignment */
  pthread_mutex_t mu;
} mt_var;

/* Per-node generator state of a stateful random kernel: TensorFlow keeps a
 * GuardedPhiloxRandom in each op kernel, i.e. one per (session, node), that
 * advances across runs. The random family owns the meaning of `words`;
 * hold `mu` while reading or advancing them. */
typedef struct mt_rng_state {
  const void* op; /* the TF_Operation it belongs to (lookup key) */
  pthread_mutex_t mu;
  int initialized; /* 0 until the kernel first seeds `words` */
  uint32_t words[8];
} mt_rng_state;

typedef struct mt_session_state {
  pthread_mutex_t mu;
  int nvars, cap;
  mt_var** vars;
  int nrngs, rng_cap;
  mt_rng_state** rngs;
  int nobjs, obj_cap;
  char** obj_keys;
  mt_variant** objs; /* one reference each */
} mt_session_state;

void mt_state_init(mt_session_state* st);
/* Frees every resource. */
void mt_state_clear(mt_session_state* st);

/* The generator state of node `op` in this session, created zeroed
 * (initialized = 0) on first use; it lives until mt_state_clear. Thread-safe.
 * NULL + TF_RESOURCE_EXHAUSTED when out of memory. */
mt_rng_state* mt_state_rng(mt_session_state* st, const void* op, TF_Status* s);

/* A session-lived object other than a variable (a queue, a reader), keyed
 * `key` ("container/shared_name", or a per-node key for unshared ones).
 * Returns a new reference on the object under `key`, made by make(arg, s)
 * (which returns one reference, or NULL + status) when absent; the table
 * keeps its own reference until mt_state_clear. *created is set to 1 when
 * this call made it. An object of another type_name under the key is
 * TF_INVALID_ARGUMENT. Thread-safe (make runs under the state's lock, so
 * it must not block). */
mt_variant* mt_state_object(mt_session_state* st, const char* key, const char* type_name,
                            mt_variant* (*make)(void* arg, TF_Status* s), void* arg,
                            int* created, TF_Status* s);

/* New scalar TF_RESOURCE tensor naming (container, name). */
TF_Tensor* mt_resource_tensor_new(const char* container, const char* name, TF_DataType dtype,
                                  const mt_shape* shape, TF_Status* s);
/* New scalar TF_RESOURCE tensor naming (container, name) that holds a new
 * reference on `obj` (see mt_resource_handle.obj). */
TF_Tensor* mt_resource_tensor_obj(const char* container, const char* name, mt_variant* obj,
                                  TF_Status* s);
/* The handle in a TF_RESOURCE tensor, or NULL + TF_INVALID_ARGUMENT. */
const mt_resource_handle* mt_resource_get(const TF_Tensor* t, TF_Status* s);

/* Returns a new handle sharing the variable's current value, or NULL with
 * TF_FAILED_PRECONDITION naming the variable when it was never assigned. */
TF_Tensor* mt_var_read(mt_session_state* st, const mt_resource_handle* h, TF_Status* s);
/* Makes `value` the variable's value (its buffer is taken when `value` is
 * its only reference, copied otherwise); creates the
 * variable on first use. TF_INVALID_ARGUMENT when the dtype differs from
 * the handle's, or the shape from the value the variable already holds. */
void mt_var_assign(mt_session_state* st, const mt_resource_handle* h, const TF_Tensor* value,
                   TF_Status* s);
/* 1 if the variable exists and holds a value. */
int mt_var_initialized(mt_session_state* st, const mt_resource_handle* h);

/* 1 when a variable (resource or ref) of `container` was ever created in
 * this session (TensorFlow's "container exists"). Thread-safe. */
int mt_state_container_exists(mt_session_state* st, const char* container);
/* TensorFlow's NotFound text for a missing variable into buf: "Container
 * localhost does not exist. (Could not find resource: localhost/v)" or
 * "Resource localhost/v/N10tensorflow3VarE does not exist." */
void mt_var_not_found(mt_session_state* st, const mt_resource_handle* h, char* buf, size_t cap);

/* The variable a resource handle names, created (uninitialized) when
 * `create`; NULL when absent (or out of memory). It lives until
 * mt_state_clear. Thread-safe; hold v->mu to read or change v->value. */
mt_var* mt_var_lookup(mt_session_state* st, const mt_resource_handle* h, int create);

/* Ref variables (TensorFlow's legacy VariableV2 / TemporaryVariable). A
 * ref-typed value (dtype = base + 100, TensorFlow's DT_FLOAT_REF
 * convention) travelling through the executor is a scalar tensor whose
 * buffer names an mt_var of the session; it never leaves a run (fetches and
 * non-ref consumers see the variable's value). */
#define MT_REF_OFFSET 100
static inline int mt_dtype_is_ref(TF_DataType dt) { return (int)dt > MT_REF_OFFSET; }
static inline TF_DataType mt_dtype_base(TF_DataType dt) {
  return mt_dtype_is_ref(dt) ? (TF_DataType)((int)dt - MT_REF_OFFSET) : dt;
}

/* The ref variable keyed `key` ("container/shared_name" for VariableV2,
 * "tmp/<var_name>" for TemporaryVariable), created uninitialized of `dtype`
 * when absent; NULL + TF_RESOURCE_EXHAUSTED on OOM. Lives until
 * mt_state_clear. Thread-safe. */
mt_var* mt_state_ref_var(mt_session_state* st, const char* key, TF_DataType dtype, TF_Status* s);
/* A new ref-typed tensor (dtype + MT_REF_OFFSET) naming `v`; NULL + status. */
TF_Tensor* mt_ref_tensor_new(mt_var* v, TF_DataType dtype, TF_Status* s);
/* The variable a ref-typed tensor names, or NULL when `t` is not one. */
mt_var* mt_ref_var(const TF_Tensor* t);
/* A new handle sharing the ref variable's current value (no copy), or NULL
 * + TF_FAILED_PRECONDITION "Attempting to use uninitialized value <name>"
 * (TensorFlow's words; `name` is the input that carried the ref). */
TF_Tensor* mt_ref_deref(const TF_Tensor* ref, const char* name, TF_Status* s);

/* Makes v->value writable in place: copies it when its buffer is shared
 * (copy-on-write, so values handed out earlier stay as they were). Caller
 * holds v->mu and has checked v->value != NULL. Returns 0 + status on OOM. */
int mt_var_make_unique(mt_var* v, TF_Status* s);

#endif
