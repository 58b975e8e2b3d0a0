/* Registration entry points of the op families in runtime/kernels/. The
 * registry calls mt_register_all_ops() once, on first use (it is not
 * thread-safe by itself; mt_registry_get serializes it). */
#ifndef MINITF_RUNTIME_KERNELS_ALL_OPS_H_
#define MINITF_RUNTIME_KERNELS_ALL_OPS_H_

void mt_register_array_ops(void);        /* Const, Placeholder, Identity, Reshape, ... */
void mt_register_math_ops(void);         /* elementwise arithmetic, Cast, MatMul */
void mt_register_reduction_ops(void);    /* Sum, Mean, ArgMax */
void mt_register_nn_ops(void);           /* BiasAdd, Relu, Softmax */
void mt_register_state_ops(void);        /* resource variables */
void mt_register_control_flow_ops(void); /* NoOp */

/* Calls every mt_register_*_ops above. */
void mt_register_all_ops(void);

#endif
