"""Writes tests/fixtures/records_expected.json (developer tool, needs TensorFlow 2.21):

    /opt/tfvenv/bin/python tools/gen_records_expected.py

For each case of tests/python/records_cases.py, run in a fresh temporary directory: for the
op cases the op TF builds, its static shape and the value TF computes (or the exception
class and message building or running it raises); for the gfile cases the Python value (or
exception). The temporary directory is written as <TMP>.
"""
import shutil
import tempfile

import tf_fixture
from tf_fixture import tf

import records_cases as cases


def _err(e, tmp):
    msg = getattr(e, "message", None) or str(e)
    if "\nNode: '" in msg:
        msg = msg[msg.rindex("\nNode: '") + 1:]
    return [type(e).__name__, cases.scrub(msg, tmp)]


def run_op_case(build, tmp):
    out = {}
    with tf.Graph().as_default():
        try:
            t = build(tf, tmp)
        except Exception as e:  # noqa: BLE001 - the class and text are the result
            out["build_error"] = _err(e, tmp)
            return out
        out["op"] = t.op.type
        out["static_shape"] = None if t.shape.ndims is None else [
            d if d is not None else -1 for d in t.shape.as_list()]
        with tf.Session() as sess:
            try:
                v = sess.run(t)
                if t.op.type == "MatchingFiles":
                    v = [cases.scrub(x.decode(), tmp).encode() for x in v]
                out["value"] = cases.jsonable(v)
            except Exception as e:  # noqa: BLE001
                out["run_error"] = _err(e, tmp)
    return out


def run_gfile_case(fn, tmp):
    try:
        return {"value": fn(tf, tmp)}
    except Exception as e:  # noqa: BLE001
        return {"error": _err(e, tmp)}


def _in_tmp(run, fn):
    tmp = tempfile.mkdtemp()
    try:
        cases.make_tree(tmp)
        return run(fn, tmp)
    finally:
        shutil.rmtree(tmp)


def main():
    tf_fixture.write("records_expected.json", {
        "ops": {k: _in_tmp(run_op_case, b) for k, b in cases.OP_CASES.items()},
        "gfile": {k: _in_tmp(run_gfile_case, b) for k, b in cases.GFILE_CASES.items()},
    })


if __name__ == "__main__":
    main()
