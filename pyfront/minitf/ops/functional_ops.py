"""tf.foldl, tf.foldr and tf.scan (TensorFlow 2.21's functional_ops.py, the
tf.compat.v1 forms, graph mode): a while_loop over TensorArrays that hold the
unstacked elements (and, for scan, the accumulated results), with
TensorFlow's node names (foldl/TensorArrayV2, foldl/while, scan/TensorArrayV2Stack/...)."""
from minitf.framework import ops, tensor_shape
from minitf.ops import tensor_array_ops
from minitf.ops.map_fn import _CachingDevice, leading_dim
from minitf.util import nest


def _check_callable(fn):
    if not callable(fn):
        raise TypeError("%s is not callable. Please provide a callable function."
                        % getattr(fn, "__name__", fn))


def _unstacked(elems_flat, n, element_shapes=False, interleaved=False):
    """TensorArrays holding the rows of each tensor: scan makes all arrays, then unstacks
    into each; the folds make and fill one array after the other (TensorFlow's order)."""
    def make(t):
        return tensor_array_ops.TensorArray(
            dtype=t.dtype, size=n, dynamic_size=False, infer_shape=True,
            element_shape=t.shape[1:] if element_shapes else None)
    if interleaved:
        return [make(t).unstack(t) for t in elems_flat]
    tas = [make(t) for t in elems_flat]
    return [ta.unstack(t) for ta, t in zip(tas, elems_flat)]


def _while(cond, body, loop_vars, n, parallel_iterations, back_prop, swap_memory):
    from minitf.ops.control_flow_ops import while_loop
    return while_loop(cond, body, loop_vars, parallel_iterations=parallel_iterations,
                      back_prop=back_prop, swap_memory=swap_memory, maximum_iterations=n)


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """Folds `fn` over the rows of `elems` from first to last
    (tf.compat.v1.foldl): a = fn(a, elems[i]) for i = 0..n-1.

    Args:
      fn: callable(accumulator, element) -> new accumulator (same structure and
        dtypes as the accumulator).
      elems: a tensor or nested structure of tensors unstacked along dim 0.
      initializer: the first accumulator; without it elems[0] is, and the fold
        starts at row 1.
      parallel_iterations, back_prop, swap_memory: while_loop's. name: scope ("foldl").
    Returns: the last accumulator. Raises TypeError when fn is not callable.
    """
    return _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory,
                 name, "foldl", False)


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """As foldl, from the last row to the first (tf.compat.v1.foldr); without an
    initializer elems[n-1] starts the fold. Scope "foldr"."""
    return _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory,
                 name, "foldr", True)


def _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory, name,
          default_name, reverse):
    _check_callable(fn)
    with ops.name_scope(name, default_name, [elems]), _CachingDevice():
        elems_flat = [ops.convert_to_tensor(e, name="elem") for e in nest.flatten(elems)]
        n, _ = leading_dim(elems_flat)
        elems_ta = nest.pack_sequence_as(elems, _unstacked(elems_flat, n, interleaved=True))

        def read(i):
            return nest.map_structure(lambda ta: ta.read(i), elems_ta)
        if reverse:
            if initializer is None:
                i = n - 1
                a = read(i)
            else:
                i, a = n, initializer

            def compute(i, a):
                i -= 1
                return [i, fn(a, read(i))]
            cond = lambda i, a: i > 0  # noqa: E731
        else:
            if initializer is None:
                a, i = read(0), ops.convert_to_tensor(1)
            else:
                a, i = initializer, ops.convert_to_tensor(0)

            def compute(i, a):
                return [i + 1, fn(a, read(i))]
            cond = lambda i, a: i < n  # noqa: E731
        _, r_a = _while(cond, compute, [i, a], n, parallel_iterations, back_prop, swap_memory)
        return r_a


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
         swap_memory=False, infer_shape=True, reverse=False, name=None):
    """The sequence of accumulators of folding `fn` over the rows of `elems`
    (tf.compat.v1.scan): out[i] = fn(out[i-1], elems[i]), stacked along dim 0.

    Args:
      fn: callable(accumulator, element) -> accumulator, structured like the
        initializer (or like elems when there is none).
      elems: a tensor or nested structure of tensors of the same first dim n.
      initializer: out[-1]; without it out[0] = elems[0] (elems[n-1] in reverse).
      reverse: scan from the last row to the first (out keeps elems' order).
      infer_shape: the accumulator TensorArrays require one element shape.
      parallel_iterations, back_prop, swap_memory: while_loop's. name: scope ("scan").
    Returns: the stacked accumulators, shape [n] + accumulator shape.
    Raises TypeError when fn is not callable or returns another structure.
    """
    _check_callable(fn)
    in_seq = nest.is_nested(elems)
    in_flat = (lambda x: nest.flatten(x)) if in_seq else (lambda x: [x])
    in_pack = (lambda x: nest.pack_sequence_as(elems, x)) if in_seq else (lambda x: x[0])
    if initializer is None:
        out_flat, out_pack = in_flat, in_pack
    else:
        out_seq = nest.is_nested(initializer)
        out_flat = (lambda x: nest.flatten(x)) if out_seq else (lambda x: [x])
        out_pack = (lambda x: nest.pack_sequence_as(initializer, x)) if out_seq else \
            (lambda x: x[0])
    elems_flat = in_flat(elems)
    with ops.name_scope(name, "scan", elems_flat), _CachingDevice():
        elems_flat = [ops.convert_to_tensor(e, name="elem") for e in elems_flat]
        n, n_static = leading_dim(elems_flat)
        elems_ta = _unstacked(elems_flat, n, element_shapes=True)
        if initializer is None:
            a_flat = [ta.read(n - 1 if reverse else 0) for ta in elems_ta]
            i = 1
        else:
            a_flat = [ops.convert_to_tensor(x) for x in out_flat(initializer)]
            i = 0
        accs_ta = [tensor_array_ops.TensorArray(
            dtype=a.dtype, size=n, element_shape=a.shape if infer_shape else None,
            dynamic_size=False, infer_shape=infer_shape) for a in a_flat]
        if initializer is None:
            accs_ta = [ta.write(n - 1 if reverse else 0, a) for ta, a in zip(accs_ta, a_flat)]

        def compute(i, a_flat, tas):
            a_out = fn(out_pack(a_flat), in_pack([ta.read(i) for ta in elems_ta]))
            nest.assert_same_structure(elems if initializer is None else initializer, a_out)
            flat_out = out_flat(a_out)
            tas = [ta.write(i, v) for ta, v in zip(tas, flat_out)]
            return (i - 1 if reverse else i + 1, flat_out, tas)
        if reverse:
            initial_i = n - 1 - i
            cond = lambda i, _1, _2: i >= 0  # noqa: E731
        else:
            initial_i = i
            cond = lambda i, _1, _2: i < n  # noqa: E731
        _, _, r_a = _while(cond, compute, (initial_i, a_flat, accs_ta), n,
                           parallel_iterations, back_prop, swap_memory)
        results = [r.stack() for r in r_a]
        for r in results:
            r.set_shape(tensor_shape.TensorShape(n_static).concatenate(r.shape[1:]))
        return out_pack(results)
