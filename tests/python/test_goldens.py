"""Replays the golden cases real TensorFlow 2.21 wrote (tests/fixtures/goldens/<family>/, made
by tools/goldens/gen_<family>.py) through minitf, twice per case:

* python: the op is built with ``minitf.raw_ops`` on placeholders/constants of the same dtypes
  and static shapes; its static output shapes must equal TensorFlow's, then the values;
* graphdef: the GraphDef TensorFlow wrote is imported with ``tf.import_graph_def`` and run.

Values compare exactly for integers, bools and strings, and within the tolerance each case
states for floating types (default by dtype, see tools/goldens/golden_lib.py). Errors must be of
TensorFlow's class, with TensorFlow's message text (the case's ``match``) in minitf's.
"""
import glob
import json
import os
import re

import numpy as np
import pytest

import minitf as tf

GOLDEN_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "fixtures", "goldens")


def _families():
    for d in sorted(glob.glob(os.path.join(GOLDEN_DIR, "*", "cases.json"))):
        with open(d) as f:
            meta = json.load(f)
        yield os.path.dirname(d), meta


_ARRAYS = {}


def _arrays(directory):
    if directory not in _ARRAYS:
        _ARRAYS[directory] = np.load(os.path.join(directory, "arrays.npz"))
    return _ARRAYS[directory]


def _cases():
    params = []
    for directory, meta in _families():
        for case in meta["cases"]:
            for mode in ("python", "graphdef"):
                if mode == "graphdef" and "graph_key" not in case:
                    continue  # TensorFlow could not build it: nothing to import
                params.append(pytest.param(directory, case, mode,
                                           id="%s/%s/%s" % (meta["family"], case["name"], mode)))
    return params


def _decode(arrays, key, dtype):
    value = arrays[key]
    if dtype == "bfloat16":
        import ml_dtypes
        return value.view(ml_dtypes.bfloat16)
    if dtype == "string":
        return value.astype(object)
    return value


def _attr(v):
    if isinstance(v, dict):
        if "type" in v:
            return tf.as_dtype(v["type"])
        if "type_list" in v:
            return [tf.as_dtype(x) for x in v["type_list"]]
        if "shape" in v:
            return tf.TensorShape(None if v["shape"] is None else
                                  [None if d < 0 else d for d in v["shape"]])
        if "float" in v:
            return float(v["float"])
    return v


def _tf_dtype(name):
    return tf.string if name == "string" else tf.as_dtype(name)


def _build(case, arrays):
    """Builds the case's op with raw_ops; returns (op outputs, feed dict)."""
    kwargs, feeds = {}, {}
    for spec in case["inputs"]:
        value = _decode(arrays, spec["key"], spec["dtype"])
        if spec["const"]:
            t = tf.constant(value, dtype=_tf_dtype(spec["dtype"]), name=spec["node"])
        else:
            t = tf.placeholder(_tf_dtype(spec["dtype"]), value.shape, name=spec["node"])
            feeds[t] = value
        if spec["list"]:
            kwargs.setdefault(spec["arg"], []).append(t)
        else:
            kwargs[spec["arg"]] = t
    kwargs.update({k: _attr(v) for k, v in case["attrs"].items()})
    out = getattr(tf.raw_ops, case["op"])(name="op", **kwargs)
    op = out if isinstance(out, tf.Operation) else tf.get_default_graph().get_operation_by_name("op")
    return op, feeds


def _static_shape(t):
    s = t.shape
    return None if s.rank is None else [-1 if d is None else d for d in s.as_list()]


def _check_error(exc_info, err):
    assert type(exc_info.value).__name__ == err["class"], str(exc_info.value)
    assert err["match"] in str(exc_info.value)


def _compare(got, out, arrays, name):
    want = _decode(arrays, out["key"], out["dtype"])
    got = np.asarray(got)
    if out["dtype"] == "string":
        got = got.astype(object)
    assert got.shape == want.shape, "%s: shape %s, TensorFlow %s" % (name, got.shape, want.shape)
    assert got.dtype == want.dtype, "%s: dtype %s, TensorFlow %s" % (name, got.dtype, want.dtype)
    if out["rtol"] == 0 and out["atol"] == 0:
        if want.dtype.kind == "f" or want.dtype.kind == "c":
            np.testing.assert_array_equal(got, want, err_msg=name)
        else:
            assert np.array_equal(got, want), "%s:\n%s\nTensorFlow:\n%s" % (name, got, want)
    else:
        np.testing.assert_allclose(got.astype(np.float64) if got.dtype.kind == "V" else got,
                                   want, rtol=out["rtol"], atol=out["atol"], equal_nan=True,
                                   err_msg=name)


@pytest.mark.parametrize("directory,case,mode", _cases())
def test_golden(directory, case, mode):
    arrays = _arrays(directory)
    g = tf.Graph()
    with g.as_default():
        if mode == "python":
            if "construct_error" in case:
                with pytest.raises(Exception) as exc_info:
                    _build(case, arrays)
                _check_error(exc_info, case["construct_error"])
                return
            op, feeds = _build(case, arrays)
            for t, out in zip(op.outputs, case["outputs"]):
                assert _static_shape(t) == out["static_shape"], \
                    "static shape of %s: %s, TensorFlow %s" % (t.name, _static_shape(t),
                                                               out["static_shape"])
        else:
            graph_def = tf.GraphDef.FromString(arrays[case["graph_key"]].tobytes())
            tf.import_graph_def(graph_def, name="")
            op = g.get_operation_by_name("op")
            feeds = {}
            for spec in case["inputs"]:
                if not spec["const"]:
                    feeds[spec["node"] + ":0"] = _decode(arrays, spec["key"], spec["dtype"])
        fetches = op.outputs if op.outputs else op
        with tf.Session(graph=g) as sess:
            if "run_error" in case:
                with pytest.raises(tf.errors.OpError) as exc_info:
                    sess.run(fetches, feeds)
                _check_error(exc_info, case["run_error"])
                return
            values = sess.run(fetches, feeds)
        for j, out in enumerate(case["outputs"]):
            _compare(values[j], out, arrays, "%s output %d" % (case["name"], j))
