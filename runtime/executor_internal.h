/* The executor's plan, shared by runtime/executor.c (plans, the
 * topological fast path, partial runs) and runtime/frames.c (graphs with
 * TensorFlow 1 control flow). Not a public header. */
#ifndef MINITF_RUNTIME_EXECUTOR_INTERNAL_H_
#define MINITF_RUNTIME_EXECUTOR_INTERNAL_H_

#include <string.h>

#include "runtime/graph.h"
#include "runtime/session.h"

/* TensorFlow's feed rewrite (subgraph.cc FeedInputs): feeding a Placeholder
 * also satisfies the control edges out of it, so `with
 * tf.control_dependencies([placeholder])` does not make a fed Placeholder run
 * (and fail for want of a value). Such an op is left out of the plan; nodes
 * that list it as a control input do not wait for it. */
static inline int mt_fed_placeholder(const TF_Operation* op, const TF_Output* feeds, int nfeeds) {
  if (strcmp(op->op_type, "Placeholder") != 0 && strcmp(op->op_type, "PlaceholderV2") != 0)
    return 0;
  for (int k = 0; k < nfeeds; k++)
    if (feeds[k].oper == op) return 1;
  return 0;
}

typedef struct plan_node {
  TF_Operation* op;
  int* in_slots;  /* op->ninputs entries */
  int out_base;   /* outputs use slots out_base .. out_base + noutputs - 1 */
  /* A Const whose value matches its dtype: the value (owned by the op's
   * attr), which running the node shares without calling the kernel. */
  const TF_Tensor* konst;
} plan_node;

/* Merge's value_index output for input i: a shared scalar int32 that
 * lives as long as the process (NULL for i >= 16). runtime/kernels/
 * control_flow_ops.c. */
const TF_Tensor* mt_merge_index_value(int i);

/* The value a Const node outputs when its kernel would succeed, else NULL
 * (not a Const, or an error its kernel reports). */
const TF_Tensor* mt_const_value(const TF_Operation* op);

struct mt_plan {
  int nnodes;
  plan_node* nodes;
  int nslots;
  int* uses;       /* per slot: number of reads by nodes (fetched slots +1) */
  int nfeeds;
  int* feed_slots;
  TF_DataType* feed_types;
  mt_shape* feed_shapes;
  int nfetches;
  int* fetch_slots;
  TF_Output* fetch_outputs; /* what each fetch names (refs are fetched as values) */
  int max_inputs;
  int max_outputs;
  struct mt_cf_plan* cf; /* NULL unless the plan has Switch/Merge/Enter/Exit/NextIteration */
};

/* 1 for the op types that make a plan run in frames.c. */
int mt_is_control_flow_op(const TF_Operation* op);
int mt_is_next_iteration(const TF_Operation* op);

/* Calls op's kernel on in_buf (borrowed; ref inputs that the op reads by
 * value are dereferenced for the call), filling out_buf (noutputs entries,
 * NULL = not set). movable (NULL or one flag per input, see
 * mt_kernel_ctx.movable): 2 after the call where an output took the
 * caller's handle of that input. */
void mt_exec_kernel(TF_Operation* op, TF_Tensor** in_buf, unsigned char* fwd,
                    unsigned char* movable, TF_Tensor** out_buf, mt_session_state* st,
                    const struct TF_SessionOptions* opts, const mt_run_ctl* ctl, TF_Status* s);
/* 1 (and status set) when the step's deadline has passed. */
int mt_run_ctl_expired(const mt_run_ctl* ctl, TF_Status* s);
/* 1 when s is an error a node raised: not OK, and not the step's deadline
 * (TensorFlow reports a timed-out step without a node, even when a loop
 * kernel such as While noticed it). */
int mt_node_error(const TF_Status* s);
/* Feed k's value checked against the plan's feed signature. */
int mt_check_feed(const mt_plan* p, int k, const TF_Tensor* t, TF_Status* s);
/* A fetched value as the caller sees it (refs read as values). */
TF_Tensor* mt_fetch_value(TF_Tensor* t, TF_Output o, TF_Status* s);

/* runtime/frames.c: analyses the frames of a plan with control-flow ops
 * (TF's BuildControlFlowInfo checks and wording); 0 + status on error. */
int mt_cf_plan_build(mt_plan* p, TF_Graph* g, const TF_Output* feeds, int nfeeds, TF_Status* s);
void mt_cf_plan_free(struct mt_cf_plan* cf);
/* Runs a control-flow plan: tagged (frame, iteration) execution with dead
 * tensors, as TF's executor and propagator do. */
void mt_cf_run(mt_plan* p, mt_session_state* st, TF_Tensor* const* feed_values,
               TF_Tensor** outputs, const struct TF_SessionOptions* opts, const mt_run_ctl* ctl,
               mt_step_stats* stats, TF_Status* s);

#endif
