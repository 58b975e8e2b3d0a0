"""Goldens for the space family (issue 3): SpaceToDepth, DepthToSpace, SpaceToBatchND,
BatchToSpaceND.

Run: cd tools/goldens && /opt/tfvenv/bin/python gen_space.py
"""
import numpy as np

from gen_indexing_vals import ALL, val
from golden_lib import Const, Family

i32, i64, f32 = np.int32, np.int64, np.float32
f = Family("space")
x = np.arange(2 * 4 * 6 * 3).reshape(2, 4, 6, 3)

for dt in ALL:
    f.case("SpaceToDepth", [("input", val(x, dt))], {"block_size": 2}, name="SpaceToDepth_" + dt)
    f.case("DepthToSpace", [("input", val(np.arange(48).reshape(1, 2, 3, 8), dt))],
           {"block_size": 2}, name="DepthToSpace_" + dt)
f.case("SpaceToDepth", [("input", f32(np.arange(54).reshape(1, 3, 6, 3)))], {"block_size": 3},
       name="SpaceToDepth_b3")
f.case("SpaceToDepth", [("input", f32(np.zeros((0, 4, 4, 1))))], {"block_size": 2},
       name="SpaceToDepth_empty")
f.case("SpaceToDepth", [("input", f32(np.zeros((1, 3, 4, 1))))], {"block_size": 2},
       name="SpaceToDepth_err_div")
f.case("SpaceToDepth", [("input", f32(np.zeros((3, 4, 1))))], {"block_size": 2},
       name="SpaceToDepth_err_rank")
f.case("SpaceToDepth", [("input", f32(np.zeros((1, 1, 4, 4))))],
       {"block_size": 2, "data_format": "NCHW"}, name="SpaceToDepth_err_nchw",
       match="No OpKernel was registered to support Op 'SpaceToDepth'")
f.case("DepthToSpace", [("input", f32(np.arange(36).reshape(1, 1, 1, 36)))], {"block_size": 3},
       name="DepthToSpace_b3")
f.case("DepthToSpace", [("input", f32(np.zeros((1, 2, 2, 6))))], {"block_size": 2},
       name="DepthToSpace_err_div")
f.case("DepthToSpace", [("input", f32(np.zeros((2, 2, 6))))], {"block_size": 2},
       name="DepthToSpace_err_rank")
f.case("DepthToSpace", [("input", f32(np.zeros((1, 8, 1, 1))))],
       {"block_size": 2, "data_format": "NCHW"}, name="DepthToSpace_err_nchw",
       match="No OpKernel was registered to support Op 'DepthToSpace'")

y = np.arange(2 * 4 * 6 * 2).reshape(2, 4, 6, 2)
# TensorFlow's CPU kernels for these two: real number types only.
for dt in [d for d in ALL if d not in ("bool", "complex64", "complex128", "string")]:
    f.case("SpaceToBatchND", [("input", val(y, dt)), ("block_shape", Const(i32([2, 3]))),
                              ("paddings", Const(i32([[0, 0], [1, 2]])))],
           name="SpaceToBatchND_" + dt)
    f.case("BatchToSpaceND", [("input", val(np.arange(12 * 2 * 3).reshape(12, 2, 3, 1), dt)),
                              ("block_shape", Const(i32([2, 3]))),
                              ("crops", Const(i32([[1, 0], [0, 2]])))],
           name="BatchToSpaceND_" + dt)
f.case("SpaceToBatchND", [("input", f32(np.arange(8).reshape(1, 8))),
                          ("block_shape", Const(i64([4]))), ("paddings", Const(i64([[2, 2]])))],
       name="SpaceToBatchND_1d")
f.case("SpaceToBatchND", [("input", f32(np.arange(24).reshape(2, 3, 4))),
                          ("block_shape", i32([2])), ("paddings", i32([[1, 0]]))],
       name="SpaceToBatchND_run")
f.case("SpaceToBatchND", [("input", f32(np.arange(24).reshape(2, 3, 4))),
                          ("block_shape", Const(i32([2]))), ("paddings", Const(i32([[0, 0]])))],
       name="SpaceToBatchND_err_div")
f.case("SpaceToBatchND", [("input", f32(np.arange(24).reshape(2, 3, 4))),
                          ("block_shape", i32([2])), ("paddings", i32([[0, 0]]))],
       name="SpaceToBatchND_err_div_run")
f.case("SpaceToBatchND", [("input", f32(np.arange(24).reshape(2, 3, 4))),
                          ("block_shape", Const(i32([0]))), ("paddings", Const(i32([[0, 0]])))],
       name="SpaceToBatchND_err_block")
f.case("SpaceToBatchND", [("input", f32(np.arange(24).reshape(2, 3, 4))),
                          ("block_shape", i32([2])), ("paddings", i32([[-1, 0]]))],
       name="SpaceToBatchND_err_neg_pad_run")
f.case("SpaceToBatchND", [("input", f32(np.zeros((0, 4, 1)))),
                          ("block_shape", Const(i32([2]))), ("paddings", Const(i32([[0, 0]])))],
       name="SpaceToBatchND_empty")
f.case("BatchToSpaceND", [("input", f32(np.arange(24).reshape(4, 3, 2))),
                          ("block_shape", i64([2])), ("crops", i64([[1, 2]]))],
       name="BatchToSpaceND_run")
f.case("BatchToSpaceND", [("input", f32(np.arange(24).reshape(3, 4, 2))),
                          ("block_shape", Const(i32([2]))), ("crops", Const(i32([[0, 0]])))],
       name="BatchToSpaceND_err_batch")
f.case("BatchToSpaceND", [("input", f32(np.arange(24).reshape(3, 4, 2))),
                          ("block_shape", i32([2])), ("crops", i32([[0, 0]]))],
       name="BatchToSpaceND_err_batch_run")
f.case("BatchToSpaceND", [("input", f32(np.arange(24).reshape(4, 3, 2))),
                          ("block_shape", Const(i32([2]))), ("crops", Const(i32([[4, 3]])))],
       name="BatchToSpaceND_err_crop")
f.case("BatchToSpaceND", [("input", f32(np.arange(24).reshape(4, 3, 2))),
                          ("block_shape", i32([2])), ("crops", i32([[4, 3]]))],
       name="BatchToSpaceND_err_crop_run")
f.case("BatchToSpaceND", [("input", f32(np.arange(24).reshape(4, 3, 2))),
                          ("block_shape", i32([2])), ("crops", i32([[-1, 0]]))],
       name="BatchToSpaceND_err_neg_crop_run")
f.case("SpaceToBatchND", [("input", val(y, "string")), ("block_shape", Const(i32([2, 3]))),
                          ("paddings", Const(i32([[0, 0], [1, 2]])))], name="SpaceToBatchND_err_string",
       match="No OpKernel was registered to support Op 'SpaceToBatchND'")
f.case("BatchToSpaceND", [("input", val(np.arange(4).reshape(4, 1), "bool")),
                          ("block_shape", Const(i32([2]))), ("crops", Const(i32([[0, 0]])))],
       name="BatchToSpaceND_err_bool",
       match="No OpKernel was registered to support Op 'BatchToSpaceND'")
f.write()
