"""Every op minitf registers has TensorFlow 2.21's exact OpDef (args, attrs, attr order,
defaults, allowed values, minimums, flags; docs aside). TensorFlow's OpDefs are committed in
tests/fixtures/tf_opdefs.pb by tools/check_opdefs_against_tf.py --write."""
import os

import pytest

from minitf.core.framework import op_def_pb2
from minitf.framework import op_def_library

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "tf_opdefs.pb")


def _tf_opdefs():
    with open(FIXTURE, "rb") as f:
        return {op.name: op for op in op_def_pb2.OpList.FromString(f.read()).op}


TF_OPDEFS = _tf_opdefs()


def _clear(msg, *fields):
    for field in fields:
        if field in msg.DESCRIPTOR.fields_by_name:  # our proto subset may lack some
            msg.ClearField(field)


def _strip(op):
    op = op_def_pb2.OpDef.FromString(op.SerializeToString())
    _clear(op, "summary", "description", "deprecation")
    for a in list(op.input_arg) + list(op.output_arg):
        _clear(a, "description", "experimental_full_type", "handle_data")
    for a in op.attr:
        _clear(a, "description")
    return op


def test_every_registered_op_is_in_the_fixture():
    assert sorted(op_def_library.get_registered_ops()) == sorted(TF_OPDEFS)


@pytest.mark.parametrize("name", sorted(TF_OPDEFS))
def test_op_def_matches_tensorflow(name):
    mine = _strip(op_def_library.get_registered_ops()[name])
    assert mine.SerializeToString(deterministic=True) == \
        TF_OPDEFS[name].SerializeToString(deterministic=True), "%s\nTensorFlow:\n%s" % (
            mine, TF_OPDEFS[name])
