"""Writes tests/fixtures/lookup_expected.json (developer tool, needs TensorFlow 2.21):

    /opt/tfvenv/bin/python tools/gen_lookup_expected.py

For each case of tests/python/lookup_cases.py: the op types of the fetched tensors and
the graph's nodes (name, type), then,
after running tf.tables_initializer(), the fetched values, or the error (class, message)
of building, initializing or fetching.
"""
import os

import tf_fixture
from tf_fixture import tf

import lookup_cases as cases

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures")


def _err(e):
    msg = getattr(e, "message", None) or str(e)
    if "\nNode: '" in msg:
        msg = msg[msg.rindex("\nNode: '") + 1:]
        msg = msg.split("\n")[1]
    return [type(e).__name__, msg.replace(os.path.abspath(FIXTURES), "<fixtures>")]


def run_case(build):
    out = {}
    with tf.Graph().as_default():
        try:
            r = build(tf, os.path.abspath(FIXTURES))
        except Exception as e:  # noqa: BLE001 - the class and text are the result
            out["build_error"] = _err(e)
            return out
        ts = r if isinstance(r, list) else [r]
        out["ops"] = [t.op.type if hasattr(t, "op") else None for t in ts]
        out["nodes"] = sorted([op.name, op.type] for op in tf.get_default_graph().get_operations())
        with tf.Session() as sess:
            try:
                sess.run(tf.tables_initializer())
            except Exception as e:  # noqa: BLE001
                out["init_error"] = _err(e)
                return out
            try:
                out["values"] = [cases.jsonable(v) for v in sess.run(ts)]
            except Exception as e:  # noqa: BLE001
                out["run_error"] = _err(e)
    return out


def main():
    tf_fixture.write("lookup_expected.json",
                     {"cases": {k: run_case(b) for k, b in cases.CASES.items()}})


if __name__ == "__main__":
    main()
