"""Which control-flow form the frontend builds (TensorFlow's control_flow_util /
tf.compat.v1.enable_control_flow_v2). TF 2.21's default in compat.v1 graph mode
is v2: If/While with library functions; v1 is Switch/Merge/Enter/Exit frames."""
_v2 = True


def enable_control_flow_v2():
    """Build cond/while_loop/TensorArray in the v2 (functional) form (tf.enable_control_flow_v2)."""
    global _v2
    _v2 = True


def disable_control_flow_v2():
    """Build them in the v1 (Switch/Merge frames) form (tf.disable_control_flow_v2)."""
    global _v2
    _v2 = False


def control_flow_v2_enabled():
    """True when the v2 form is built (tf.control_flow_v2_enabled)."""
    return _v2


def enable_control_flow_v2_for(graph):
    """TF's EnableControlFlowV2(graph): v2 when enabled, and always inside a function."""
    return _v2 or graph.building_function


EnableControlFlowV2 = enable_control_flow_v2_for  # TensorFlow's name (tensor_array_ops uses it)
