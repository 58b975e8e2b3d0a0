"""Golden fixtures from real TensorFlow for minitf's op tests.

Run the per-family scripts next to this file with an interpreter that has ``tensorflow-cpu``
(e.g. ``/opt/tfvenv/bin/python tools/goldens/gen_math.py``); they write
``tests/fixtures/goldens/<family>/{cases.json,arrays.npz}``, which
``tests/python/test_goldens.py`` replays through minitf twice: built in Python with
``minitf.raw_ops`` and imported from the GraphDef TensorFlow wrote. TensorFlow is never a
dependency of minitf or its tests: only its outputs are committed.

A case is one op applied to inputs, with attrs::

    fam = Family("math")
    fam.case("AddV2", [("x", np.float32([1, 2])), ("y", np.float32(3))])
    fam.case("Sum", [("input", x), ("axis", Const(np.int32([-1])))], {"keep_dims": True})
    fam.case("RealDiv", ..., rtol=1e-6)              # tolerance stated per case
    fam.case("Div", [("x", a), ("y", zeros)], match="Integer division by zero")
    fam.write()

Inputs are placeholders of the value's exact dtype and static shape (so TensorFlow's shape
inference sees full shapes), or constants when wrapped in ``Const`` (use that for inputs that
shape functions read, like axes and shapes). A list value feeds a list argument (``N * T``).
Expected results are TensorFlow's outputs, static output shapes, or the error TensorFlow
raised at construction (``construct_error``) or at run time (``run_error``); ``match`` is the
part of TensorFlow's message minitf's must contain (default: TensorFlow's first line up to the
node summary TensorFlow appends).
"""
import json
import os
import re

import numpy as np

import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT_DIR = os.path.join(ROOT, "tests", "fixtures", "goldens")

# Default tolerances by dtype (rtol, atol); exact for everything else.
DEFAULT_TOL = {
    "float32": (1e-6, 1e-6),
    "float64": (1e-12, 1e-12),
    "float16": (1e-3, 1e-3),
    "bfloat16": (1e-2, 1e-2),
    "complex64": (1e-6, 1e-6),
    "complex128": (1e-12, 1e-12),
}


class Const:
    """Marks an input to build with tf.constant instead of a placeholder."""

    def __init__(self, value, dtype=None):
        self.value = np.asarray(value) if dtype is None else np.asarray(value, dtype=dtype)


def _dtype_name(arr):
    if arr.dtype.kind in "OSU":
        return "string"
    return tf.as_dtype(arr.dtype).name


def _encode_array(arrays, key, value):
    """Stores value under key (bfloat16 as uint16 bits, strings as bytes); returns its dtype."""
    value = np.asarray(value)
    name = _dtype_name(value)
    if name == "bfloat16":
        arrays[key] = value.view(np.uint16)
    elif name == "string":
        arrays[key] = np.array(value.tolist(), dtype=object).astype(np.bytes_) if value.size else \
            np.zeros(value.shape, dtype="S1")
    else:
        arrays[key] = value
    return name


def _encode_attr(v):
    if isinstance(v, tf.DType):
        return {"type": v.name}
    if isinstance(v, tf.TensorShape) or (isinstance(v, dict) and "shape" in v):
        s = v if isinstance(v, tf.TensorShape) else tf.TensorShape(v["shape"])
        return {"shape": None if s.rank is None else [-1 if d is None else d for d in s.as_list()]}
    if isinstance(v, float) and not np.isfinite(v):
        return {"float": repr(v)}
    if isinstance(v, (list, tuple)) and v and all(isinstance(x, tf.DType) for x in v):
        return {"type_list": [x.name for x in v]}
    if isinstance(v, bytes):
        return v.decode()
    if isinstance(v, np.generic):
        return v.item()
    return v


def _decode_attr(v):
    """Back to what tf.raw_ops takes (used here to build TensorFlow's graph)."""
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


def _first_line(msg):
    """The op's own words: the first line, without TensorFlow's node suffixes (the node
    summary " for '{{node ...}} = ...'" and " [[{{node ...}}]]", checked elsewhere)."""
    lines = msg.strip().splitlines()
    if lines and lines[0].startswith("Graph execution error"):
        # TF 2.x wraps run-time errors: the op's message follows "Node: 'name'"
        rest = [l for l in lines if l.strip()]
        at = next((i for i, l in enumerate(rest) if l.startswith("Node: ")), None)
        lines = rest[at + 1:] if at is not None else rest[-1:]
    line = lines[0] if lines else ""
    line = re.sub(r"\s*\[\[\{\{node .*$", "", line)
    return re.sub(r" for '\{\{node .*$", "", line).strip()


class Family:
    """Collects cases for one op family and writes them."""

    def __init__(self, family):
        self.family = family
        self.cases = []
        self.arrays = {}
        self.names = set()

    def case(self, op, inputs, attrs=None, name=None, rtol=None, atol=None, match=None,
             note=None):
        """Runs `op` in real TensorFlow on `inputs` (list of (arg name, value)) and records it."""
        attrs = {k: _encode_attr(v) for k, v in (attrs or {}).items()}
        base = name or op
        name, n = base, 1
        while name in self.names:
            n += 1
            name = "%s_%d" % (base, n)
        self.names.add(name)
        idx = len(self.cases)
        rec = {"name": name, "op": op, "attrs": attrs, "inputs": [], "note": note}
        g = tf.Graph()
        feeds = {}
        with g.as_default():
            kwargs = {}
            for arg, value in inputs:
                items = value if isinstance(value, list) else [value]
                built = []
                for j, item in enumerate(items):
                    key = "%d/in/%s/%d" % (idx, arg, j)
                    is_const = isinstance(item, Const)
                    arr = item.value if is_const else np.asarray(item)
                    dtype = _encode_array(self.arrays, key, arr)
                    pname = arg if not isinstance(value, list) else "%s_%d" % (arg, j)
                    tfdtype = tf.string if dtype == "string" else tf.as_dtype(dtype)
                    if is_const:
                        t = tf.constant(arr, dtype=tfdtype, name=pname)
                    else:
                        t = tf.placeholder(tfdtype, arr.shape, name=pname)
                        feeds[t] = arr
                    built.append(t)
                    rec["inputs"].append({"arg": arg, "key": key, "dtype": dtype, "const": is_const,
                                          "list": isinstance(value, list), "node": pname})
                kwargs[arg] = built if isinstance(value, list) else built[0]
            kwargs.update({k: _decode_attr(v) for k, v in attrs.items()})
            try:
                out = getattr(tf.raw_ops, op)(name="op", **kwargs)
            except (ValueError, TypeError, tf.errors.OpError) as e:
                rec["construct_error"] = {"class": type(e).__name__,
                                          "match": match or _first_line(str(e))}
                self.cases.append(rec)
                return rec
            op_obj = out if isinstance(out, tf.Operation) else g.get_operation_by_name("op")
            outs = list(op_obj.outputs)
            rec["graph_key"] = "%d/graph" % idx
            self.arrays[rec["graph_key"]] = np.frombuffer(
                g.as_graph_def().SerializeToString(), dtype=np.uint8)
            rec["outputs"] = []
            with tf.Session(graph=g) as sess:
                try:
                    vals = sess.run(outs if outs else op_obj, feeds)
                except tf.errors.OpError as e:
                    rec["run_error"] = {"class": type(e).__name__,
                                        "match": match or _first_line(e.message)}
                    vals = None
            for j, t in enumerate(outs):
                o = {"static_shape": None if t.shape.rank is None else
                     [-1 if d is None else d for d in t.shape.as_list()]}
                if vals is not None:
                    key = "%d/out/%d" % (idx, j)
                    o["dtype"] = _encode_array(self.arrays, key, vals[j])
                    o["key"] = key
                    tol = DEFAULT_TOL.get(o["dtype"], (0, 0))
                    o["rtol"] = tol[0] if rtol is None else rtol
                    o["atol"] = tol[1] if atol is None else atol
                rec["outputs"].append(o)
        self.cases.append(rec)
        return rec

    def write(self):
        d = os.path.join(OUT_DIR, self.family)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "cases.json"), "w") as f:
            json.dump({"tf_version": tf.__version__, "family": self.family, "cases": self.cases},
                      f, indent=1, sort_keys=True)
        np.savez_compressed(os.path.join(d, "arrays.npz"), **self.arrays)
        print("%s: %d cases -> %s" % (self.family, len(self.cases), d))
