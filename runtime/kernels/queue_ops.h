/* What the reader ops (runtime/kernels/reader_ops.c) need of the queues
 * (runtime/kernels/queue_ops.c): a reader takes its work items, file names,
 * from a string queue. Not a public header. */
#ifndef MINITF_RUNTIME_KERNELS_QUEUE_OPS_H_
#define MINITF_RUNTIME_KERNELS_QUEUE_OPS_H_

#include "runtime/kernel.h"

/* Dequeues one element of the queue the resource tensor `handle` names,
 * blocking as QueueDequeueV2 does (until an element comes, the queue closes:
 * TF_OUT_OF_RANGE, or the step is cancelled / past its deadline). The
 * element must be one scalar string: its bytes are returned in *out
 * (malloc'd, NUL-terminated, caller frees) and *len. 0 + ctx->status on
 * error. Thread-safe. */
int mt_queue_dequeue_string(mt_kernel_ctx* ctx, const TF_Tensor* handle, char** out,
                            size_t* len);

/* TensorFlow names a resource made without a shared_name "_<n>_<node>",
 * n counting such resources (queues, readers) in the process. Returns a
 * new string (NULL on OOM). */
char* mt_unique_resource_name(const char* node_name);

#endif
