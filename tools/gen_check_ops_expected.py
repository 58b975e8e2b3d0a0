"""Writes tests/fixtures/check_ops_expected.json: what TensorFlow 2.21 gives for the cases of
tests/python/check_ops_cases.py (values, run-time and construction errors with their
messages, node names, returned dtypes). Developer tool:

    /opt/tfvenv/bin/python tools/gen_check_ops_expected.py
"""
import numpy as np

from tf_fixture import tf, write
from gen_logging_expected import run_message

import check_ops_cases as cases  # noqa: E402


def jsonable(v):
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if v is None:
        return None
    a = np.asarray(v)
    return {"dtype": a.dtype.name, "value": a.reshape(-1).tolist(), "shape": list(a.shape)}


def fresh(build):
    g = tf.Graph()
    with g.as_default():
        return g, build(tf)


def error_of(fn):
    try:
        fn()
    except (ValueError, TypeError, tf.errors.OpError) as e:
        msg = e.message if isinstance(e, tf.errors.OpError) else str(e)
        return [type(e).__name__, msg]
    raise AssertionError("no error")


def run_error(build):
    g, op = fresh(build)
    with tf.Session(graph=g) as s:
        try:
            s.run(op)
        except tf.errors.OpError as e:
            return [type(e).__name__, run_message(e)]
    raise AssertionError("did not fail")


def main():
    out = {"values": {}, "run": {}, "static": {}, "names": {}, "py": {}}
    for label, build in cases.VALUE_CASES.items():
        g, t = fresh(build)
        with tf.Session(graph=g) as s:
            out["values"][label] = jsonable(s.run(t))
    for label, build in cases.RUN_CASES.items():
        out["run"][label] = run_error(build)
    for label, build in cases.STATIC_CASES.items():
        out["static"][label] = error_of(lambda: fresh(build))
    for label, build in cases.NAME_CASES.items():
        g, _ = fresh(build)
        out["names"][label] = [[n.name, n.op] for n in g.as_graph_def().node]
    for label, build in cases.PY_CASES.items():
        out["py"][label] = fresh(build)[1]
    write("check_ops_expected.json", out)


if __name__ == "__main__":
    main()
