"""Writes tests/fixtures/string_ops_expected.json (developer tool, needs TensorFlow 2.21):

    /opt/tfvenv/bin/python tools/gen_string_ops_expected.py

For each case of tests/python/string_ops_cases.py: the op TF builds (type, attrs), its static
shape, and the value TF computes, or the exception (class, message) building or running it
raises.
"""
import tf_fixture
from tf_fixture import tf

import string_ops_cases


def _err(e):
    """(class, message): a run error's message without TF's traceback of where the node
    was defined (from its "Node: 'name'" line on)."""
    msg = getattr(e, "message", None) or str(e)
    if "\nNode: '" in msg:
        msg = msg[msg.rindex("\nNode: '") + 1:]
    return [type(e).__name__, msg]


def run_case(build):
    out = {}
    g = tf.Graph()
    with g.as_default():
        try:
            t = build(tf)
        except Exception as e:  # noqa: BLE001 - the class and text are the result
            out["build_error"] = _err(e)
            return out
        out["node"] = string_ops_cases.node_of(t)
        out["static_shape"] = None if t.shape.ndims is None else [
            d if d is not None else -1 for d in t.shape.as_list()]
        with tf.Session() as sess:
            try:
                out["value"] = string_ops_cases.jsonable(sess.run(t))
            except Exception as e:  # noqa: BLE001
                out["run_error"] = _err(e)
    return out


def main():
    tf_fixture.write("string_ops_expected.json",
                     {"cases": {k: run_case(b) for k, b in string_ops_cases.CASES.items()}})


if __name__ == "__main__":
    main()
