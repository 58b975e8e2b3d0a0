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
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None):
    """Matrix product a @ b (tf.linalg.matmul / tf.matmul).

    a: [..., m, k], b: [..., k, n] (after the optional transposes) -> [..., m, n]. Rank-2
    operands use MatMul; higher or unknown ranks BatchMatMulV2 with broadcast batch dims
    (BatchMatMulV3 when output_type is given or the operand dtypes differ, e.g. int8 x int8
    -> int32). adjoint_* equals transpose_* for real dtypes; a_is_sparse/b_is_sparse are
    hints, ignored as TensorFlow does on dense inputs.
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
            return _op("BatchMatMulV3", x=a, y=b, Tout=tout, adj_x=adj_a, adj_y=adj_b, name=name)
        if ra is None or rb is None or ra > 2 or rb > 2:
            return _op("BatchMatMulV2", x=a, y=b, adj_x=adj_a, adj_y=adj_b, name=name)
        return _op("MatMul", a=a, b=b, transpose_a=adj_a, transpose_b=adj_b, name=name)


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
