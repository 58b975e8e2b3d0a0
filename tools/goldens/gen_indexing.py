"""Goldens for the indexing family (issue 3): Slice, StridedSlice, GatherV2, GatherNd,
ScatterNd, OneHot, Where, Pad, PadV2, MirrorPad.

Run: cd tools/goldens && /opt/tfvenv/bin/python gen_indexing.py
"""
import numpy as np

from golden_lib import Const, Family

from gen_indexing_vals import ALL, val

i32, i64, f32 = np.int32, np.int64, np.float32
f = Family("indexing")
x34 = np.arange(12).reshape(3, 4)

# ---- Slice ----
for dt in ALL:
    f.case("Slice", [("input", val(x34, dt)), ("begin", Const(i32([1, 1]))),
                     ("size", Const(i32([2, -1])))], name="Slice_" + dt)
f.case("Slice", [("input", f32(np.arange(24).reshape(2, 3, 4))), ("begin", Const(i64([0, 1, 2]))),
                 ("size", Const(i64([-1, 2, 1])))])
f.case("Slice", [("input", f32(x34)), ("begin", i32([1, 0])), ("size", i32([0, 4]))], name="Slice_empty")
f.case("Slice", [("input", f32(np.zeros((0, 3)))), ("begin", i32([0, 1])), ("size", i32([-1, 2]))],
       name="Slice_empty_in")
f.case("Slice", [("input", f32(7)), ("begin", i32(np.zeros(0))), ("size", i32(np.zeros(0)))],
       name="Slice_scalar")
f.case("Slice", [("input", f32(x34)), ("begin", Const(i32([2, 0]))), ("size", Const(i32([2, 1])))],
       name="Slice_err_const_size")
f.case("Slice", [("input", f32(x34)), ("begin", Const(i32([-1, 0]))), ("size", Const(i32([1, 1])))],
       name="Slice_err_const_begin")
f.case("Slice", [("input", f32(x34)), ("begin", i32([2, 0])), ("size", i32([2, 1]))],
       name="Slice_err_run_size")
f.case("Slice", [("input", f32(x34)), ("begin", i32([4, 0])), ("size", i32([0, 1]))],
       name="Slice_err_run_begin")
f.case("Slice", [("input", f32(x34)), ("begin", i32([0, 0, 0])), ("size", i32([1, 1, 1]))],
       name="Slice_err_rank")
f.case("Slice", [("input", f32(x34)), ("begin", Const(i32([0]))), ("size", Const(i32([1])))],
       name="Slice_err_const_rank")
f.case("Slice", [("input", f32(x34)), ("begin", i32([0, 0])), ("size", i32([1, -2]))],
       name="Slice_err_run_neg_size")


# ---- StridedSlice ----
def ss(x, b, e, s, name, const=True, index=i32, **masks):
    mk = (lambda v: Const(index(v))) if const else (lambda v: index(v))
    f.case("StridedSlice", [("input", x), ("begin", mk(b)), ("end", mk(e)), ("strides", mk(s))],
           masks, name="StridedSlice_" + name)


x33 = np.int32([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
# x[::2, ::-1], masks as TensorFlow's __getitem__ makes them
ss(x33, [0, 0], [0, 0], [2, -1], "getitem_step2_rev", begin_mask=3, end_mask=3)
ss(x33, [0, 0], [0, 0], [2, -1], "getitem_step2_rev_run", const=False, begin_mask=3, end_mask=3)
for dt in ALL:
    ss(val(x34, dt), [0, 3], [3, 0], [2, -1], dt)
x234 = f32(np.arange(24).reshape(2, 3, 4))
ss(x234, [1], [2], [1], "shrink0", shrink_axis_mask=1)
ss(x234, [1], [2], [1], "shrink0_run", const=False, shrink_axis_mask=1)
ss(x234, [0, -1], [0, 0], [1, 1], "ellipsis_shrink_last", ellipsis_mask=1, shrink_axis_mask=2)
ss(x234, [0, 0, 1], [0, 0, 3], [1, 1, 1], "newaxis_ellipsis", new_axis_mask=1, ellipsis_mask=2)
ss(x234, [0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 1, 1], "newaxis_mid", new_axis_mask=2,
   begin_mask=15, end_mask=15)
ss(x234, [-100, 1], [100, -1], [1, 1], "clamp")
ss(x234, [-100, 1], [100, -1], [1, 1], "clamp_run", const=False)
ss(x234, [5, 10], [-5, -10], [-1, -3], "clamp_neg")
ss(x234, [5, 10], [-5, -10], [-1, -3], "clamp_neg_run", const=False)
ss(x234, [1, 2], [0, 0], [1, 1], "empty")
ss(x234, [0], [0], [1], "all_masks_end", end_mask=1)
ss(x234, [0, 0, 0], [0, 0, 0], [1, 1, 1], "all_shrink", shrink_axis_mask=7)
ss(x234, [-1, -1, -1], [0, 0, 0], [1, 1, 1], "all_shrink_neg", shrink_axis_mask=7)
ss(x234, [0, 0], [1, 1], [1, 1], "ellipsis_new", ellipsis_mask=1, new_axis_mask=2)
ss(x234, [1], [2], [1], "int64", index=i64)
ss(x234, [1], [2], [1], "int64_run", const=False, index=i64)
ss(x234, [0, 0, 0], [2, 3, 4], [1, 1, 1], "int16", index=np.int16)
ss(f32(7), [0], [0], [1], "scalar_newaxis", new_axis_mask=1)
ss(f32(np.zeros((0, 3))), [0, 1], [5, 3], [1, 1], "empty_in")
ss(x234, [0], [1], [0], "err_zero_stride")
ss(x234, [0], [1], [0], "err_zero_stride_run", const=False)
ss(x234, [3], [4], [1], "err_shrink_oob", shrink_axis_mask=1)
ss(x234, [3], [4], [1], "err_shrink_oob_run", const=False, shrink_axis_mask=1)
ss(x234, [0, 0], [1, 1], [1, 1], "err_two_ellipsis", ellipsis_mask=3)
ss(x234, [0, 0], [1, 1, 1], [1, 1], "err_len")
ss(x234, [0, 0], [1, 1, 1], [1, 1], "err_len_run", const=False)
ss(x234, [0, 0, 0, 0], [1, 1, 1, 1], [1, 1, 1, 1], "err_too_many")
ss(x234, [0, 0, 0, 0], [1, 1, 1, 1], [1, 1, 1, 1], "err_too_many_run", const=False)

# ---- GatherV2 ----
for dt in ALL:
    f.case("GatherV2", [("params", val(x34, dt)), ("indices", i32([2, 0, 2])),
                        ("axis", Const(i32(0)))], name="GatherV2_" + dt)
f.case("GatherV2", [("params", f32(x234)), ("indices", i64([[3, 0], [1, 1]])),
                    ("axis", Const(i64(-1)))], name="GatherV2_neg_axis")
f.case("GatherV2", [("params", f32(x234)), ("indices", i32([[2, 0], [1, 1]])),
                    ("axis", i32(1))], name="GatherV2_axis_run")
f.case("GatherV2", [("params", f32(x234)), ("indices", i32([[2, 0, 1], [1, 1, 0]])),
                    ("axis", Const(i32(2)))], {"batch_dims": 1}, name="GatherV2_batch1")
f.case("GatherV2", [("params", f32(x234)), ("indices", i32([[[2], [0], [1]], [[1], [1], [0]]])),
                    ("axis", Const(i32(2)))], {"batch_dims": -1}, name="GatherV2_batch_neg")
f.case("GatherV2", [("params", f32(x234)), ("indices", np.int16([1, 0])),
                    ("axis", Const(i32(1)))], name="GatherV2_int16")
f.case("GatherV2", [("params", f32(x34)), ("indices", i32(np.zeros((0, 2)))),
                    ("axis", Const(i32(0)))], name="GatherV2_empty_idx")
f.case("GatherV2", [("params", f32(np.zeros((0, 2)))), ("indices", i32([])),
                    ("axis", Const(i32(0)))], name="GatherV2_empty_params")
f.case("GatherV2", [("params", f32(x34)), ("indices", i32(1)),
                    ("axis", Const(i32(1)))], name="GatherV2_scalar_idx")
f.case("GatherV2", [("params", f32([1, 2, 3])), ("indices", i32([0, 5])),
                    ("axis", Const(i32(0)))], name="GatherV2_err_oob")
f.case("GatherV2", [("params", f32(x34)), ("indices", i64([1, -1])),
                    ("axis", Const(i32(1)))], name="GatherV2_err_neg")
f.case("GatherV2", [("params", f32(x34)), ("indices", i32([1])),
                    ("axis", Const(i32(2)))], name="GatherV2_err_axis")
f.case("GatherV2", [("params", f32(x34)), ("indices", i32([1])),
                    ("axis", i32(-3))], name="GatherV2_err_axis_run")
f.case("GatherV2", [("params", f32(x34)), ("indices", i32([1])),
                    ("axis", Const(i32(0)))], {"batch_dims": 2}, name="GatherV2_err_batch")
f.case("GatherV2", [("params", f32(x234)), ("indices", i32([[1], [0], [1]])),
                    ("axis", Const(i32(1)))], {"batch_dims": 1}, name="GatherV2_err_batch_dim")

# ---- GatherNd ----
for dt in ALL:
    f.case("GatherNd", [("params", val(x34, dt)), ("indices", i32([[2, 1], [0, 3]]))],
           name="GatherNd_" + dt)
f.case("GatherNd", [("params", f32(x234)), ("indices", i64([[[1], [0]]]))], name="GatherNd_slices")
f.case("GatherNd", [("params", f32(x234)), ("indices", i32(np.zeros((2, 0))))],
       name="GatherNd_empty_last")
f.case("GatherNd", [("params", f32(x234)), ("indices", i32(np.zeros((0, 2))))],
       name="GatherNd_empty")
f.case("GatherNd", [("params", f32(x234)), ("indices", i32([1, 2, 3]))], name="GatherNd_full")
f.case("GatherNd", [("params", f32(x34)), ("indices", i32([[1, 4]]))], name="GatherNd_err_oob")
f.case("GatherNd", [("params", f32(x34)), ("indices", i32([[1, 0, 0]]))], name="GatherNd_err_depth")
f.case("GatherNd", [("params", f32(x34)), ("indices", i32(1))], name="GatherNd_err_scalar_idx")

# ---- ScatterNd ----
for dt in ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
           "uint8", "uint16", "uint32", "uint64", "complex64", "complex128", "bool"]:
    f.case("ScatterNd", [("indices", i32([[1], [3], [1]])), ("updates", val([1, 2, 3], dt)),
                         ("shape", Const(i32([5])))], name="ScatterNd_" + dt)
f.case("ScatterNd", [("indices", i64([[0, 1], [2, 0]])), ("updates", f32([[1, 2], [3, 4]])),
                     ("shape", Const(i64([3, 2, 2])))], name="ScatterNd_slices")
f.case("ScatterNd", [("indices", i32([[0, 1], [2, 0]])), ("updates", f32([[1, 2], [3, 4]])),
                     ("shape", i32([3, 2, 2]))], name="ScatterNd_shape_run")
f.case("ScatterNd", [("indices", i32([[1], [7]])), ("updates", f32([1, 2])),
                     ("shape", Const(i32([5])))], name="ScatterNd_err_oob")
f.case("ScatterNd", [("indices", i32([[1], [2]])), ("updates", f32([1, 2, 3])),
                     ("shape", Const(i32([5])))], name="ScatterNd_err_updates")
f.case("ScatterNd", [("indices", i32([[1], [2]])), ("updates", f32([1, 2, 3])),
                     ("shape", i32([5]))], name="ScatterNd_err_updates_run")
f.case("ScatterNd", [("indices", i32(np.zeros((0, 1)))), ("updates", f32([])),
                     ("shape", Const(i32([3])))], name="ScatterNd_empty")
f.case("ScatterNd", [("indices", i32([[1], [7]])), ("updates", f32([1, 2])),
                     ("shape", Const(i32([0])))], name="ScatterNd_err_empty_shape")
f.case("ScatterNd", [("indices", i32([[1]])), ("updates", np.int32([2147483647])),
                     ("shape", Const(i32([2])))], name="ScatterNd_int_one")
f.case("ScatterNd", [("indices", i32([[1], [1]])), ("updates", np.int32([2147483647, 1])),
                     ("shape", Const(i32([2])))], name="ScatterNd_int_wrap")

# ---- OneHot ----
for dt in ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
           "uint8", "uint16", "uint32", "uint64", "complex64", "complex128", "bool", "string"]:
    f.case("OneHot", [("indices", i64([0, 2, -1, 5])), ("depth", Const(i32(3))),
                      ("on_value", val(5, dt)), ("off_value", val(2, dt))], name="OneHot_" + dt)
for ti in [np.uint8, np.int8, np.int32]:
    f.case("OneHot", [("indices", ti([[0, 2], [1, 3]])), ("depth", Const(i32(3))),
                      ("on_value", f32(1)), ("off_value", f32(0))], {"axis": 0},
           name="OneHot_axis0_" + np.dtype(ti).name)
f.case("OneHot", [("indices", i32([[0, 2], [1, 3]])), ("depth", i32(4)),
                  ("on_value", f32(1)), ("off_value", f32(0))], {"axis": 1}, name="OneHot_axis1")
f.case("OneHot", [("indices", i32(1)), ("depth", Const(i32(3))),
                  ("on_value", f32(1)), ("off_value", f32(0))], name="OneHot_scalar")
f.case("OneHot", [("indices", i32([1])), ("depth", Const(i32(0))),
                  ("on_value", f32(1)), ("off_value", f32(0))], name="OneHot_depth0")
f.case("OneHot", [("indices", i32([1])), ("depth", Const(i32(-1))),
                  ("on_value", f32(1)), ("off_value", f32(0))], name="OneHot_err_depth")
f.case("OneHot", [("indices", i32([1])), ("depth", i32(-1)),
                  ("on_value", f32(1)), ("off_value", f32(0))], name="OneHot_err_depth_run")
f.case("OneHot", [("indices", i32([1])), ("depth", Const(i32(3))),
                  ("on_value", f32(1)), ("off_value", f32(0))], {"axis": -2}, name="OneHot_err_axis")
f.case("OneHot", [("indices", i32([1])), ("depth", Const(i32(3))),
                  ("on_value", f32([1])), ("off_value", f32(0))], name="OneHot_err_on")

# ---- Where ----
for dt in ["bool", "float32", "float64", "float16", "bfloat16", "int8", "int16", "int32",
           "int64", "uint8", "uint16", "uint32", "uint64", "complex64", "complex128"]:
    f.case("Where", [("condition", val([[0, 3, 0], [2, 0, 5]], dt))], name="Where_" + dt)
f.case("Where", [("condition", np.array([True, False, True]))], name="Where_1d")
f.case("Where", [("condition", np.array(True))], name="Where_scalar")
f.case("Where", [("condition", np.array(False))], name="Where_scalar_false")
f.case("Where", [("condition", np.zeros((0, 3), bool))], name="Where_empty")
f.case("Where", [("condition", f32([np.nan, 0, -0.0, np.inf]))], name="Where_nan")
f.case("Where", [("condition", (np.arange(24).reshape(2, 3, 4) % 3 == 0))], name="Where_3d")

# ---- Pad / PadV2 / MirrorPad ----
for dt in ALL:
    f.case("Pad", [("input", val([[1, 2], [3, 4]], dt)), ("paddings", Const(i32([[1, 0], [0, 2]])))],
           name="Pad_" + dt)
for dt in ALL:
    f.case("PadV2", [("input", val([[1, 2], [3, 4]], dt)), ("paddings", i32([[0, 1], [1, 1]])),
                     ("constant_values", val(7, dt))], name="PadV2_" + dt)
f.case("Pad", [("input", f32(7)), ("paddings", Const(i32(np.zeros((0, 2)))))], name="Pad_scalar")
f.case("Pad", [("input", f32(np.zeros((0, 2)))), ("paddings", Const(i64([[1, 1], [0, 0]])))],
       name="Pad_empty")
f.case("Pad", [("input", f32([1, 2])), ("paddings", i32([[1, 1]]))], name="Pad_run")
f.case("Pad", [("input", f32([1, 2])), ("paddings", Const(i32([[-1, 1]])))], name="Pad_err_neg")
f.case("Pad", [("input", f32([1, 2])), ("paddings", i32([[-1, 1]]))], name="Pad_err_neg_run")
f.case("Pad", [("input", f32([1, 2])), ("paddings", Const(i32([[1, 1], [1, 1]])))],
       name="Pad_err_rank")
f.case("Pad", [("input", f32([1, 2])), ("paddings", i32([[1, 1], [1, 1]]))], name="Pad_err_rank_run")
f.case("Pad", [("input", f32([1, 2])), ("paddings", Const(i32([1, 1])))], name="Pad_err_shape")
f.case("PadV2", [("input", f32([1, 2])), ("paddings", i32([[1, 1]])),
                 ("constant_values", f32([1]))], name="PadV2_err_cv")
for mode in ["REFLECT", "SYMMETRIC"]:
    for dt in ALL:
        f.case("MirrorPad", [("input", val(x34, dt)), ("paddings", Const(i32([[2, 1], [1, 3]])))],
               {"mode": mode}, name="MirrorPad_%s_%s" % (mode, dt))
    f.case("MirrorPad", [("input", f32(x234)), ("paddings", i64([[1, 1], [0, 2], [3, 0]]))],
           {"mode": mode}, name="MirrorPad_%s_3d" % mode)
f.case("MirrorPad", [("input", f32(x34)), ("paddings", Const(i32([[3, 0], [0, 0]])))],
       {"mode": "REFLECT"}, name="MirrorPad_err_reflect")
f.case("MirrorPad", [("input", f32(x34)), ("paddings", i32([[3, 0], [0, 0]]))],
       {"mode": "REFLECT"}, name="MirrorPad_err_reflect_run")
f.case("MirrorPad", [("input", f32(x34)), ("paddings", Const(i32([[4, 0], [0, 0]])))],
       {"mode": "SYMMETRIC"}, name="MirrorPad_err_symmetric")
f.case("MirrorPad", [("input", f32(x34)), ("paddings", i32([[0, 0], [0, 5]]))],
       {"mode": "SYMMETRIC"}, name="MirrorPad_err_symmetric_run")
f.case("MirrorPad", [("input", f32(x34)), ("paddings", i32([[0, 0], [-1, 0]]))],
       {"mode": "SYMMETRIC"}, name="MirrorPad_err_neg_run")
f.case("MirrorPad", [("input", f32(7)), ("paddings", i32(np.zeros((0, 2))))],
       {"mode": "REFLECT"}, name="MirrorPad_scalar")
# ScatterNd on strings: duplicate indices concatenate (TF's tstring "add")
f.case("ScatterNd", [("indices", np.int32([[0], [0], [2], [0]])),
                     ("updates", np.array([b"a", b"bc", b"x" * 30, b"d"], dtype=object)),
                     ("shape", Const(np.int32([4])))], name="ScatterNd_string_concat")
f.write()
