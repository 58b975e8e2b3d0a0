"""Writes tests/fixtures/sparse_more_expected.json (developer tool, needs TensorFlow 2.21):

    /opt/tfvenv/bin/python tools/gen_sparse_more_expected.py

For each case of tests/python/sparse_more_cases.py: the graph TF builds ([name, type] of each
op), the static shape of each component of the result (Tensor, SparseTensor, IndexedSlices),
their values, or the exception (class, message) building or running it raises.
"""
import tf_fixture
from tf_fixture import tf

import sparse_more_cases as cases


def _err(e):
    msg = getattr(e, "message", None) or str(e)
    if "\nNode: '" in msg:
        msg = msg[msg.rindex("\nNode: '") + 1:]
    return [type(e).__name__, msg]


def run_case(build):
    out = {}
    g = tf.Graph()
    with g.as_default():
        try:
            r = build(tf)
        except Exception as e:  # noqa: BLE001 - the class and text are the result
            out["build_error"] = _err(e)
            return out
        out["nodes"] = cases.node_list(g)
        p = cases.parts(tf, r)
        out["static_shapes"] = {k: cases.static_shape(t) for k, t in p.items()}
        with tf.Session() as sess:
            try:
                vals = sess.run(p)
                out["values"] = {k: cases.jsonable(v) for k, v in vals.items()}
            except Exception as e:  # noqa: BLE001
                out["run_error"] = _err(e)
    return out


def main():
    tf_fixture.write("sparse_more_expected.json",
                     {"cases": {k: run_case(b) for k, b in cases.CASES.items()}})


if __name__ == "__main__":
    main()
