"""tf.compat.v1.train.GradientDescentOptimizer (TensorFlow's training/gradient_descent.py)."""
from minitf.framework import ops
from minitf.framework.indexed_slices import IndexedSlices
from minitf.framework.op_def_library import apply_op
from minitf.ops import math_ops
from minitf.training import optimizer


class GradientDescentOptimizer(optimizer.Optimizer):
    """var -= learning_rate * gradient.

    Dense: ApplyGradientDescent / ResourceApplyGradientDescent. IndexedSlices: the rows are
    scattered without summing duplicates first (ScatterSub of lr * values for ref variables,
    ResourceScatterAdd of -values * lr for resource ones), as TensorFlow.
    Args: learning_rate (float, Tensor or callable), use_locking, name."""

    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._learning_rate_tensor = None

    def _apply_dense(self, grad, var):
        return apply_op("ApplyGradientDescent", var=var,
                        alpha=math_ops.cast(self._learning_rate_tensor, var.dtype.base_dtype),
                        delta=grad, use_locking=self._use_locking)

    def _resource_apply_dense(self, grad, handle):
        return apply_op("ResourceApplyGradientDescent", var=handle.handle,
                        alpha=math_ops.cast(self._learning_rate_tensor, grad.dtype.base_dtype),
                        delta=grad, use_locking=self._use_locking)

    def _resource_apply_sparse_duplicate_indices(self, grad, handle, indices):
        neg = -grad
        return apply_op("ResourceScatterAdd", resource=handle.handle, indices=indices,
                        updates=neg * math_ops.cast(self._learning_rate_tensor,
                                                    grad.dtype.base_dtype))

    def _apply_sparse_duplicate_indices(self, grad, var):
        delta = IndexedSlices(
            grad.values * math_ops.cast(self._learning_rate_tensor, var.dtype.base_dtype),
            grad.indices, grad.dense_shape)
        return var.scatter_sub(delta, use_locking=self._use_locking)

    def _prepare(self):
        learning_rate = self._call_if_callable(self._learning_rate)
        self._learning_rate_tensor = ops.convert_to_tensor(learning_rate, name="learning_rate")
