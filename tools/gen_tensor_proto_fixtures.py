#!/usr/bin/env python3
"""Writes TensorProto fixtures with real TensorFlow (developer tool).

Run with a Python that has `tensorflow` (e.g. /opt/tfvenv/bin/python):

    /opt/tfvenv/bin/python tools/gen_tensor_proto_fixtures.py

Writes tests/fixtures/tensor_proto/:
  <case>.pb        a serialized TensorProto
  manifest.json    per case: file, dtype name, shape, how it was made, and
                   the values TensorFlow decodes from it (tf.make_ndarray,
                   and for hand-built protos also the C++ decoder through
                   tf.io.parse_tensor), as `npy` (a .npy file beside it) or
                   `strings` (hex of each element, for string tensors).

Kinds of case:
  make_*     tf.make_tensor_proto(values, dtype)      (Python encoder)
  content_*  tf.io.serialize_tensor(tf.constant(..))  (C++ AsProtoTensorContent)
  short_*    hand-built protos whose typed field is shorter than the shape
             (TensorFlow repeats the last value) or empty (zeros)
"""
import json
import os

import numpy as np
import tensorflow as tf
from tensorflow.core.framework import tensor_pb2, tensor_shape_pb2

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures",
                   "tensor_proto")

NUMERIC = {
    "float32": [[1.5, -2.25, 3.0], [0.0, -0.0, 1e-30]],
    "float64": [[1.5, -2.25, 3.0], [1e300, -1e-300, 0.1]],
    "float16": [[1.5, -2.25, 3.0], [65504.0, -0.0, 0.1]],
    "bfloat16": [[1.5, -2.25, 3.0], [1e30, -0.0, 0.1]],
    "int8": [[-128, 127, 0], [1, -1, 5]],
    "int16": [[-32768, 32767, 0], [1, -1, 5]],
    "int32": [[-2 ** 31, 2 ** 31 - 1, 0], [1, -1, 5]],
    "int64": [[-2 ** 63, 2 ** 63 - 1, 0], [1, -1, 5]],
    "uint8": [[0, 255, 1], [2, 3, 4]],
    "uint16": [[0, 65535, 1], [2, 3, 4]],
    "uint32": [[0, 2 ** 32 - 1, 1], [2, 3, 4]],
    "uint64": [[0, 2 ** 64 - 1, 1], [2, 3, 4]],
    "bool": [[True, False, True], [False, False, True]],
    "complex64": [[1 + 2j, -3.5j, 0], [1, 2, 3 - 1j]],
    "complex128": [[1 + 2j, -3.5j, 0], [1e300, 2, 3 - 1j]],
}
STRINGS = [[b"", b"a\x00b", b"hello"], [b"\xff\xfe", b"x" * 200, b"\x00"]]

manifest = []


def expected_entry(arr, dtype):
    if dtype == "string":
        return {"strings": [bytes(s).hex() for s in np.asarray(arr, dtype=object).reshape(-1)]}
    return {"npy": None, "_arr": np.asarray(arr)}


def add(name, proto, dtype, how, expected):
    path = os.path.join(OUT, name + ".pb")
    with open(path, "wb") as f:
        f.write(proto.SerializeToString())
    entry = {"name": name, "file": name + ".pb", "dtype": dtype,
             "shape": [d.size for d in proto.tensor_shape.dim], "how": how}
    e = expected_entry(expected, dtype)
    if "_arr" in e:
        arr = e.pop("_arr")
        if dtype == "bfloat16":  # NumPy has no bfloat16: store the bit patterns
            arr = arr.view(np.uint16)
        np.save(os.path.join(OUT, name + ".npy"), arr, allow_pickle=False)
        e["npy"] = name + ".npy"
    entry.update(e)
    manifest.append(entry)


def main():
    os.makedirs(OUT, exist_ok=True)
    cases = dict(NUMERIC)
    cases["string"] = STRINGS
    for dt, vals in cases.items():
        tfdt = tf.as_dtype(dt)
        for shape_name, v in (("2x3", vals), ("scalar", vals[0][1]), ("empty", [])):
            if shape_name == "empty":
                p = tf.make_tensor_proto(np.zeros([0, 3], dtype=tfdt.as_numpy_dtype)
                                         if dt != "string" else np.zeros([0, 3], dtype=object),
                                         dtype=tfdt, shape=[0, 3])
            else:
                p = tf.make_tensor_proto(v, dtype=tfdt)
            add("make_%s_%s" % (dt, shape_name), p, dt, "tf.make_tensor_proto",
                tf.make_ndarray(p))
        c = tf.constant(vals, dtype=tfdt)
        p = tensor_pb2.TensorProto.FromString(tf.io.serialize_tensor(c).numpy())
        add("content_%s_2x3" % dt, p, dt, "tf.io.serialize_tensor", c.numpy())

    # A typed field shorter than the shape: TensorFlow repeats the last value.
    def short(name, dtype, field, values, shape):
        p = tensor_pb2.TensorProto(dtype=tf.as_dtype(dtype).as_datatype_enum,
                                   tensor_shape=tensor_shape_pb2.TensorShapeProto(
                                       dim=[tensor_shape_pb2.TensorShapeProto.Dim(size=s)
                                            for s in shape]))
        getattr(p, field).extend(values)
        cpp = tf.io.parse_tensor(p.SerializeToString(), tf.as_dtype(dtype)).numpy()
        py = tf.make_ndarray(p)
        if dtype != "string":
            assert np.array_equal(np.asarray(cpp).view(np.uint8), np.asarray(py).view(np.uint8)), name
        add(name, p, dtype, "hand-built %s=%r shape %r; C++ FromProto" % (field, values, shape), cpp)

    short("short_float32", "float32", "float_val", [1.0, 2.5], [2, 3])
    short("short_int32", "int32", "int_val", [7], [4])
    short("short_int64", "int64", "int64_val", [-3, 9], [5])
    short("short_bool", "bool", "bool_val", [True], [3])
    short("short_float16", "float16", "half_val", [0x3C00, 0x4000], [2, 2])
    short("short_complex64", "complex64", "scomplex_val", [1.0, 2.0, 3.0, -4.0], [3])
    short("short_string", "string", "string_val", [b"a", b"b\x00c"], [4])
    short("short_uint8", "uint8", "int_val", [200], [3])
    short("empty_field_float32", "float32", "float_val", [], [2, 2])
    short("empty_field_string", "string", "string_val", [], [2])

    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump({"tensorflow": tf.__version__, "cases": manifest}, f, indent=1)
    print("wrote %d cases to %s" % (len(manifest), OUT))


if __name__ == "__main__":
    main()
