"""Writes tests/fixtures/logging_expected.json: what TensorFlow 2.21 gives for the cases of
tests/python/logging_cases.py (formatted strings, Assert and assert_* messages, static
errors, node names, printed text, py_func values and errors). Developer tool:

    /opt/tfvenv/bin/python tools/gen_logging_expected.py
"""
import os
import re
import tempfile

import numpy as np

from tf_fixture import tf, write

import logging_cases as cases  # noqa: E402


def run_message(e):
    """The runtime's own message inside TF's Python error text."""
    m = e.message
    if "Node: '" in m:
        m = m[m.index("Node: '"):]
        m = m[m.index("\n") + 1:]
    else:
        m = m[len("Graph execution error:\n\n"):]
    return re.sub(r"\n\t \[\[(\{\{function_node [^}]*\}\})?\{\{node [^}]*\}\}\]\]$", "",
                  m)


def capture(fd, fn):
    """What fn() writes to file descriptor fd."""
    with tempfile.TemporaryFile() as tmp:
        saved = os.dup(fd)
        os.dup2(tmp.fileno(), fd)
        try:
            fn()
        finally:
            os.dup2(saved, fd)
            os.close(saved)
        tmp.seek(0)
        return tmp.read().decode("utf-8", "replace")


def jsonable(v):
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    a = np.asarray(v)
    if a.dtype == object or a.dtype.kind == "S":
        return {"dtype": "string", "value": [x.decode() if isinstance(x, bytes) else x
                                             for x in a.reshape(-1).tolist()],
                "shape": list(a.shape)}
    return {"dtype": a.dtype.name, "value": a.reshape(-1).tolist(), "shape": list(a.shape)}


def fresh(build):
    g = tf.Graph()
    with g.as_default():
        return g, build(tf)


def main():
    out = {"format": {}, "assert_run": {}, "static": {}, "names": {}, "printed": {},
           "py_func_errors": {}, "py_func_values": {}}
    for label, build in cases.FORMAT_CASES.items():
        g, t = fresh(build)
        with tf.Session(graph=g) as s:
            out["format"][label] = s.run(t).decode("utf-8", "replace")
    for label, build in cases.ASSERT_RUN_CASES.items():
        g, op = fresh(build)
        with tf.Session(graph=g) as s:
            try:
                s.run(op)
                raise AssertionError(label + " did not fail")
            except tf.errors.OpError as e:
                out["assert_run"][label] = [type(e).__name__, run_message(e)]
    for label, build in cases.STATIC_CASES.items():
        try:
            fresh(build)
            raise AssertionError(label + " did not raise")
        except (ValueError, TypeError, tf.errors.OpError) as e:
            msg = e.message if isinstance(e, tf.errors.OpError) else str(e)
            out["static"][label] = [type(e).__name__, msg]
    for label, build in cases.NAME_CASES.items():
        g, _ = fresh(build)
        out["names"][label] = [[n.name, n.op] for n in g.as_graph_def().node]
    for label, (build, fd) in cases.PRINT_CASES.items():
        g, op = fresh(build)
        with tf.Session(graph=g) as s:
            out["printed"][label] = capture(fd, lambda: s.run(op))
    for label, build in cases.PY_FUNC_ERROR_CASES.items():
        g, t = fresh(build)
        with tf.Session(graph=g) as s:
            try:
                s.run(t)
                raise AssertionError(label + " did not fail")
            except tf.errors.OpError as e:
                msg = run_message(e)
                out["py_func_errors"][label] = [type(e).__name__, msg.split("\n")[0],
                                                msg.rstrip("\n").split("\n")[-1]]
    for label, build in cases.PY_FUNC_VALUE_CASES.items():
        g, t = fresh(build)
        with tf.Session(graph=g) as s:
            out["py_func_values"][label] = jsonable(s.run(t))
    write("logging_expected.json", out)


if __name__ == "__main__":
    main()
