/* Stack ops, TensorFlow 2.21's StackV2 family (data_flow_ops.cc,
 * stack_ops.cc): v1 while-loop gradients save forward values on a stack
 * and pop them in the backward loop. The stack is a resource its handle
 * keeps alive (TensorFlow keeps it in the step's container). The legacy
 * Stack/StackPush/StackPop/StackClose (graphs written before StackV2) take
 * a Ref(string) handle: here a ref variable of the session, one per Stack
 * node, holding the resource handle of the stack its latest run made. swap_memory
 * (move to host memory) has no meaning on a CPU-only runtime and is
 * accepted. Messages are TensorFlow's, the stack named
 * "<stack_name or node name>_<n>". */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/kernels/all_ops.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/resource.h"

static const char stack_type_name[] = "tensorflow::Stack";

typedef struct mt_stack {
  mt_variant base;
  pthread_mutex_t mu;
  char* name;
  TF_DataType dtype;
  int64_t max; /* < 0: unbounded */
  int closed;
  int64_t n, cap;
  TF_Tensor** items;
} mt_stack;

static atomic_long stack_counter;

static void stack_destroy(mt_variant* v) {
  mt_stack* st = (mt_stack*)v;
  for (int64_t i = 0; i < st->n; i++) mt_tensor_free(st->items[i]);
  free(st->items);
  free(st->name);
  pthread_mutex_destroy(&st->mu);
  free(st);
}

static mt_stack* input_stack(mt_kernel_ctx* ctx) {
  const mt_resource_handle* h = mt_resource_get(ctx->inputs[0], ctx->status);
  if (!h) return NULL;
  if (!h->obj || h->obj->type_name != stack_type_name) {
    mt_status_setf(ctx->status, TF_NOT_FOUND, "Resource %s/%s does not exist.", h->container,
                   h->name);
    return NULL;
  }
  return (mt_stack*)h->obj;
}

static int check_open(mt_kernel_ctx* ctx, const mt_stack* st) {
  if (!st->closed) return 1;
  mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Stack[%s] has already been closed.", st->name);
  return 0;
}

static void stack_v2_kernel(mt_kernel_ctx* ctx) {
  const TF_Tensor* m = ctx->inputs[0];
  if (m->ndims != 0) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "max_size must be a scalar");
    return;
  }
  mt_stack* st = mt_calloc(1, sizeof(*st), ctx->status);
  if (!st) return;
  mt_variant_init(&st->base, stack_type_name, stack_destroy);
  pthread_mutex_init(&st->mu, NULL);
  st->dtype = mt_op_attr_type(ctx->op, "elem_type", TF_FLOAT);
  st->max = *(const int32_t*)mt_tensor_data(m);
  const char* given = mt_op_attr_str(ctx->op, "stack_name", "");
  char name[512];
  snprintf(name, sizeof name, "%s_%ld", *given ? given : ctx->op->name,
           atomic_fetch_add(&stack_counter, 1));
  st->name = strdup(name);
  if (st->name)
    ctx->outputs[0] = mt_resource_tensor_obj("_stacks", st->name, &st->base, ctx->status);
  else
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM creating a stack");
  mt_variant_unref(&st->base);
}

static void stack_push_v2_kernel(mt_kernel_ctx* ctx) {
  mt_stack* st = input_stack(ctx);
  if (!st) return;
  const TF_Tensor* x = ctx->inputs[1];
  pthread_mutex_lock(&st->mu);
  int ok = check_open(ctx, st);
  if (ok && x->dtype != st->dtype) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Must have type %s but got %s",
                   mt_dtype_name(st->dtype), mt_dtype_name(x->dtype));
    ok = 0;
  }
  if (ok && st->max >= 0 && st->n >= st->max) {
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Stack[%s] overflowed its max_size (%lld)",
                   st->name, (long long)st->max);
    ok = 0;
  }
  if (ok && st->n == st->cap) {
    const int64_t cap = st->cap ? st->cap * 2 : 8;
    TF_Tensor** items = realloc(st->items, sizeof(TF_Tensor*) * (size_t)cap);
    if (items) {
      st->items = items;
      st->cap = cap;
    } else {
      mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM pushing to Stack[%s]", st->name);
      ok = 0;
    }
  }
  if (ok) st->items[st->n++] = mt_tensor_share(x);
  pthread_mutex_unlock(&st->mu);
  if (ok) mt_ctx_set_shared(ctx, 0, x);
}

static void stack_pop_v2_kernel(mt_kernel_ctx* ctx) {
  mt_stack* st = input_stack(ctx);
  if (!st) return;
  pthread_mutex_lock(&st->mu);
  if (check_open(ctx, st)) {
    if (st->n == 0)
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Stack[%s] is empty when calling Pop().",
                     st->name);
    else if (mt_op_attr_type(ctx->op, "elem_type", st->dtype) != st->dtype)
      mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Must have type %s but got %s",
                     mt_dtype_name(mt_op_attr_type(ctx->op, "elem_type", st->dtype)),
                     mt_dtype_name(st->dtype));
    else
      ctx->outputs[0] = st->items[--st->n]; /* the stack's reference moves out */
  }
  pthread_mutex_unlock(&st->mu);
}

static void stack_close_v2_kernel(mt_kernel_ctx* ctx) {
  mt_stack* st = input_stack(ctx);
  if (!st) return;
  pthread_mutex_lock(&st->mu);
  for (int64_t i = 0; i < st->n; i++) mt_tensor_free(st->items[i]);
  st->n = 0;
  st->closed = 1;
  pthread_mutex_unlock(&st->mu);
}

/* ---- the legacy ref-handle forms ---- */

/* The stack a Ref(string) handle (input 0) names. */
static mt_stack* ref_input_stack(mt_kernel_ctx* ctx) {
  mt_var* v = mt_ref_var(ctx->inputs[0]);
  mt_stack* st = NULL;
  if (v) {
    pthread_mutex_lock(&v->mu);
    const mt_resource_handle* h =
        v->value && v->value->dtype == TF_RESOURCE ? mt_resource_get(v->value, ctx->status) : NULL;
    if (h && h->obj && h->obj->type_name == stack_type_name) st = (mt_stack*)h->obj;
    pthread_mutex_unlock(&v->mu);
  }
  if (!st && mt_ok(ctx->status))
    mt_status_setf(ctx->status, TF_INVALID_ARGUMENT, "Input handle of node '%s' is not a stack",
                   ctx->op->name);
  return st;
}

/* Stack: a new unbounded stack each run, kept by the node's ref variable. */
static void stack_kernel(mt_kernel_ctx* ctx) {
  TF_Tensor* max = mt_tensor_new(TF_INT32, NULL, 0, ctx->status);
  if (!max) return;
  *(int32_t*)mt_tensor_data(max) = -1;
  TF_Tensor* in[1] = {max};
  TF_Tensor* handle[1] = {NULL};
  mt_kernel_ctx sub = *ctx;
  sub.inputs = in;
  sub.outputs = handle;
  stack_v2_kernel(&sub);
  mt_tensor_free(max);
  char* key = NULL;
  if (handle[0] && asprintf(&key, "_stacks/%s", ctx->op->name) < 0) key = NULL;
  mt_var* v = key ? mt_state_ref_var(ctx->state, key, TF_STRING, ctx->status) : NULL;
  free(key);
  if (v) {
    pthread_mutex_lock(&v->mu);
    mt_tensor_free(v->value);
    v->value = handle[0];
    handle[0] = NULL;
    pthread_mutex_unlock(&v->mu);
    ctx->outputs[0] = mt_ref_tensor_new(v, TF_STRING, ctx->status);
  } else if (mt_ok(ctx->status)) {
    mt_status_setf(ctx->status, TF_RESOURCE_EXHAUSTED, "OOM creating a stack");
  }
  mt_tensor_free(handle[0]);
}

/* The V2 kernel run on the stack a ref handle names. */
static void with_ref_stack(mt_kernel_ctx* ctx, void (*kernel)(mt_kernel_ctx*)) {
  mt_stack* st = ref_input_stack(ctx);
  if (!st) return;
  TF_Tensor* handle = mt_resource_tensor_obj("_stacks", st->name, &st->base, ctx->status);
  if (!handle) return;
  TF_Tensor* in[2] = {handle, ctx->ninputs > 1 ? ctx->inputs[1] : NULL};
  mt_kernel_ctx sub = *ctx;
  sub.inputs = in;
  kernel(&sub);
  mt_tensor_free(handle);
}

static void stack_push_kernel(mt_kernel_ctx* ctx) { with_ref_stack(ctx, stack_push_v2_kernel); }
static void stack_pop_kernel(mt_kernel_ctx* ctx) { with_ref_stack(ctx, stack_pop_v2_kernel); }
static void stack_close_kernel(mt_kernel_ctx* ctx) { with_ref_stack(ctx, stack_close_v2_kernel); }

/* A handle's static shape is [2], as TensorFlow's TwoElementOutput says for both the
 * legacy string pair and the StackV2 resource (whose runtime value is a scalar): a
 * GraphDef's _output_shapes must agree with TensorFlow's inference to import there. */
static void stack_shape(mt_shape_ctx* ctx) {
  const int64_t two = 2;
  ctx->out[0] = mt_shape_make(&two, 1);
}

static void stack_v2_shape(mt_shape_ctx* ctx) {
  if (mt_shape_with_rank(ctx, 0, 0)) stack_shape(ctx);
}

static void push_shape(mt_shape_ctx* ctx) { ctx->out[0] = ctx->in[1]; }

static const mt_op_spec stack_specs[] = {
    {.name = "StackV2", .inputs = "max_size: int32", .outputs = "handle: resource",
     .attrs = "elem_type: type; stack_name: string = ''", .shape = stack_v2_shape,
     .kernel = stack_v2_kernel, .flags = MT_OP_STATEFUL},
    {.name = "StackPushV2", .inputs = "handle: resource, elem: T", .outputs = "output: T",
     .attrs = "T: type; swap_memory: bool = false", .shape = push_shape,
     .kernel = stack_push_v2_kernel, .flags = MT_OP_STATEFUL},
    {.name = "StackPopV2", .inputs = "handle: resource", .outputs = "elem: elem_type",
     .attrs = "elem_type: type", .kernel = stack_pop_v2_kernel, .flags = MT_OP_STATEFUL},
    {.name = "StackCloseV2", .inputs = "handle: resource", .kernel = stack_close_v2_kernel,
     .flags = MT_OP_STATEFUL},
    {.name = "Stack", .outputs = "handle: Ref(string)",
     .attrs = "elem_type: type; stack_name: string = ''", .shape = stack_shape,
     .kernel = stack_kernel, .flags = MT_OP_STATEFUL},
    {.name = "StackPush", .inputs = "handle: Ref(string), elem: T", .outputs = "output: T",
     .attrs = "T: type; swap_memory: bool = false", .shape = push_shape,
     .kernel = stack_push_kernel},
    {.name = "StackPop", .inputs = "handle: Ref(string)", .outputs = "elem: elem_type",
     .attrs = "elem_type: type", .kernel = stack_pop_kernel},
    {.name = "StackClose", .inputs = "handle: Ref(string)", .kernel = stack_close_kernel},
};

void mt_register_stack_ops(void) {
  mt_register_ops(stack_specs, (int)(sizeof stack_specs / sizeof stack_specs[0]));
}
