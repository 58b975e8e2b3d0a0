"""Writes tests/fixtures/stateless_random_expected.json (developer tool, needs TensorFlow 2.21):

    /opt/tfvenv/bin/python tools/gen_stateless_random_expected.py

For each case of tests/python/stateless_random_cases.py: the graph TF builds ([name, type] of
each op), the result's static shape, and the exact bytes of the value TF computes, or the
exception (class, message) building or running it raises.
"""
import tf_fixture
from tf_fixture import tf

import stateless_random_cases as cases


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
        out["nodes"] = cases.node_list(g)
        out["static_shape"] = None if t.shape.ndims is None else [
            d if d is not None else -1 for d in t.shape.as_list()]
        with tf.Session() as sess:
            try:
                out["value"] = cases.encode(sess.run(t))
            except Exception as e:  # noqa: BLE001
                out["run_error"] = _err(e)
    return out


def main():
    tf_fixture.write("stateless_random_expected.json",
                     {"cases": {k: run_case(b) for k, b in cases.CASES.items()}})


if __name__ == "__main__":
    main()
