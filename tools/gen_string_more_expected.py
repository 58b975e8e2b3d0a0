"""Writes tests/fixtures/string_more_expected.json (developer tool, needs TensorFlow 2.21):

    /opt/tfvenv/bin/python tools/gen_string_more_expected.py

For each case of tests/python/string_more_cases.py: the op types of the nodes that make its
outputs, their static shapes, and the values TF computes, or the exception (class, message)
building or running it raises.
"""
import tf_fixture
from tf_fixture import tf

import string_more_cases as cases


def _err(e):
    msg = getattr(e, "message", None) or str(e)
    if "\nNode: '" in msg:
        msg = msg[msg.rindex("\nNode: '") + 1:]
    return [type(e).__name__, msg]


def _shape(t):
    return None if t.shape.ndims is None else [
        d if d is not None else -1 for d in t.shape.as_list()]


def run_case(build):
    out = {}
    with tf.Graph().as_default():
        try:
            ts = cases.outputs_of(build(tf))
        except Exception as e:  # noqa: BLE001 - the class and text are the result
            out["build_error"] = _err(e)
            return out
        out["ops"] = [t.op.type for t in ts]
        out["static_shapes"] = [_shape(t) for t in ts]
        with tf.Session() as sess:
            try:
                out["values"] = [cases.jsonable(v) for v in sess.run(ts)]
            except Exception as e:  # noqa: BLE001
                out["run_error"] = _err(e)
    return out


def main():
    tf_fixture.write("string_more_expected.json",
                     {"cases": {k: run_case(b) for k, b in cases.CASES.items()}})


if __name__ == "__main__":
    main()
