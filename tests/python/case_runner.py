"""Runs a control-flow case program the same way under TensorFlow (the tools/gen_* scripts
that write the fixtures) and under minitf (the tests that replay them).

A case is `build(tf) -> (fetches, feeds[, initializers])`: it builds its graph into a fresh
default graph; every feed dict is run once, after the initializers."""
import contextlib

import numpy as np


def run_program(tf, build, record_op=None, context=None):
    """{"values": [[fetch values per feed]], "fetch_names": [...]} of case `build`, plus
    "ops": [record_op(op) per op] when record_op is given. `context`: a context manager
    active while the graph is built (v1 control flow)."""
    g = tf.Graph()
    with context or contextlib.nullcontext(), g.as_default():
        built = build(tf)
        fetches, feeds = built[0], built[1]
        init = built[2] if len(built) > 2 else []
        ops = [record_op(op) for op in g.get_operations()] if record_op else None
        values = []
        with tf.Session() as sess:
            if init:
                sess.run(init)
            for fd in feeds:
                values.append([np.asarray(v).tolist() for v in sess.run(fetches, fd)])
    out = {"values": values, "fetch_names": [t.name for t in fetches]}
    if ops is not None:
        out["ops"] = ops
    return out


def build_error(tf, build, context=None):
    """[exception class name, message] that building `build` raises, or None."""
    g = tf.Graph()
    with context or contextlib.nullcontext(), g.as_default():
        try:
            build(tf)
        except Exception as e:  # recorded as TensorFlow raises it
            return [type(e).__name__, str(e)]
    return None
