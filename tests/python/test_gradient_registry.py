"""Every op minitf registers is differentiable exactly where TensorFlow 2.21's is
(tests/fixtures/tf_gradient_registry.json, written by tools/gen_gradient_registry.py): a
gradient function where TF has one, "not differentiable" (tf.gradients gives None through
it) where TF declares it so, and nothing (tf.gradients raises LookupError) where TF has
nothing."""
import json
import os

import pytest

from minitf import pywrap_tensorflow_internal as c_api
from minitf.ops import gradients_impl

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "tf_gradient_registry.json")
with open(FIXTURE) as f:
    TF = json.load(f)["ops"]

# TensorFlow registers a gradient function for these that returns None for every input (e.g.
# _FloorGrad, _ArgMaxGrad); minitf declares them not differentiable: the same result.
RETURNS_NONE_IN_TF = {"ArgMax", "ArgMin", "Ceil", "Floor", "FloorDiv", "LoopCond", "Rint",
                      "Round", "TruncateDiv"}
# Control-flow gradients are Python, beside the builders, as in TensorFlow: TensorFlow 1's
# (control_flow_grad.py) build gradient while loops through the Python control-flow contexts
# (minitf.ops.control_flow_grad); the functional ops' build gradient functions from FuncGraphs
# and rewrite the forward op (minitf.ops.cond_v2, while_v2). The C registry has none for them.
IN_PYTHON = {"Enter", "Exit", "Merge", "NextIteration", "RefEnter", "RefExit", "RefMerge",
             "RefNextIteration", "RefSwitch", "Switch",
             "If", "StatelessIf", "While", "StatelessWhile", "Case", "StatelessCase"}
_STATE = {0: "missing", 1: "gradient", 2: "none"}


@pytest.mark.parametrize("op_type", sorted(TF))
def test_differentiable_as_in_tensorflow(op_type):
    got = _STATE[c_api.MT_GradientRegistered(op_type)]
    want = TF[op_type]
    if op_type in RETURNS_NONE_IN_TF:
        assert (want, got) == ("gradient", "none")
    elif op_type in IN_PYTHON:
        assert (want, got) == ("gradient", "missing")
        assert gradients_impl.builtin_python_gradient(op_type) is not None
    else:
        assert got == want
