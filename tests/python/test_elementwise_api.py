"""The elementwise family's Python API: TF1 signatures (copied from TensorFlow 2.21's
tf.compat.v1 by inspect.signature, type annotations dropped) and Tensor operators, with values
worked by hand."""
import inspect

import numpy as np
import pytest

import minitf as tf

SIGNATURES = {
    'abs': '(x, name=None)',
    'add_n': '(inputs, name=None)',
    'atan2': '(y, x, name=None)',
    'ceil': '(x, name=None)',
    'clip_by_value': '(t, clip_value_min, clip_value_max, name=None)',
    'cos': '(x, name=None)',
    'div_no_nan': '(x, y, name=None)',
    'equal': '(x, y, name=None)',
    'erf': '(x, name=None)',
    'exp': '(x, name=None)',
    'expm1': '(x, name=None)',
    'floor': '(x, name=None)',
    'floor_div': '(x, y, name=None)',
    'floordiv': '(x, y, name=None)',
    'floormod': '(x, y, name=None)',
    'greater': '(x, y, name=None)',
    'greater_equal': '(x, y, name=None)',
    'is_finite': '(x, name=None)',
    'is_inf': '(x, name=None)',
    'is_nan': '(x, name=None)',
    'less': '(x, y, name=None)',
    'less_equal': '(x, y, name=None)',
    'log': '(x, name=None)',
    'log1p': '(x, name=None)',
    'logical_and': '(x, y, name=None)',
    'logical_not': '(x, name=None)',
    'logical_or': '(x, y, name=None)',
    'logical_xor': "(x, y, name='LogicalXor')",
    'maximum': '(x, y, name=None)',
    'minimum': '(x, y, name=None)',
    'mod': '(x, y, name=None)',
    'not_equal': '(x, y, name=None)',
    'pow': '(x, y, name=None)',
    'reciprocal': '(x, name=None)',
    'rint': '(x, name=None)',
    'round': '(x, name=None)',
    'rsqrt': '(x, name=None)',
    'sigmoid': '(x, name=None)',
    'sign': '(x, name=None)',
    'sin': '(x, name=None)',
    'sqrt': '(x, name=None)',
    'square': '(x, name=None)',
    'squared_difference': '(x, y, name=None)',
    'tan': '(x, name=None)',
    'tanh': '(x, name=None)',
    'to_bfloat16': "(x, name='ToBFloat16')",
    'to_complex64': "(x, name='ToComplex64')",
    'to_complex128': "(x, name='ToComplex128')",
    'to_double': "(x, name='ToDouble')",
    'to_float': "(x, name='ToFloat')",
    'to_int32': "(x, name='ToInt32')",
    'to_int64': "(x, name='ToInt64')",
    'truncatediv': '(x, y, name=None)',
    'where': '(condition, x=None, y=None, name=None)',
    'where_v2': '(condition, x=None, y=None, name=None)',
    'cast': '(x, dtype, name=None)',
    'add': '(x, y, name=None)',
    'subtract': '(x, y, name=None)',
    'multiply': '(x, y, name=None)',
    'divide': '(x, y, name=None)',
    'truediv': '(x, y, name=None)',
    'div': '(x, y, name=None)',
    'realdiv': '(x, y, name=None)',
    'bitwise.bitwise_and': '(x, y, name=None)',
    'bitwise.bitwise_or': '(x, y, name=None)',
    'bitwise.bitwise_xor': '(x, y, name=None)',
    'nn.sigmoid': '(x, name=None)',
    'nn.tanh': '(x, name=None)',
}


def _lookup(name):
    obj = tf
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_signature_matches_tensorflow(name):
    assert str(inspect.signature(_lookup(name))) == SIGNATURES[name]


@pytest.mark.parametrize("name", ["abs", "add_n", "atan2", "clip_by_value", "equal", "floordiv",
                                  "maximum", "round", "sigmoid", "where", "where_v2", "to_float"])
def test_docstrings(name):
    assert len(_lookup(name).__doc__ or "") > 20


def _run(*tensors):
    with tf.Session() as s:
        return s.run(list(tensors))


def test_operators():
    x = tf.constant([7.0, -7.0, 2.5])
    y = tf.constant([2.0, 2.0, -2.0])
    i = tf.constant([6, -5, 12])
    b = tf.constant([True, False, True])
    got = _run(x // y, x % y, x ** 2.0, 2.0 ** x, 10.0 // x, x < y, x <= 2.5, x > y, 0.0 >= x,
               b & [True, True, False], b | False, b ^ True, ~b, abs(x), i & 4, 3 | i, i ^ i)
    want = [[3, -4, -2], [1, 1, -1.5], [49, 49, 6.25], [128, 2 ** -7, 2 ** 2.5], [1, -2, 4],
            [False, True, False], [False, True, True], [True, False, True], [False, True, False],
            [True, False, False], [True, False, True], [False, True, False], [False, True, False],
            [7, 7, 2.5], [4, 0, 4], [7, -5, 15], [0, 0, 0]]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6)
    assert (x < y).op.type == "Less" and (x // y).op.type == "FloorDiv"
    assert (x % y).op.type == "FloorMod" and (b & b).op.type == "LogicalAnd"
    assert (i & i).op.type == "BitwiseAnd" and (x ** y).op.type == "Pow"


def test_wrappers_values():
    x = tf.constant([1.5, -2.5, 0.5, 4.0])
    got = _run(tf.round(x), tf.rint(x), tf.clip_by_value(x, -1.0, 2.0), tf.add_n([x, x, x]),
               tf.where([True, False, True, False], x, -x), tf.where_v2(x > 0.0, x, 0.0),
               tf.logical_xor([True, True, False], [True, False, False]), tf.to_int32(x),
               tf.div_no_nan(x, [0.0, 2.0, 0.0, 4.0]), tf.squared_difference(x, 1.0),
               tf.math.floormod([7, -7], 3), tf.truncatediv([7, -7], 2), tf.pow(2, [3, 0]),
               tf.bitwise.bitwise_xor([5, 6], 3), tf.nn.sigmoid(0.0), tf.math.atan2(1.0, -1.0))
    want = [[2, -2, 0, 4], [2, -2, 0, 4], [1.5, -1, 0.5, 2], [4.5, -7.5, 1.5, 12],
            [1.5, 2.5, 0.5, -4], [1.5, 0, 0.5, 4], [False, True, False], [1, -2, 0, 4],
            [0, -1.25, 0, 1], [0.25, 12.25, 0.25, 9], [1, 2], [3, -3], [8, 1], [6, 5], 0.5,
            0.75 * np.pi]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6)


def test_round_of_integers_returns_the_input():
    i = tf.constant([1, 2])
    assert tf.round(i) is i


def test_to_float_names_and_dtype():
    t = tf.to_float(tf.constant([1, 2]))
    assert t.dtype == tf.float32 and t.op.name == "ToFloat"


def test_add_n_errors_and_single_input():
    with pytest.raises(ValueError, match="at least one Tensor"):
        tf.add_n([])
    x = tf.constant([1.0])
    assert tf.add_n([x]) is x
    assert tf.add_n([x], name="s").op.type == "Identity"
    with pytest.raises(ValueError, match="Shapes must be equal rank"):
        tf.add_n([x, tf.constant([[1.0]])])


def test_clip_by_value_rejects_growing_shape():
    with pytest.raises(ValueError):
        tf.clip_by_value(tf.constant([1.0, 2.0]), [[0.0], [1.0]], 3.0)


def test_where_needs_both_or_neither():
    with pytest.raises(ValueError, match="both be non-None"):
        tf.where([True], x=[1.0])


def test_equal_shape_error_at_construction():
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3"):
        tf.equal(tf.constant([1, 2]), tf.constant([1, 2, 3]))


def test_half_and_bfloat16_through_wrappers():
    import ml_dtypes
    h = tf.placeholder(tf.float16, [3])
    b = tf.placeholder(tf.bfloat16, [3])
    with tf.Session() as s:
        gh, gb = s.run([tf.sqrt(h) + h, tf.maximum(b, tf.cast(0.5, tf.bfloat16))],
                       {h: np.float16([4, 0.25, 9]), b: np.array([0, 1, 2], ml_dtypes.bfloat16)})
    assert gh.dtype == np.float16 and gh.tolist() == [6.0, 0.75, 12.0]
    assert gb.dtype == ml_dtypes.bfloat16 and gb.astype(np.float32).tolist() == [0.5, 1, 2]
