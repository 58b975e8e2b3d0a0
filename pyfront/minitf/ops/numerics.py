"""NaN/Inf checks built from CheckNumerics: tf.compat.v1.verify_tensor_all_finite
(= tf.compat.v1.debugging.assert_all_finite) and tf.compat.v1.add_check_numerics_ops.

Mirrors tensorflow/python/ops/numerics.py in graph mode: the "VerifyFinite" scope with
"CheckNumerics" and "control_dependency" nodes, and one CheckNumerics per half/float/double
output of the graph, each ordered after the previous one and tagged "<op name>:<index>".
"""
from minitf.framework import dtypes, ops
from minitf.ops import array_ops, control_flow_ops


def _argument_lookup(new_name, new_value, old_name, old_value):
    # TensorFlow's deprecation.deprecated_argument_lookup (same ValueError text).
    if old_value is not None:
        if new_value is not None:
            raise ValueError("Cannot specify both '%s' and '%s'." % (old_name, new_name))
        return old_value
    return new_value


def verify_tensor_all_finite(t=None, msg=None, name=None, x=None, message=None):
    """`t` unchanged, after a CheckNumerics that fails at run time with InvalidArgumentError
    "<msg> : Tensor had NaN values" (Inf, or Inf and NaN) (tf.compat.v1.
    verify_tensor_all_finite and tf.compat.v1.debugging.assert_all_finite).

    t (alias x): a bfloat16/half/float/double Tensor, else TypeError from the op's
    type check. msg (alias message): the message. name: scope (default "VerifyFinite").
    ValueError when both spellings of an argument are given.
    """
    x = _argument_lookup("x", x, "t", t)
    message = _argument_lookup("message", message, "msg", msg)
    return verify_tensor_all_finite_v2(x, message, name)


def verify_tensor_all_finite_v2(x, message, name=None):
    """tf.debugging.assert_all_finite in TF2's form: `x` after CheckNumerics(x, message)."""
    with ops.name_scope(name, "VerifyFinite", [x]):
        x = ops.convert_to_tensor(x, name="x")
        with ops.colocate_with(x):
            verify_input = array_ops.check_numerics(x, message=message)
            return control_flow_ops.with_dependencies([verify_input], x)


_CHECKED = (dtypes.float16, dtypes.float32, dtypes.float64)


def add_check_numerics_ops():
    """A group op ("group_deps") over one CheckNumerics per half/float/double output of
    the default graph (tf.compat.v1.add_check_numerics_ops). Each check's message is
    "<op name>:<output index>" and each runs after the check before it, so a failing
    run names the first bad tensor in graph order. ValueError (TensorFlow's text) when
    such an op is inside a tf.cond / tf.while_loop of TF1 control flow."""
    check_op = []
    for op in ops.get_default_graph().get_operations():
        for output in op.outputs:
            if output.dtype not in _CHECKED:
                continue
            if op._get_control_flow_context() is not None:
                raise ValueError("`tf.add_check_numerics_ops() is not compatible with "
                                 "TensorFlow control flow operations such as `tf.cond()` "
                                 "or `tf.while_loop()`.")
            message = op.name + ":" + str(output.value_index)
            with ops.control_dependencies(check_op):
                check_op = [array_ops.check_numerics(output, message=message)]
    return control_flow_ops.group(*check_op)
