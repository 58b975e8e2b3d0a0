"""Matrix products of the TF1 API: tf.matmul / tf.linalg.matmul for batches, tf.einsum /
tf.linalg.einsum (ops MatMul, BatchMatMulV2, BatchMatMulV3, Einsum; the batched ones are in
runtime/kernels/linalg_ops.c).
"""
import collections

from minitf.framework import dtypes, ops
from minitf.framework.op_def_library import apply_op, outputs_of


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw))


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, grad_a=False, grad_b=False,
           name=None):
    """Matrix product a @ b (tf.linalg.matmul / tf.matmul).

    a: [..., m, k], b: [..., k, n] (after the optional transposes) -> [..., m, n]. Rank-2
    operands use MatMul; higher or unknown ranks BatchMatMulV2 with broadcast batch dims
    (BatchMatMulV3 when output_type is given or the operand dtypes differ, e.g. int8 x int8
    -> int32). adjoint_* equals transpose_* for real dtypes; a_is_sparse/b_is_sparse are
    hints, ignored as TensorFlow does on dense inputs; grad_a/grad_b set the ops' grad_x/grad_y
    (grad_a/grad_b for MatMul) attrs, which mark the products gradients build.
    Raises ValueError when both transpose_x and adjoint_x are set or the inner (or batch)
    dims disagree at construction; TypeError for mismatched dtypes without output_type.
    """
    with ops.name_scope(name, "MatMul", [a, b]) as name:
        if transpose_a and adjoint_a:
            raise ValueError("Only one of transpose_a and adjoint_a can be True.")
        if transpose_b and adjoint_b:
            raise ValueError("Only one of transpose_b and adjoint_b can be True.")
        a = ops.convert_to_tensor(a, name="a")
        b = ops.convert_to_tensor(b, dtype_hint=a.dtype.base_dtype, name="b")
        adj_a = bool(transpose_a or adjoint_a)
        adj_b = bool(transpose_b or adjoint_b)
        ra, rb = a.shape.rank, b.shape.rank
        mixed = a.dtype.base_dtype != b.dtype.base_dtype
        if output_type is not None or mixed:
            tout = dtypes.as_dtype(output_type) if output_type is not None else a.dtype.base_dtype
            return _op("BatchMatMulV3", x=a, y=b, Tout=tout, adj_x=adj_a, adj_y=adj_b,
                       grad_x=grad_a, grad_y=grad_b, name=name)
        if ra is None or rb is None or ra > 2 or rb > 2:
            return _op("BatchMatMulV2", x=a, y=b, adj_x=adj_a, adj_y=adj_b, grad_x=grad_a,
                       grad_y=grad_b, name=name)
        return _op("MatMul", a=a, b=b, transpose_a=adj_a, transpose_b=adj_b, grad_a=grad_a,
                   grad_b=grad_b, name=name)


def _split_equation(equation, n):
    equation = equation.replace(" ", "")
    if "->" in equation:
        lhs, out = equation.split("->", 1)
    else:  # implicit form: the labels seen once, sorted, after any ellipsis
        lhs = equation
        counts = collections.Counter(c for c in lhs.replace("...", "") if c != ",")
        out = ("..." if "..." in lhs else "") + "".join(sorted(c for c, k in counts.items()
                                                               if k == 1))
    terms = lhs.split(",")
    if len(terms) != n:
        raise ValueError("Expected %d inputs for equation %s but got: %d" %
                         (len(terms), equation, n))
    return terms, out


def einsum(equation, *inputs, **kwargs):
    """Tensor contraction in Einstein notation (tf.einsum / tf.linalg.einsum; op Einsum).

    equation: e.g. "ij,jk->ik" (matmul), "bij,bjk->bik", "ij->ji", "ii->i", "i,j->ij",
    "ij->i", "i,i->", "...ij,...jk->...ik" (ellipsis dims broadcast); the implicit form
    without "->" outputs the labels used once, in alphabetical order. More than two inputs are
    contracted left to right. kwargs: name (the op's name); `optimize` is accepted and
    ignored. Raises ValueError for a malformed equation or disagreeing dimensions (TensorFlow's
    messages), TypeError for unknown keyword arguments.
    """
    name = kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError("Invalid keyword arguments for this function: %s" %
                        ", ".join(sorted(kwargs)))
    with ops.name_scope(name, "einsum", list(inputs)) as name:
        inputs = [ops.convert_to_tensor(x) for x in inputs]
        terms, out = _split_equation(equation, len(inputs))
        if len(inputs) <= 2:
            eq = "%s->%s" % (",".join(terms), out)
            return _op("Einsum", inputs=inputs, equation=eq, name=name)
        acc, acc_term = inputs[0], terms[0]
        for i in range(1, len(inputs)):
            later = "".join(terms[i + 1:]) + out
            keep = []
            for c in (acc_term + terms[i]).replace("...", ""):
                if c in later and c not in keep:
                    keep.append(c)
            ell = "..." if "..." in acc_term + terms[i] else ""
            step_out = out if i == len(inputs) - 1 else ell + "".join(keep)
            eq = "%s,%s->%s" % (acc_term, terms[i], step_out)
            acc = _op("Einsum", inputs=[acc, inputs[i]], equation=eq,
                      name=name if i == len(inputs) - 1 else None)
            acc_term = step_out
        return acc


# ---- the rest of tf.linalg (issue 12): diagonals, bands, factorizations, solvers, norms ----
# Each wrapper builds the nodes TensorFlow 2.21's Python builds (linalg_ops.py, linalg_impl.py,
# array_ops.py, math_ops.py): same op types, same names. The ops are in
# runtime/kernels/linalg/ (diag_ops.c, lapack_ops.c).

import builtins  # noqa: E402

import numpy as np  # noqa: E402

from minitf.framework import tensor_shape  # noqa: E402


def _t(x, name=None, dtype=None):
    return ops.convert_to_tensor(x, name=name, dtype=dtype)


def _math():
    from minitf.ops import math_ops
    return math_ops


def _array():
    from minitf.ops import array_ops
    return array_ops


def _reduce(op_type, x, axis, keepdims=False, name=None):
    from minitf.ops import reduction_ops
    fn = {"Sum": reduction_ops.reduce_sum, "Max": reduction_ops.reduce_max,
          "Prod": reduction_ops.reduce_prod}[op_type]
    return fn(x, axis, keepdims=keepdims, name=name)


def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """Transposes the last two dims of `a` (tf.linalg.matrix_transpose / tf.linalg.transpose;
    op Transpose, ConjugateTranspose when conjugate=True and `a` is complex).

    a: [..., M, N] -> [..., N, M]. Raises ValueError when `a`'s static rank is below 2.
    """
    with ops.name_scope(name, values=[a]):
        a = _t(a, name="a")
        ndims = a.get_shape().ndims
        if ndims is not None:
            if ndims < 2:
                raise ValueError("Argument `a` should be a (batch) matrix with rank >= 2.  "
                                 "Received `a` = %s with shape: %s" % (a, a.get_shape()))
            perm = list(builtins.range(ndims - 2)) + [ndims - 1, ndims - 2]
        else:
            arr, m = _array(), _math()
            a_rank = arr.rank(a)
            perm = arr.concat((_op("Range", start=0, limit=m.subtract(a_rank, 2), delta=1),
                               arr.stack([m.subtract(a_rank, 1), m.subtract(a_rank, 2)])), 0)
        return _array().transpose(a, perm=perm, conjugate=conjugate)


transpose = matrix_transpose


def adjoint(matrix, name=None):
    """Conjugate transpose of the last two dims (tf.linalg.adjoint): [..., M, N] -> [..., N, M]."""
    with ops.name_scope(name, "adjoint", [matrix]):
        matrix = _t(matrix, name="matrix")
        return matrix_transpose(matrix, conjugate=True)


def matrix_diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0,
                align="RIGHT_LEFT"):
    """A batch of matrices with the given diagonals (tf.linalg.diag / tf.matrix_diag; op
    MatrixDiagV3).

    diagonal: [..., N] for one diagonal k, [..., k[1]-k[0]+1, N] for a band k = (lo, hi);
    num_rows/num_cols -1 = the smallest that fits; the rest is padding_value. align (one of
    LEFT_RIGHT, RIGHT_LEFT, LEFT_LEFT, RIGHT_RIGHT) says how shorter diagonals of a band are
    packed. Raises ValueError / InvalidArgumentError as TensorFlow for inconsistent sizes.
    """
    if hasattr(diagonal, "dtype") and diagonal.dtype == "bool":
        padding_value = bool(padding_value)
    return _op("MatrixDiagV3", diagonal=diagonal, k=k, num_rows=num_rows, num_cols=num_cols,
               padding_value=padding_value, align=align, name=name)


def matrix_diag_part(input, name="diag_part", k=0, padding_value=0,  # noqa: A002
                     align="RIGHT_LEFT"):
    """The diagonal(s) k of a batch of matrices (tf.linalg.diag_part / tf.matrix_diag_part; op
    MatrixDiagPartV3).

    input: [..., M, N] -> [..., min(M, N)] for k = 0; [..., hi-lo+1, max_len] for a band,
    shorter diagonals padded with padding_value as `align` says. Raises ValueError when the
    rank is below 2 or k is out of bounds.
    """
    if hasattr(input, "dtype") and input.dtype == "bool":
        padding_value = bool(padding_value)
    return _op("MatrixDiagPartV3", input=input, k=k, padding_value=padding_value, align=align,
               name=name)


def matrix_set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):  # noqa: A002
    """`input` with its diagonal(s) k replaced by `diagonal` (tf.linalg.set_diag /
    tf.matrix_set_diag; op MatrixSetDiagV3). Shapes as matrix_diag_part's output."""
    return _op("MatrixSetDiagV3", input=input, diagonal=diagonal, k=k, align=align, name=name)


def matrix_band_part(input, num_lower, num_upper, name=None):  # noqa: A002
    """Zeroes everything outside a band (tf.linalg.band_part / tf.matrix_band_part; op
    MatrixBandPart): keeps (i, j) with (num_lower < 0 or i - j <= num_lower) and
    (num_upper < 0 or j - i <= num_upper). input: [..., M, N]; the bounds are int32/int64
    scalars. InvalidArgumentError for a bound above the number of rows / columns."""
    return _op("MatrixBandPart", input=input, num_lower=num_lower, num_upper=num_upper,
               name=name)


def diag(diagonal, name=None):
    """tf.linalg.tensor_diag / tf.diag (op Diag): a tensor of rank 2k with `diagonal` (rank k,
    k >= 1) on its diagonal: output[i1..ik, i1..ik] = diagonal[i1..ik]."""
    return _op("Diag", diagonal=diagonal, name=name)


def diag_part(input, name=None):  # noqa: A002
    """tf.linalg.tensor_diag_part / tf.diag_part (op DiagPart): the inverse of diag; input of
    even rank 2k with shape [D1..Dk, D1..Dk] -> [D1..Dk]."""
    return _op("DiagPart", input=input, name=name)


tensor_diag = diag
tensor_diag_part = diag_part


def trace(x, name=None):
    """Sum of the main diagonal of each matrix (tf.linalg.trace / tf.trace): [..., M, N] ->
    [...] (MatrixDiagPartV3 + Sum)."""
    with ops.name_scope(name, "Trace", [x]) as name:
        x = _t(x, name="x")
        return _reduce("Sum", matrix_diag_part(x), [-1], name=name)


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """Identity matrices (tf.linalg.eye / tf.eye): [*batch_shape, num_rows, num_columns]
    (num_columns defaults to num_rows); MatrixDiagV3 of ones when square, else MatrixSetDiagV3
    into zeros. Sizes may be Python ints or int32 tensors. TypeError for non-integer sizes."""
    arr, m = _array(), _math()
    with ops.name_scope(name, default_name="eye", values=[num_rows, num_columns, batch_shape]):
        is_square = num_columns is None
        batch_shape = [] if batch_shape is None else batch_shape
        num_columns = num_rows if num_columns is None else num_columns
        if isinstance(num_rows, ops.Tensor) or isinstance(num_columns, ops.Tensor):
            diag_size = _op("Minimum", x=num_rows, y=num_columns, name="Minimum")
        else:
            ints = (int, np.integer)
            if (not isinstance(num_rows, ints) or not isinstance(num_columns, ints) or
                    isinstance(num_rows, bool) or isinstance(num_columns, bool)):
                raise TypeError("Arguments `num_rows` and `num_columns` must be positive "
                                "integer values. Received: num_rows=%s, num_columns=%s" %
                                (num_rows, num_columns))
            is_square = num_rows == num_columns
            diag_size = np.minimum(num_rows, num_columns)
        if isinstance(batch_shape, ops.Tensor) or isinstance(diag_size, ops.Tensor):
            batch_shape = _t(batch_shape, name="shape", dtype=dtypes.int32)
            diag_shape = arr.concat((batch_shape, [diag_size]), axis=0)
            if not is_square:
                shape = arr.concat((batch_shape, [num_rows, num_columns]), axis=0)
        else:
            batch_shape = tensor_shape.TensorShape(batch_shape).as_list()
            diag_shape = batch_shape + [int(diag_size)]
            if not is_square:
                shape = batch_shape + [num_rows, num_columns]
        diag_ones = arr.ones(diag_shape, dtype=dtype)
        if is_square:
            return matrix_diag(diag_ones)
        zero_matrix = arr.zeros(shape, dtype=dtype)
        return matrix_set_diag(zero_matrix, diag_ones)


def cross(a, b, name=None):
    """Pairwise cross product of 3-vectors (tf.linalg.cross / tf.cross; op Cross): a, b of the
    same shape [..., 3]. ValueError when the last dim is not 3."""
    return _op("Cross", a=a, b=b, name=name)


def cholesky(input, name=None):  # noqa: A002
    """Lower Cholesky factor L of each Hermitian positive definite matrix, input = L L^H
    (tf.linalg.cholesky / tf.cholesky; op Cholesky). Only the lower triangle of input is read.
    [..., M, M]; float32/float64/complex64/complex128. A matrix that is not positive definite
    gives NaNs in its factor's lower triangle, as TensorFlow 2.21 does (no error); ValueError
    for rank < 2 or non-square static shapes."""
    return _op("Cholesky", input=input, name=name)


def matrix_triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """Solves matrix X = rhs (or matrix^H X = rhs) for triangular `matrix` (lower or upper
    triangle read) (tf.linalg.triangular_solve / tf.matrix_triangular_solve; op
    MatrixTriangularSolve). matrix [..., M, M], rhs [..., M, K]; batch dims broadcast. A zero
    on the diagonal gives infinities / NaNs as TensorFlow's does."""
    with ops.name_scope(name, "triangular_solve", [matrix, rhs]):
        return _op("MatrixTriangularSolve", matrix=matrix, rhs=rhs, lower=lower, adjoint=adjoint)


triangular_solve = matrix_triangular_solve


def cholesky_solve(chol, rhs, name=None):
    """Solves A X = rhs given A's Cholesky factor `chol` (tf.linalg.cholesky_solve /
    tf.cholesky_solve): two MatrixTriangularSolves. chol [..., M, M], rhs [..., M, K]."""
    with ops.name_scope(name, "cholesky_solve", [chol, rhs]):
        y = _op("MatrixTriangularSolve", matrix=chol, rhs=rhs, adjoint=False, lower=True)
        return _op("MatrixTriangularSolve", matrix=chol, rhs=y, adjoint=True, lower=True)


def matrix_determinant(input, name=None):  # noqa: A002
    """Determinant of each square matrix (tf.linalg.det / tf.matrix_determinant; op
    MatrixDeterminant, by LU with partial pivoting): [..., M, M] -> [...]."""
    return _op("MatrixDeterminant", input=input, name=name)


det = matrix_determinant


def log_matrix_determinant(input, name=None):  # noqa: A002
    """(sign, log|det|) of each square matrix (tf.linalg.slogdet; op LogMatrixDeterminant):
    [..., M, M] -> two [...] tensors; a singular matrix gives sign 0 and -inf."""
    return _op("LogMatrixDeterminant", input=input, name=name)


slogdet = log_matrix_determinant


def logdet(matrix, name=None):
    """log(det(matrix)) of Hermitian positive definite matrices through their Cholesky factor
    (tf.linalg.logdet): 2 * sum(log(diag(chol(matrix)))). [..., M, M] -> [...]."""
    with ops.name_scope(name, "logdet", [matrix]):
        chol = _op("Cholesky", input=matrix)
        d = matrix_diag_part(chol)
        if d.dtype.is_complex:
            d = _op("Real", input=d, Tout=d.dtype.real_dtype)
        return 2.0 * _reduce("Sum", _op("Log", x=d), axis=[-1])


def matrix_inverse(input, adjoint=False, name=None):  # noqa: A002
    """Inverse (of the adjoint when adjoint=True) of each square matrix (tf.linalg.inv /
    tf.matrix_inverse; op MatrixInverse, LU with partial pivoting). InvalidArgumentError "Input
    is not invertible." for a singular matrix."""
    return _op("MatrixInverse", input=input, adjoint=adjoint, name=name)


inv = matrix_inverse


def matrix_solve(matrix, rhs, adjoint=False, name=None):
    """Solves matrix X = rhs (matrix^H X = rhs when adjoint) (tf.linalg.solve /
    tf.matrix_solve; op MatrixSolve). matrix [..., M, M], rhs [..., M, K] with equal batch
    dims. InvalidArgumentError "Input matrix is not invertible." for a singular matrix."""
    return _op("MatrixSolve", matrix=matrix, rhs=rhs, adjoint=adjoint, name=name)


solve = matrix_solve


def _regularized_gramian_cholesky(matrix, l2_regularizer, first_kind):
    gramian = matmul(matrix, matrix, adjoint_a=first_kind, adjoint_b=not first_kind)
    if isinstance(l2_regularizer, ops.Tensor) or l2_regularizer != 0:
        arr = _array()
        matrix_shape = arr.shape(matrix)
        batch_shape = matrix_shape[:-2]
        small_dim = matrix_shape[-1] if first_kind else matrix_shape[-2]
        identity = eye(small_dim, batch_shape=batch_shape, dtype=matrix.dtype)
        small_static = matrix.get_shape()[-1 if first_kind else -2]
        identity.set_shape(matrix.get_shape()[:-2].concatenate([small_static, small_static]))
        gramian += l2_regularizer * identity
    return _op("Cholesky", input=gramian)


def matrix_solve_ls(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """Least-squares solutions of matrix X = rhs (tf.linalg.lstsq / tf.matrix_solve_ls).

    matrix [..., M, N], rhs [..., M, K] -> [..., N, K]. fast=True: TensorFlow's graph of the
    regularized normal equations (Cholesky + cholesky_solve; X = (A^H A + l2 I)^-1 A^H B when
    M >= N, else A^H (A A^H + l2 I)^-1 B); fast=False: the minimum-norm solution
    (l2_regularizer ignored), computed here as pinv(matrix) @ rhs (TensorFlow: op MatrixSolveLs,
    not registered in minitf yet; same values up to rounding).
    NotImplementedError for complex128 with l2_regularizer != 0, as TensorFlow.
    """
    matrix = _t(matrix, name="matrix")
    if matrix.dtype == dtypes.complex128 and l2_regularizer != 0:
        raise NotImplementedError("matrix_solve_ls is currently disabled for complex128 and "
                                  "l2_regularizer != 0 due to poor accuracy.")
    shape = matrix.get_shape()

    def over():
        chol = _regularized_gramian_cholesky(matrix, l2_regularizer, True)
        return cholesky_solve(chol, matmul(matrix, rhs, adjoint_a=True))

    def under():
        chol = _regularized_gramian_cholesky(matrix, l2_regularizer, False)
        return matmul(matrix, cholesky_solve(chol, rhs), adjoint_a=True)

    with ops.name_scope(name, "matrix_solve_ls", [matrix, rhs, l2_regularizer]):
        ms = shape[-2:]
        if ms.is_fully_defined():
            return over() if ms[-2] >= ms[-1] else under()
        from minitf.ops.control_flow_ops import cond
        dyn = _array().shape(matrix)[-2:]
        return cond(_math().greater_equal(dyn[-2], dyn[-1]), over, under)


lstsq = matrix_solve_ls


def qr(input, full_matrices=False, name=None):  # noqa: A002
    """QR factorization of each matrix (tf.linalg.qr / tf.qr; op Qr, Householder as
    TensorFlow's, so R's diagonal may be negative): [..., M, N] -> q [..., M, P], r [..., P, N]
    with P = min(M, N) (M when full_matrices). Returns the namedtuple (q, r)."""
    return _op("Qr", input=input, full_matrices=full_matrices, name=name)


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """Singular values (descending) and vectors, tensor = u diag(s) v^H (tf.linalg.svd /
    tf.svd; op Svd). [..., M, N] -> s [..., P]; u [..., M, P] and v [..., N, P] (M x M, N x N
    with full_matrices). Returns s alone when compute_uv=False. Singular vectors are unique
    only up to a sign (a phase), as TensorFlow documents."""
    s, u, v = _op("Svd", input=tensor, compute_uv=compute_uv, full_matrices=full_matrices,
                  name=name)
    if s.dtype.is_complex:
        s = _op("Real", input=s, Tout=s.dtype.real_dtype)
    return (s, u, v) if compute_uv else s


def self_adjoint_eig(tensor, name=None):
    """Eigenvalues (ascending) and eigenvectors of self-adjoint matrices (tf.linalg.eigh /
    tf.self_adjoint_eig; op SelfAdjointEigV2, lower triangle read): [..., N, N] ->
    (e [..., N], v [..., N, N]); eigenvectors are unique up to sign."""
    e, v = _op("SelfAdjointEigV2", input=tensor, compute_v=True, name=name)
    return e, v


def self_adjoint_eigvals(tensor, name=None):
    """Eigenvalues of self-adjoint matrices, ascending (tf.linalg.eigvalsh /
    tf.self_adjoint_eigvals; op SelfAdjointEigV2 with compute_v=False)."""
    e, _ = _op("SelfAdjointEigV2", input=tensor, compute_v=False, name=name)
    return e


eigh = self_adjoint_eig
eigvalsh = self_adjoint_eigvals


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False,
           name=None):
    """Matrix-vector product (tf.linalg.matvec): a [..., M, N], b [..., N] -> [..., M]
    (ExpandDims, matmul, Squeeze)."""
    with ops.name_scope(name, "MatVec", [a, b]) as name:
        arr = _array()
        output = matmul(a, arr.expand_dims(b, axis=-1), transpose_a=transpose_a,
                        adjoint_a=adjoint_a, a_is_sparse=a_is_sparse,
                        b_is_sparse=b_is_sparse)
        return arr.squeeze(output, axis=-1)


def tensordot(a, b, axes, name=None):
    """Tensor contraction over the given axes (tf.linalg.tensordot / tf.tensordot): axes an
    int N (the last N of a with the first N of b) or a pair of axis lists; reduced to one
    matmul between a transpose + reshape of each operand, as TensorFlow builds it. ValueError
    for inconsistent axes."""
    arr, m = _array(), _math()

    def reshape_for(t, t_axes, flipped=False):
        if t.get_shape().is_fully_defined() and isinstance(t_axes, (list, tuple)):
            shape = t.get_shape().as_list()
            t_axes = [i if i >= 0 else i + len(shape) for i in t_axes]
            free = [i for i in builtins.range(len(shape)) if i not in t_axes]
            free_dims = [shape[i] for i in free]
            prod_free = int(np.prod([shape[i] for i in free]))
            prod_axes = int(np.prod([shape[i] for i in t_axes]))
            perm = list(t_axes) + free if flipped else free + list(t_axes)
            new_shape = [prod_axes, prod_free] if flipped else [prod_free, prod_axes]
            if (perm != np.arange(len(shape))).any():
                t = arr.transpose(t, perm)
            if t.get_shape().as_list() != new_shape:
                t = arr.reshape(t, new_shape)
            return t, free_dims, free_dims
        if t.get_shape().ndims is not None and isinstance(t_axes, (list, tuple)):
            shape = t.get_shape().as_list()
            t_axes = [i if i >= 0 else i + len(shape) for i in t_axes]
            free = [i for i in builtins.range(len(shape)) if i not in t_axes]
            free_static = [shape[i] for i in free]
            t_axes = _t(t_axes, dtype=dtypes.int32, name="axes")
            free = _t(free, dtype=dtypes.int32, name="free")
            shape_t = arr.shape(t)
        else:
            free_static = None
            shape_t = arr.shape(t)
            rank_t = arr.rank(t)
            t_axes = _t(t_axes, dtype=dtypes.int32, name="axes")
            t_axes = m.where_v2(m.greater_equal(t_axes, 0), t_axes, m.add(t_axes, rank_t))
            free, _ = _op("ListDiff", x=arr.range(rank_t), y=t_axes, out_idx=dtypes.int32)
        from minitf.ops import indexing_ops
        free_dims = indexing_ops.gather(shape_t, free)
        axes_dims = indexing_ops.gather(shape_t, t_axes)
        prod_free = _reduce("Prod", free_dims, None)
        prod_axes = _reduce("Prod", axes_dims, None)
        if flipped:
            perm = arr.concat([t_axes, free], 0)
            new_shape = arr.stack([prod_axes, prod_free])
        else:
            perm = arr.concat([free, t_axes], 0)
            new_shape = arr.stack([prod_free, prod_axes])
        return arr.reshape(arr.transpose(t, perm), new_shape), free_dims, free_static

    def axes_for(t):
        shape = t.get_shape()
        if isinstance(axes, (int, np.integer)) and not isinstance(axes, bool):
            if axes < 0:
                raise ValueError("`axes` must be at least 0. Received: %s." % axes)
            if shape.ndims is not None:
                if axes > shape.ndims:
                    raise ValueError("`axes` must not be larger than the number of dimensions "
                                     "of tensor %s.  Received %s, vs tensor dimensions %s." %
                                     (t, axes, shape.ndims))
                return (list(builtins.range(shape.ndims - axes, shape.ndims)),
                        list(builtins.range(axes)))
            r = arr.rank(t)
            return (arr.range(m.subtract(r, axes), r, dtype=dtypes.int32),
                    arr.range(axes, dtype=dtypes.int32))
        if isinstance(axes, (list, tuple)):
            if len(axes) != 2:
                raise ValueError("`axes` must be an integer or have length 2. Received %s." %
                                 (axes,))
            a_axes, b_axes = axes
            if isinstance(a_axes, (int, np.integer)) and isinstance(b_axes, (int, np.integer)):
                a_axes, b_axes = [a_axes], [b_axes]
            if len(a_axes) != len(b_axes):
                raise ValueError("Different number of contraction axes `a` and `b`, %d != %d." %
                                 (len(a_axes), len(b_axes)))
            return a_axes, b_axes
        t_axes = _t(axes, name="axes", dtype=dtypes.int32)
        return t_axes[0], t_axes[1]

    with ops.name_scope(name, "Tensordot", [a, b, axes]) as name:
        a = _t(a, name="a")
        b = _t(b, name="b")
        a_axes, b_axes = axes_for(a)
        a_r, a_free, a_free_static = reshape_for(a, a_axes)
        b_r, b_free, b_free_static = reshape_for(b, b_axes, True)
        ab = matmul(a_r, b_r)
        if isinstance(a_free, list) and isinstance(b_free, list):
            if (ab.get_shape().is_fully_defined() and
                    ab.get_shape().as_list() == a_free + b_free):
                return ab
            return arr.reshape(ab, a_free + b_free, name=name)
        a_free = _t(a_free, dtype=dtypes.int32)
        b_free = _t(b_free, dtype=dtypes.int32)
        product = arr.reshape(ab, arr.concat([a_free, b_free], 0), name=name)
        if a_free_static is not None and b_free_static is not None:
            product.set_shape(a_free_static + b_free_static)
        return product


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None,  # noqa: A002
         keep_dims=None):
    """Vector and matrix norms (tf.linalg.norm / tf.norm), as TensorFlow builds them.

    ord: 'euclidean' / 'fro' / 2 (sqrt of the sum of squares; for a matrix axis pair ord=2 is
    the largest singular value, through Svd), 1, np.inf, or any p > 0 for vectors. axis: None
    (the whole tensor as a vector), an int, or a pair of ints (a matrix norm). keepdims /
    keep_dims keep the reduced dims. ValueError for unsupported ord/axis combinations, with
    TensorFlow's messages.
    """
    if keepdims is not None and keep_dims is not None:
        raise ValueError("Cannot specify both 'keep_dims' and 'keepdims'")
    keepdims = keep_dims if keepdims is None else keepdims
    if keepdims is None:
        keepdims = False
    is_matrix_norm = isinstance(axis, (tuple, list)) and len(axis) == 2
    if is_matrix_norm:
        axis = tuple(axis)
        if (not isinstance(axis[0], int) or not isinstance(axis[1], int) or
                axis[0] == axis[1]):
            raise ValueError("'axis' must be None, an integer, or a tuple of 2 unique integers, "
                             "got %s" % (axis,))
        supported = ["euclidean", "fro", 1, 2, np.inf]
        if ord not in supported:
            raise ValueError("'ord' must be a supported matrix norm in %s, got %s" %
                             (supported, ord))
    else:
        if not (isinstance(axis, int) or axis is None):
            raise ValueError("'axis' must be None, an integer, or a tuple of 2 unique "
                             "integers, got %s" % (axis,))
        supported = ["euclidean", 1, 2, np.inf]
        if (not np.isreal(ord) or ord <= 0) and ord not in supported:
            raise ValueError("'ord' must be a supported vector norm, got %s" % (ord,))
        if axis is not None:
            axis = (axis,)
    arr, m = _array(), _math()
    with ops.name_scope(name, "norm", [tensor]):
        tensor = _t(tensor)
        if ord in ["fro", "euclidean", 2, 2.0]:
            if is_matrix_norm and ord in [2, 2.0]:
                rank = tensor.get_shape().ndims
                if rank is None:
                    raise ValueError("norm: ord=2 over a matrix axis pair needs a known rank")
                pos = [i if i >= 0 else i + rank for i in axis]
                perm_before = [i for i in builtins.range(rank) if i not in pos] + pos
                perm_after = [perm_before.index(i) for i in builtins.range(rank)]
                permed = arr.transpose(tensor, perm=perm_before)
                s = _op("Svd", input=permed, compute_uv=False)[0]
                two = arr.expand_dims(_reduce("Max", m.abs(s), -1, keepdims=True), axis=-1)
                result = arr.transpose(two, perm=perm_after)
            else:
                sq = tensor * (_op("Conj", input=tensor) if tensor.dtype.is_complex else tensor)
                result = _op("Sqrt", x=_reduce("Sum", sq, list(axis) if axis else axis,
                                               keepdims=True))
        else:
            result = m.abs(tensor)
            if ord == 1:
                sum_axis = None if axis is None else axis[0]
                result = _reduce("Sum", result, sum_axis, keepdims=True)
                if is_matrix_norm:
                    result = _reduce("Max", result, axis[-1], keepdims=True)
            elif ord == np.inf:
                if is_matrix_norm:
                    result = _reduce("Sum", result, axis[1], keepdims=True)
                max_axis = None if axis is None else axis[0]
                result = _reduce("Max", result, max_axis, keepdims=True)
            else:
                result = m.pow(_reduce("Sum", m.pow(result, ord),
                                       list(axis) if axis else axis, keepdims=True), 1.0 / ord)
        if not keepdims:
            result = arr.squeeze(result, list(axis) if axis else axis)
        return result


def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002
    """(tensor / norm, norm) with the norm kept dims (tf.linalg.normalize)."""
    with ops.name_scope(name, "normalize", [tensor]):
        tensor = _t(tensor)
        n = norm(tensor, ord, axis, keepdims=True)
        n = _math().cast(n, tensor.dtype)
        return _math().divide(tensor, n), n


def pinv(a, rcond=None, validate_args=False, name=None):
    """Moore-Penrose pseudo-inverse through Svd (tf.linalg.pinv): singular values at or below
    rcond * max(s) are dropped; rcond defaults to 10 * max(M, N) * eps of the dtype (the
    static dims must then be known). [..., M, N] -> [..., N, M]."""
    arr, m = _array(), _math()
    with ops.name_scope(name or "pinv"):
        a = _t(a, name="a")
        if not a.dtype.is_floating and not a.dtype.is_complex:
            raise TypeError("Input `a` must have `float`-like `dtype` (saw %s)." % a.dtype.name)
        dtype = a.dtype.as_numpy_dtype
        if rcond is None:
            def max_dim(i):
                d = a.get_shape()[i]
                return d if d is not None else _array().shape(a)[i]
            d0, d1 = max_dim(-2), max_dim(-1)
            if isinstance(d0, ops.Tensor) or isinstance(d1, ops.Tensor):
                rcond = 10.0 * np.finfo(dtype).eps * m.cast(_op("Maximum", x=d0, y=d1),
                                                             a.dtype)
            else:
                rcond = 10.0 * max(d0, d1) * np.finfo(dtype).eps
        rcond = _t(rcond, dtype=a.dtype.real_dtype, name="rcond")
        s, u, v = svd(a, full_matrices=False, compute_uv=True)
        cutoff = rcond * _reduce("Max", s, -1)
        keep = m.greater(s, arr.expand_dims(cutoff, -1))
        s = m.where_v2(keep, s, np.array(np.inf, dtype))
        return matmul(m.divide(v, m.cast(arr.expand_dims(s, -2), v.dtype)), u, adjoint_b=True)


def matrix_rank(a, tol=None, validate_args=False, name=None):
    """Number of singular values above tol (default eps * max(M, N) * max(s)) (tf.linalg.
    matrix_rank): [..., M, N] -> int32 [...]."""
    arr, m = _array(), _math()
    with ops.name_scope(name or "matrix_rank"):
        a = _t(a, name="a")
        s = svd(a, compute_uv=False)
        if tol is None:
            if a.get_shape()[-2:].is_fully_defined():
                mx = max(a.get_shape().as_list()[-2:])
            else:
                mx = _reduce("Max", arr.shape(a)[-2:], None)
            eps = np.finfo(a.dtype.as_numpy_dtype).eps
            tol = eps * m.cast(mx, a.dtype) * _reduce("Max", s, -1, keepdims=True)
        return _reduce("Sum", m.cast(m.greater(s, tol), dtypes.int32), -1)
