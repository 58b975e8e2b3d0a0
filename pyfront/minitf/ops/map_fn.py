"""tf.map_fn (TensorFlow 2.21's map_fn.py, graph mode, dense tensors): the
elements are unstacked into TensorArrays, a while_loop calls `fn` on row i
and writes its result into output TensorArrays, which are stacked at the
end. Under control flow v2 (the default) that is one StatelessWhile over
TensorList flows, with TensorFlow's node names (map/TensorArrayV2,
map/TensorArrayUnstack/TensorListFromTensor, map/while,
map/TensorArrayV2Stack/TensorListStack)."""
from minitf.framework import dtypes, ops, tensor_shape
from minitf.ops import array_ops, tensor_array_ops
from minitf.ops import variable_scope as vs
from minitf.util import nest


class _CachingDevice:
    """Sets the variable scope's caching device for the duration of a loop, as
    TensorFlow's map_fn/scan/fold do (so variables made in `fn` are read once,
    outside the loop)."""

    def __enter__(self):
        self._scope = vs.get_variable_scope()
        self._was_none = self._scope.caching_device is None
        if self._was_none:
            self._scope.set_caching_device(lambda op: op.device)
        return self

    def __exit__(self, *exc):
        if self._was_none:
            self._scope.set_caching_device(None)
        return False


def leading_dim(elems_flat):
    """(n, n_static): the number of rows, a Python int when elems_flat[0]'s first
    dimension is known, else a `shape(x)[0]` tensor. ValueError when the elements'
    known first dimensions differ."""
    n_static = tensor_shape.Dimension(tensor_shape.dimension_value(
        elems_flat[0].shape.with_rank_at_least(1)[0]))
    for t in elems_flat[1:]:
        n_static.assert_is_compatible_with(tensor_shape.Dimension(
            tensor_shape.dimension_value(t.shape.with_rank_at_least(1)[0])))
    return (n_static.value or array_ops.shape(elems_flat[0])[0]), n_static


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
           infer_shape=True, name=None, fn_output_signature=None):
    """Applies `fn` to each row of `elems` (unstacked along dim 0) and stacks the
    results (tf.compat.v1.map_fn / tf.map_fn).

    Args:
      fn: callable taking one element (structured like `elems`) and returning a
        structure like `fn_output_signature` (or like `elems` when it is None).
      elems: a tensor or a nested structure of tensors, all of rank >= 1 with the
        same first dimension n.
      dtype / fn_output_signature: a DType or a nested structure of DTypes for
        fn's outputs when they differ from elems' (dtype is the deprecated name).
      parallel_iterations: while_loop's (default 10); back_prop, swap_memory:
        while_loop's; infer_shape: the output TensorArrays require one element shape.
      name: scope name (default "map").
    Returns: fn's results stacked, shape [n] + result shape, structured like
      fn_output_signature (or elems).
    Raises: TypeError when fn is not callable or fn's result does not match the
      signature's structure; ValueError when elems holds no tensor or scalar tensors.
    """
    if fn_output_signature is None:
        fn_output_signature = dtype
    if not callable(fn):
        # fn.__name__ as TensorFlow (a callable-less value without one raises AttributeError)
        raise TypeError("The provided function %s is not callable.fn must be callable."
                        % fn.__name__)
    if not parallel_iterations:
        parallel_iterations = 10
    elems_flat = nest.flatten(elems)
    if not elems_flat:
        raise ValueError("elems must be a Tensor or (possibly nested) sequence of Tensors. "
                         "Got {}, which does not contain any Tensors.".format(elems))
    if fn_output_signature is None:
        result_dtypes = None
        pack_result = lambda xs: nest.pack_sequence_as(elems, xs)  # noqa: E731
    else:
        result_dtypes = [dtypes.as_dtype(d) for d in nest.flatten(fn_output_signature)]
        pack_result = lambda xs: nest.pack_sequence_as(fn_output_signature, xs)  # noqa: E731
    with ops.name_scope(name, "map", elems_flat), _CachingDevice():
        elems_flat = [ops.convert_to_tensor(t, name="elem") for t in elems_flat]
        first = elems_flat[0].shape
        if first.ndims is not None and first.ndims < 1:
            raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
        n, n_static = leading_dim(elems_flat)
        elems_ta = [tensor_array_ops.TensorArray(dtype=t.dtype, size=n, dynamic_size=False,
                                                 infer_shape=True) for t in elems_flat]
        elems_ta = [ta.unstack(t) for ta, t in zip(elems_ta, elems_flat)]
        i = ops.convert_to_tensor(0)
        if result_dtypes is None:
            result_dtypes = [t.dtype for t in elems_flat]
        result_ta = [tensor_array_ops.TensorArray(dtype=d, size=n, dynamic_size=False,
                                                  infer_shape=infer_shape, element_shape=None)
                     for d in result_dtypes]

        def compute(i, tas):
            value = nest.pack_sequence_as(elems, [ta.read(i) for ta in elems_ta])
            result = fn(value)
            nest.assert_same_structure(fn_output_signature or elems, result)
            flat = nest.flatten(result)
            return (i + 1, [ta.write(i, v) for ta, v in zip(tas, flat)])

        from minitf.ops.control_flow_ops import while_loop
        _, r_a = while_loop(lambda i, _: i < n, compute, (i, result_ta),
                            parallel_iterations=parallel_iterations, back_prop=back_prop,
                            swap_memory=swap_memory, maximum_iterations=n)
        results = [r.stack() for r in r_a]
        for r in results:
            r.set_shape(tensor_shape.TensorShape(n_static).concatenate(r.shape[1:]))
        return pack_result(results)
