"""Goldens for the sparse family (issue 4): SparseToDense, SparseReorder,
SparseTensorDenseMatMul, SparseAdd, SparseTensorDenseAdd.

Run: /opt/tfvenv/bin/python tools/goldens/gen_sparse.py
"""
import numpy as np

from golden_lib import Const, Family, tf

f = Family("sparse")
f32, f64, i32, i64 = np.float32, np.float64, np.int32, np.int64
rng = np.random.RandomState(4)


def vals(dtype, xs):
    """xs as dtype (strings as bytes, bools as x != 0)."""
    if dtype == "string":
        return np.array([str(x).encode() for x in xs], dtype=object)
    if dtype == "bool":
        return np.array([x != 0 for x in xs])
    return np.array(xs).astype(tf.as_dtype(dtype).as_numpy_dtype)


# ---- SparseToDense ----



ix2 = i64([[0, 1], [1, 2], [2, 0]])
for dt in ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
           "uint8", "uint16", "uint32", "uint64", "bool", "complex64", "complex128", "string"]:
    f.case("SparseToDense", [("sparse_indices", ix2), ("output_shape", Const(i64([3, 4]))),
                             ("sparse_values", vals(dt, [1, 2, 3])),
                             ("default_value", vals(dt, [7])[0] if dt != "bool" else np.bool_(0))],
           name="SparseToDense_" + dt)
f.case("SparseToDense", [("sparse_indices", i32([[0, 0, 1], [1, 1, 0]])),
                         ("output_shape", Const(i32([2, 2, 2]))),
                         ("sparse_values", f32([5, 6])), ("default_value", f32(-1))],
       name="SparseToDense_int32_indices")
f.case("SparseToDense", [("sparse_indices", i32([1, 3])), ("output_shape", Const(i32([5]))),
                         ("sparse_values", f32(7)), ("default_value", f32(-1))],
       name="SparseToDense_vector_scalar_value")
f.case("SparseToDense", [("sparse_indices", i32(3)), ("output_shape", Const(i32([5]))),
                         ("sparse_values", f32(7)), ("default_value", f32(-1))],
       name="SparseToDense_scalar_index")
f.case("SparseToDense", [("sparse_indices", np.zeros((0, 2), i64)),
                         ("output_shape", Const(i64([2, 3]))),
                         ("sparse_values", f32([])), ("default_value", f32(4))],
       name="SparseToDense_empty")
f.case("SparseToDense", [("sparse_indices", np.zeros((0, 2), i64)),
                         ("output_shape", Const(i64([0, 3]))),
                         ("sparse_values", f32([])), ("default_value", f32(4))],
       name="SparseToDense_zero_size")
f.case("SparseToDense", [("sparse_indices", i64([[0, 1], [1, 0]])),
                         ("output_shape", i64([2, 3])),
                         ("sparse_values", f32([1, 2])), ("default_value", f32(0))],
       name="SparseToDense_fed_shape")
# validate_indices errors and their absence
for name, ix in [("out_of_order", [[1, 0], [0, 1]]), ("repeated", [[0, 1], [0, 1]]),
                 ("out_of_bounds", [[0, 1], [2, 1]]), ("negative", [[0, 1], [-1, 1]]),
                 ("first_out_of_bounds", [[0, 5], [0, 1]])]:
    for validate in (True, False):
        f.case("SparseToDense", [("sparse_indices", i64(ix)), ("output_shape", Const(i64([2, 2]))),
                                 ("sparse_values", f32([1, 2])), ("default_value", f32(0))],
               {"validate_indices": validate},
               name="SparseToDense_%s_%s" % (name, "validate" if validate else "novalidate"))
f.case("SparseToDense", [("sparse_indices", i64([1, 0])), ("output_shape", Const(i64([2]))),
                         ("sparse_values", f32([1, 2])), ("default_value", f32(0))],
       name="SparseToDense_vector_out_of_order")
f.case("SparseToDense", [("sparse_indices", i32([[1, 3]])), ("output_shape", Const(i32([5, 5, 5]))),
                         ("sparse_values", f32([7])), ("default_value", f32(-1))],
       name="SparseToDense_shape_count")
f.case("SparseToDense", [("sparse_indices", i32([[1, 3]])), ("output_shape", Const(i32([5, 5]))),
                         ("sparse_values", f32([7, 8])), ("default_value", f32(-1))],
       name="SparseToDense_values_shape")
f.case("SparseToDense", [("sparse_indices", i32([[1, 3]])), ("output_shape", Const(i32([5, 5]))),
                         ("sparse_values", f32([7])), ("default_value", f32([-1]))],
       name="SparseToDense_default_not_scalar")
f.case("SparseToDense", [("sparse_indices", i32([[[1, 3]]])), ("output_shape", Const(i32([5, 5]))),
                         ("sparse_values", f32([7])), ("default_value", f32(-1))],
       name="SparseToDense_indices_rank3")
f.case("SparseToDense", [("sparse_indices", i32([[1, 3]])), ("output_shape", Const(i32([[5, 5]]))),
                         ("sparse_values", f32([7])), ("default_value", f32(-1))],
       name="SparseToDense_shape_rank2")
f.case("SparseToDense", [("sparse_indices", i32([[1, 3]])), ("output_shape", Const(i32([5, -5]))),
                         ("sparse_values", f32([7])), ("default_value", f32(-1))],
       name="SparseToDense_negative_const_shape")
f.case("SparseToDense", [("sparse_indices", i32([[1, 3]])), ("output_shape", i32([5, -5])),
                         ("sparse_values", f32([7])), ("default_value", f32(-1))],
       name="SparseToDense_negative_fed_shape")

# ---- SparseReorder ----
def reorder(ix, v, shape, name):
    f.case("SparseReorder", [("input_indices", i64(ix)), ("input_values", v),
                             ("input_shape", i64(shape))], name=name)


unsorted = [[1, 0, 2], [0, 3, 1], [0, 1, 4], [1, 0, 0], [0, 1, 0]]
for dt in ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
           "uint8", "uint16", "uint32", "uint64", "bool", "complex64", "complex128", "string"]:
    reorder(unsorted, vals(dt, [1, 2, 3, 4, 5]), [2, 4, 5], "SparseReorder_" + dt)
reorder([[0, 1], [1, 0]], f32([1, 2]), [2, 2], "SparseReorder_sorted")
reorder([[1, 0], [0, 1], [1, 0]], f32([1, 2, 3]), [2, 2], "SparseReorder_duplicates")
reorder([[1, 0], [0, 5]], f32([1, 2]), [2, 2], "SparseReorder_out_of_bounds")
reorder([[1, 0], [0, -1]], f32([1, 2]), [2, 2], "SparseReorder_negative")
reorder(np.zeros((0, 2)), f32([]), [2, 2], "SparseReorder_empty")
reorder([[3], [1], [2]], f32([1, 2, 3]), [4], "SparseReorder_rank1")
big = np.array(sorted({tuple(x) for x in rng.randint(0, 9, size=(120, 3))}))
big = big[rng.permutation(len(big))]
reorder(big, f32(rng.randn(len(big))), [9, 9, 9], "SparseReorder_large")
reorder([[1, 0], [0, 1]], f32([1, 2, 3]), [2, 2], "SparseReorder_values_count")
reorder([[1, 0], [0, 1]], f32([1, 2]), [2, 2, 2], "SparseReorder_rank_mismatch")
reorder([1, 0], f32([1, 2]), [2], "SparseReorder_indices_vector")

# ---- SparseTensorDenseMatMul ----
def spmm(ix, v, shape, b, name, const_shape=True, **attrs):
    f.case("SparseTensorDenseMatMul",
           [("a_indices", ix), ("a_values", v),
            ("a_shape", Const(i64(shape)) if const_shape else i64(shape)), ("b", b)],
           attrs or None, name=name)


A_ix = i64([[0, 2], [1, 0], [1, 3], [2, 1]])
A_v = [1, 2, -3, 4]
B = np.arange(12).reshape(4, 3) - 4
for adj_a in (False, True):
    for adj_b in (False, True):
        shape = [4, 3] if adj_a else [3, 4]
        ix = A_ix[:, ::-1].copy() if adj_a else A_ix
        b = B.T.copy() if adj_b else B
        spmm(ix, f32(A_v), shape, f32(b), "SparseTensorDenseMatMul_%d%d" % (adj_a, adj_b),
             adjoint_a=adj_a, adjoint_b=adj_b)
for dt in ["float64", "int32", "float16", "bfloat16"]:
    spmm(A_ix, vals(dt, A_v), [3, 4], vals(dt, B.ravel()).reshape(4, 3),
         "SparseTensorDenseMatMul_" + dt)
cA = np.complex64(np.array(A_v) + 1j * np.array([0, 1, -1, 2]))
cB = np.complex64(B + 0.5j * B[::-1])
for adj_a in (False, True):
    for adj_b in (False, True):
        ix = A_ix[:, ::-1].copy() if adj_a else A_ix
        b = cB.T.copy() if adj_b else cB
        spmm(ix, cA, [4, 3] if adj_a else [3, 4], b, "SparseTensorDenseMatMul_c64_%d%d" %
             (adj_a, adj_b), adjoint_a=adj_a, adjoint_b=adj_b)
spmm(A_ix, np.complex128(cA), [3, 4], np.complex128(cB), "SparseTensorDenseMatMul_c128",
     adjoint_b=False)
spmm(i32(A_ix), f32(A_v), [3, 4], f32(B), "SparseTensorDenseMatMul_int32_indices")
spmm(i64([[1, 0], [0, 1], [1, 0]]), f32([1, 2, 3]), [2, 2], f32([[1, 2], [3, 4]]),
     "SparseTensorDenseMatMul_unsorted_duplicates")
wide_ix = np.array(sorted({tuple(x) for x in rng.randint(0, 12, size=(40, 2))}))
spmm(wide_ix, f32(rng.randn(len(wide_ix))), [12, 12], f32(rng.randn(12, 40)),
     "SparseTensorDenseMatMul_wide")
spmm(wide_ix, f32(rng.randn(len(wide_ix))), [12, 12], f32(rng.randn(40, 12)),
     "SparseTensorDenseMatMul_wide_adjoint_b", adjoint_b=True)
spmm(np.zeros((0, 2), i64), f32([]), [2, 3], f32(B[:3, :2]), "SparseTensorDenseMatMul_empty")
spmm(i64([[0, 3], [1, 0]]), f32([1, 2]), [2, 3], f32(B[:3]), "SparseTensorDenseMatMul_k_bounds")
spmm(i64([[2, 2], [1, 0]]), f32([1, 2]), [2, 3], f32(B[:3]), "SparseTensorDenseMatMul_m_bounds")
spmm(i64([[0, 2], [-1, 0]]), f32([1, 2]), [2, 3], f32(B[:3]), "SparseTensorDenseMatMul_negative")
spmm(i64([[0, 2], [1, 0]]), f32([1, 2]), [3, 2], f32(B[:3]), "SparseTensorDenseMatMul_adj_bounds",
     adjoint_a=True)
spmm(i64([[0, 2], [1, 0]]), f32([1, 2]), [2, 4], f32(B[:3]), "SparseTensorDenseMatMul_inner_const")
spmm(i64([[0, 2], [1, 0]]), f32([1, 2]), [2, 4], f32(B[:3]), "SparseTensorDenseMatMul_inner_fed",
     const_shape=False)
spmm(i64([[0, 2], [1, 0]]), f32([1, 2, 3]), [2, 3], f32(B[:3]), "SparseTensorDenseMatMul_rows")
spmm(i64([[0, 2], [1, 0]]), f32([1, 2]), [2, 3, 4], f32(B[:3]), "SparseTensorDenseMatMul_shape_rank")
spmm(i64([[0, 2], [1, 0]]), f32([1, 2]), [2, 3], f32(B[0]), "SparseTensorDenseMatMul_b_vector")

# ---- SparseAdd ----
def sadd(a, b, thresh, name, a_shape=(2, 3), b_shape=None):
    ai, av = a
    bi, bv = b
    f.case("SparseAdd", [("a_indices", i64(ai)), ("a_values", av), ("a_shape", i64(a_shape)),
                         ("b_indices", i64(bi)), ("b_values", bv),
                         ("b_shape", i64(a_shape if b_shape is None else b_shape)),
                         ("thresh", thresh)], name=name)


ai = [[0, 1], [1, 0], [1, 2]]
bi = [[0, 0], [1, 0], [1, 1], [1, 2]]
for dt in ["float32", "float64", "int8", "int16", "int32", "int64"]:
    sadd((ai, vals(dt, [1, 2, 3])), (bi, vals(dt, [4, -2, 5, -1])), vals(dt, [0])[0],
         "SparseAdd_" + dt)
sadd((ai, f32([1, 2, 0.25])), (bi, f32([4, -2, 5, -0.5])), f32(0.5), "SparseAdd_thresh")
sadd((ai, f32([0.125, 2, 3])), (bi, f32([0.25, -2, 0.1, -1])), f32(1), "SparseAdd_thresh_one_side")
sadd((ai, i32([1, 2, 3])), (bi, i32([4, -2, 5, -1])), i32(3), "SparseAdd_int32_thresh")
sadd((ai, np.complex64([1 + 1j, 2, 3j])), (bi, np.complex64([4, -2, 5, -3j + 0.5])), f32(0.6),
     "SparseAdd_complex64")
sadd((ai, np.complex128([1 + 1j, 2, 3j])), (bi, np.complex128([4, -2, 5, -3j])), f64(0),
     "SparseAdd_complex128")
sadd((np.zeros((0, 2)), f32([])), (bi, f32([4, -2, 5, -1])), f32(0), "SparseAdd_empty_a")
sadd((ai, f32([1, 2, 3])), (np.zeros((0, 2)), f32([])), f32(0), "SparseAdd_empty_b")
sadd(([[0, 2], [0, 1]], f32([1, 2])), ([[0, 1]], f32([3])), f32(0), "SparseAdd_unsorted")
sadd((ai, f32([1, 2, 3])), (bi, f32([4, -2, 5, -1])), f32(0), "SparseAdd_shape_mismatch",
     b_shape=(2, 4))
sadd((ai, f32([1, 2, 3])), ([[0, 0, 0]], f32([4])), f32(0), "SparseAdd_indices_dims",
     b_shape=(2, 3, 1))
sadd((ai, f32([1, 2, 3])), (bi, f32([4, -2, 5, -1])), f32([0]), "SparseAdd_thresh_not_scalar")
sadd((ai, f32([1, 2, 3])), (bi, f32([4, -2, 5])), f32(0), "SparseAdd_values_count")
sadd((ai, f32([1, 2, 3])), ([[0, 0]], f32([1])), f32(0), "SparseAdd_shape_ranks",
     b_shape=(2, 3, 1))
sadd(([[0, 1, 1]], f32([1])), ([[0, 0, 1]], f32([1])), f32(0), "SparseAdd_indices_vs_shape")
sadd(([0, 1], f32([1, 2])), (bi, f32([4, -2, 5, -1])), f32(0), "SparseAdd_indices_vector")
sadd((np.zeros((1, 0)), f32([1])), (np.zeros((1, 0)), f32([2])), f32(0), "SparseAdd_scalar",
     a_shape=())

# ---- SparseTensorDenseAdd ----
def dadd(ix, v, shape, b, name):
    f.case("SparseTensorDenseAdd", [("a_indices", ix), ("a_values", v), ("a_shape", shape),
                                    ("b", b)], name=name)


dense = np.arange(6).reshape(2, 3)
for dt in ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64",
           "uint8", "uint16", "uint32", "uint64", "complex64", "complex128"]:
    dadd(i64([[0, 1], [1, 2], [1, 0]]), vals(dt, [10, 20, 30]), i64([2, 3]),
         vals(dt, dense.ravel()).reshape(2, 3), "SparseTensorDenseAdd_" + dt)
dadd(i32([[0, 1], [0, 1]]), f32([1, 2]), i32([2, 3]), f32(dense), "SparseTensorDenseAdd_repeated")
dadd(i64([[3], [0]]), f32([1, 2]), i64([4]), f32([1, 1, 1, 1]), "SparseTensorDenseAdd_rank1")
dadd(i64([[1, 0, 1, 0, 1]]), f32([5]), i64([2, 1, 2, 1, 2]), f32(np.ones((2, 1, 2, 1, 2))),
     "SparseTensorDenseAdd_rank5")
dadd(i64(np.zeros((1, 6))), f32([1]), i64([1] * 6), f32(np.ones((1,) * 6)),
     "SparseTensorDenseAdd_rank6")
dadd(i64([[0, 1], [1, 0]]), f32([1, 2]), i64([2, 3]), f32(np.ones((2, 2))),
     "SparseTensorDenseAdd_shape_mismatch")
dadd(i64([[0, 1], [1, 5]]), f32([1, 2]), i64([2, 2]), f32(np.ones((2, 2))),
     "SparseTensorDenseAdd_bounds")
dadd(i64([[0], [3]]), f32([1, 2]), i64([3]), f32([1, 1, 1]), "SparseTensorDenseAdd_bounds_rank1")
dadd(i32([[0, 1], [0, 1]]), f32([1, 2, 3]), i32([2, 2]), f32(np.ones((2, 2))),
     "SparseTensorDenseAdd_values_count")
dadd(i32([[0, 1], [0, 1]]), f32([1, 2]), i32([2]), f32(np.ones((2, 2))),
     "SparseTensorDenseAdd_shape_count")
dadd(i32([[0, 1], [0, 1]]), f32([1, 2]), i32([2, 2]), f32([1, 1]),
     "SparseTensorDenseAdd_ranks")
dadd(i64([0, 1]), f32([1, 2]), i64([2, 2]), f32(np.ones((2, 2))),
     "SparseTensorDenseAdd_indices_vector")
f.write()
