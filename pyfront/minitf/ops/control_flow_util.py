"""Which control flow graphs get, as TensorFlow 2.21's control_flow_util.py.

Control flow v2 (functional If/While, TensorList-backed TensorArrays) is TensorFlow 2.21's
default, also in tf.compat.v1 graph mode; `disable_control_flow_v2()` switches new graph
constructs to v1 (TensorArrayV3 resources, Switch/Merge loops), as `tf.disable_control_flow_v2`.
The environment variable TF_ENABLE_CONTROL_FLOW_V2=0 starts with v1, as in TensorFlow.
"""
import os

ENABLE_CONTROL_FLOW_V2 = os.getenv("TF_ENABLE_CONTROL_FLOW_V2") != "0"


def enable_control_flow_v2():
    """Makes new graph constructs use control flow v2 (tf.compat.v1.enable_control_flow_v2)."""
    global ENABLE_CONTROL_FLOW_V2
    ENABLE_CONTROL_FLOW_V2 = True


def disable_control_flow_v2():
    """Makes new graph constructs use control flow v1 (tf.compat.v1.disable_control_flow_v2)."""
    global ENABLE_CONTROL_FLOW_V2
    ENABLE_CONTROL_FLOW_V2 = False


def control_flow_v2_enabled():
    """True when control flow v2 is on (tf.compat.v1.control_flow_v2_enabled)."""
    return ENABLE_CONTROL_FLOW_V2


def EnableControlFlowV2(graph):  # noqa: N802 (TensorFlow's name)
    """Whether `graph` builds v2 control flow: the global switch, or any function graph."""
    return ENABLE_CONTROL_FLOW_V2 or bool(getattr(graph, "building_function", False))
