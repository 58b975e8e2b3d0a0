"""Static shapes TensorFlow infers for the indexing/space ops from partially known and
unknown input shapes (the goldens feed fully known shapes only). Writes
tests/fixtures/indexing/partial_shapes.json, replayed by tests/python/test_indexing_ops.py.

Run: cd tools/goldens && /opt/tfvenv/bin/python gen_indexing_shapes.py
"""
import json
import os

import numpy as np

from golden_lib import ROOT, _first_line, tf

# (op, [(arg, ("ph", dtype, shape-or-None) | ("const", dtype, value))], attrs)
U = None
CASES = [
    ("StridedSlice", [("input", ("ph", "float32", [U, 3, U])), ("begin", ("const", "int32", [0, 1])),
                      ("end", ("const", "int32", [2, 3])), ("strides", ("const", "int32", [1, 1]))], {}),
    ("StridedSlice", [("input", ("ph", "float32", [U, 3, 4])), ("begin", ("ph", "int32", [2])),
                      ("end", ("ph", "int32", [2])), ("strides", ("const", "int32", [1, -1]))],
     {"begin_mask": 2, "end_mask": 2}),
    ("StridedSlice", [("input", ("ph", "float32", [5, 3, 4])), ("begin", ("ph", "int32", [3])),
                      ("end", ("ph", "int32", [3])), ("strides", ("const", "int32", [1, 2, 1]))],
     {"shrink_axis_mask": 1, "begin_mask": 4, "end_mask": 4, "new_axis_mask": 0}),
    ("StridedSlice", [("input", ("ph", "float32", None)), ("begin", ("const", "int32", [0])),
                      ("end", ("const", "int32", [1])), ("strides", ("const", "int32", [1]))], {}),
    ("StridedSlice", [("input", ("ph", "float32", [U, 2])), ("begin", ("const", "int32", [0, 0])),
                      ("end", ("const", "int32", [0, 0])), ("strides", ("const", "int32", [1, 1]))],
     {"ellipsis_mask": 1, "new_axis_mask": 2}),
    ("StridedSlice", [("input", ("ph", "float32", [U, 2])), ("begin", ("const", "int32", [1])),
                      ("end", ("const", "int32", [2])), ("strides", ("const", "int32", [1]))],
     {"shrink_axis_mask": 1}),
    ("Slice", [("input", ("ph", "float32", [U, 4])), ("begin", ("const", "int32", [1, 1])),
               ("size", ("const", "int32", [-1, -1]))], {}),
    ("Slice", [("input", ("ph", "float32", [U, 4])), ("begin", ("ph", "int32", [2])),
               ("size", ("const", "int32", [2, -1]))], {}),
    ("Slice", [("input", ("ph", "float32", None)), ("begin", ("ph", "int32", [3])),
               ("size", ("ph", "int32", [3]))], {}),
    ("Slice", [("input", ("ph", "float32", None)), ("begin", ("ph", "int32", None)),
               ("size", ("ph", "int32", None))], {}),
    ("GatherV2", [("params", ("ph", "float32", [U, 5, 6])), ("indices", ("ph", "int32", [U, 2])),
                  ("axis", ("const", "int32", 1))], {}),
    ("GatherV2", [("params", ("ph", "float32", None)), ("indices", ("ph", "int32", [3])),
                  ("axis", ("const", "int32", 0))], {}),
    ("GatherV2", [("params", ("ph", "float32", [2, U, 6])), ("indices", ("ph", "int32", [2, 7])),
                  ("axis", ("ph", "int32", []))], {"batch_dims": 1}),
    ("GatherNd", [("params", ("ph", "float32", [U, 5, 6])), ("indices", ("ph", "int32", [4, 2]))], {}),
    ("GatherNd", [("params", ("ph", "float32", [3, 5])), ("indices", ("ph", "int32", [4, U]))], {}),
    ("ScatterNd", [("indices", ("ph", "int32", [U, 1])), ("updates", ("ph", "float32", [U, 3])),
                   ("shape", ("const", "int32", [5, 3]))], {}),
    ("ScatterNd", [("indices", ("ph", "int32", [U, 1])), ("updates", ("ph", "float32", [U, 4])),
                   ("shape", ("const", "int32", [5, 3]))], {}),
    ("OneHot", [("indices", ("ph", "int32", [U, 3])), ("depth", ("const", "int32", 4)),
                ("on_value", ("const", "float32", 1.0)), ("off_value", ("const", "float32", 0.0))],
     {"axis": 1}),
    ("OneHot", [("indices", ("ph", "int32", None)), ("depth", ("const", "int32", 4)),
                ("on_value", ("const", "float32", 1.0)), ("off_value", ("const", "float32", 0.0))], {}),
    ("Where", [("condition", ("ph", "bool", None))], {}),
    ("Where", [("condition", ("ph", "bool", [U, 3]))], {}),
    ("Pad", [("input", ("ph", "float32", [U, 3])), ("paddings", ("const", "int32", [[1, 2], [0, 1]]))], {}),
    ("Pad", [("input", ("ph", "float32", None)), ("paddings", ("ph", "int32", [3, 2]))], {}),
    ("Pad", [("input", ("ph", "float32", [2, 3])), ("paddings", ("ph", "int32", [3, 2]))], {}),
    ("Pad", [("input", ("ph", "float32", [2, 3])), ("paddings", ("ph", "int32", [2, 3]))], {}),
    ("MirrorPad", [("input", ("ph", "float32", [U, 3])), ("paddings", ("const", "int32", [[1, 1], [2, 0]]))],
     {"mode": "REFLECT"}),
    ("MirrorPad", [("input", ("ph", "float32", None)), ("paddings", ("ph", "int32", [U, 2]))],
     {"mode": "SYMMETRIC"}),
    ("SpaceToDepth", [("input", ("ph", "float32", [U, 4, U, 3]))], {"block_size": 2}),
    ("DepthToSpace", [("input", ("ph", "float32", [U, U, 2, 12]))], {"block_size": 2}),
    ("SpaceToDepth", [("input", ("ph", "float32", [U, 3, 8, 4]))], {"block_size": 2, "data_format": "NCHW"}),
    ("SpaceToBatchND", [("input", ("ph", "float32", [U, 4, U, 3])), ("block_shape", ("const", "int32", [2, 2])),
                        ("paddings", ("const", "int32", [[0, 0], [1, 1]]))], {}),
    ("SpaceToBatchND", [("input", ("ph", "float32", [2, 4, 6, 3])), ("block_shape", ("ph", "int32", [2])),
                        ("paddings", ("const", "int32", [[0, 0], [1, 1]]))], {}),
    ("BatchToSpaceND", [("input", ("ph", "float32", [8, U, 3, 1])), ("block_shape", ("const", "int32", [2, 2])),
                        ("crops", ("ph", "int32", [2, 2]))], {}),
    ("BatchToSpaceND", [("input", ("ph", "float32", [8, U, 3, 1])), ("block_shape", ("const", "int32", [2, 2])),
                        ("crops", ("const", "int32", [[0, 1], [1, 0]]))], {}),
]


def main():
    out = []
    for op, inputs, attrs in CASES:
        g = tf.Graph()
        rec = {"op": op, "inputs": [[a, list(spec)] for a, spec in inputs], "attrs": attrs}
        with g.as_default():
            kw = {}
            for arg, (kind, dtype, v) in inputs:
                if kind == "ph":
                    kw[arg] = tf.placeholder(dtype, v, name=arg)
                else:
                    kw[arg] = tf.constant(np.array(v, dtype=dtype), name=arg)
            try:
                t = getattr(tf.raw_ops, op)(name="op", **kw, **attrs)
                s = t.shape
                rec["shape"] = None if s.rank is None else [-1 if d is None else d for d in s.as_list()]
            except (ValueError, TypeError) as e:
                rec["error"] = {"class": type(e).__name__, "match": _first_line(str(e))}
        out.append(rec)
    path = os.path.join(ROOT, "tests", "fixtures", "indexing", "partial_shapes.json")
    with open(path, "w") as f:
        json.dump({"tf_version": tf.__version__, "cases": out}, f, indent=1)
    print("%d cases -> %s" % (len(out), path))


if __name__ == "__main__":
    main()
