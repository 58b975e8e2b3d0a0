"""Cases shared by tools/gen_check_ops_expected.py (run with real TensorFlow) and
tests/python/test_check_ops_more.py: the rest of the tf.debugging / assert family
(assert_all_finite, assert_shapes, assert_same_float_dtype, is_non_decreasing, ...) and more
messages of the binary / rank asserts. Each builder takes the `tf` module (TensorFlow's
tf.compat.v1 or minitf) and builds into the default graph."""
import numpy as np


def _pwd(tf, value, dtype=None):
    # A value the graph cannot fold and whose shape is unknown: checks run at run time.
    return tf.placeholder_with_default(tf.constant(value, dtype=dtype), None)


def _pwd_shaped(tf, value, dtype=None):
    # Unfoldable, static shape known.
    c = tf.constant(value, dtype=dtype)
    return tf.placeholder_with_default(c, c.shape)


def _v1_cond(tf, build):
    # Builds with TF1 control flow (Switch/Merge), then restores the v2 default.
    tf.disable_control_flow_v2()
    try:
        return build()
    finally:
        tf.enable_control_flow_v2()


def _add_check_numerics(tf, values):
    x = tf.constant(values, name="x")
    y = tf.multiply(x, 2.0, name="y")
    tf.cast(y, tf.int32, name="i")
    return tf.add_check_numerics_ops()


def _add_check_numerics_in_cond(tf):
    return _v1_cond(tf, lambda: (tf.cond(tf.placeholder(tf.bool, []),
                                         lambda: tf.constant(1.0), lambda: tf.constant(2.0)),
                                 tf.add_check_numerics_ops()))


def _sparse(tf, dense_shape, fed=False):
    shape = tf.constant(dense_shape, tf.int64)
    if fed:
        shape = tf.placeholder_with_default(shape, [len(dense_shape)])
    return tf.SparseTensor(tf.zeros([0, len(dense_shape)], tf.int64), tf.zeros([0]), shape)


def _shapes(tf, pairs, **kw):
    return tf.debugging.assert_shapes(pairs, **kw)


# label -> builder of a tensor (or list of tensors) whose value is the fixture
VALUE_CASES = {
    "non_decreasing_yes": lambda tf: tf.math.is_non_decreasing(tf.constant([1., 1., 3.])),
    "non_decreasing_no": lambda tf: tf.math.is_non_decreasing(tf.constant([3., 1., 2.])),
    "non_decreasing_2d": lambda tf: tf.is_non_decreasing(tf.constant([[1, 2], [2, 5]])),
    "non_decreasing_empty": lambda tf: tf.debugging.is_non_decreasing(tf.zeros([0])),
    "non_decreasing_one": lambda tf: tf.math.is_non_decreasing(tf.constant([7])),
    "non_decreasing_scalar": lambda tf: tf.math.is_non_decreasing(tf.constant(7.)),
    "non_decreasing_fed": lambda tf: tf.math.is_non_decreasing(_pwd(tf, [[1, 2], [0, 3]])),
    "increasing_yes": lambda tf: tf.math.is_strictly_increasing(tf.constant([1., 2., 3.])),
    "increasing_ties": lambda tf: tf.is_strictly_increasing(tf.constant([1, 1, 3])),
    "increasing_int64": lambda tf: tf.debugging.is_strictly_increasing(
        tf.constant([-5, 0, 9], tf.int64)),
    "increasing_empty": lambda tf: tf.math.is_strictly_increasing(_pwd(tf, np.zeros([0, 3]))),
    "increasing_v1": lambda tf: _v1_cond(
        tf, lambda: tf.math.is_strictly_increasing(_pwd(tf, [1., 4., 3.]))),
    "is_finite": lambda tf: tf.debugging.is_finite(tf.constant([1., np.inf, np.nan])),
    "is_inf": lambda tf: tf.debugging.is_inf(tf.constant([1., -np.inf, np.nan])),
    "is_nan": lambda tf: tf.debugging.is_nan(tf.constant([1., np.inf, np.nan])),
    "verify_ok": lambda tf: tf.verify_tensor_all_finite(tf.constant([1., 2.]), "m"),
    "assert_all_finite_ok": lambda tf: tf.debugging.assert_all_finite(
        x=_pwd(tf, [[1.5]], tf.float64), message="m"),
    "check_numerics_ops_ok": lambda tf: [_add_check_numerics(tf, [1.5, 2.]),
                                         tf.get_default_graph().get_tensor_by_name("y:0")],
    "shapes_ok": lambda tf: [_shapes(tf, [(_pwd(tf, np.zeros([2, 3])), ("N", "Q")),
                                          (_pwd(tf, np.zeros([2])), ("N",)),
                                          (_pwd(tf, 1.0), ())]),
                             tf.constant(1)],
}

# label -> builder of an op that fails at run time (error type and message are the fixture)
RUN_CASES = {
    "verify_nan": lambda tf: tf.verify_tensor_all_finite(_pwd(tf, [1., np.nan]), "bad x"),
    "verify_inf": lambda tf: tf.verify_tensor_all_finite(t=_pwd(tf, [np.inf]), msg="m2"),
    "verify_both": lambda tf: tf.debugging.assert_all_finite(
        _pwd(tf, [np.inf, np.nan], tf.float16), "both"),
    "check_numerics_ops": lambda tf: _add_check_numerics(tf, [1., np.inf]),
    "shapes_rank": lambda tf: _shapes(tf, [(_pwd(tf, [1, 2]), ("N", "M"))]),
    "shapes_rank_in": lambda tf: _shapes(tf, [(_pwd(tf, [[1, 2]]), ("N",))], message="mm"),
    "shapes_rank_at_least": lambda tf: _shapes(tf, [(_pwd(tf, [1]), ("...", "A", "B"))]),
    "shapes_explicit": lambda tf: _shapes(tf, [(_pwd(tf, [[1, 2]]), (1, 3))]),
    "shapes_named": lambda tf: _shapes(tf, [(_pwd(tf, [[1, 2]]), ("N", "Q")),
                                            (_pwd(tf, [1, 2, 3]), ("Q",))]),
    "shapes_named_inner": lambda tf: _shapes(tf, [(_pwd(tf, np.zeros([2, 4])), ("*", "D")),
                                                  (_pwd(tf, np.zeros([5, 3, 2])),
                                                   (Ellipsis, "D", 2))],
                                             summarize=2),
    "shapes_data": lambda tf: _shapes(tf, [(_pwd(tf, [1, 2]), (3,))], data=["custom", 7]),
    "shapes_dict": lambda tf: _shapes(tf, {_pwd(tf, [1., 2.]): ("N",),
                                           _pwd(tf, [[1.], [2.]]): ("N", "N")}),
    "shapes_scalar": lambda tf: _shapes(tf, [(_pwd(tf, 5), (2,))]),
    "shapes_sparse": lambda tf: _shapes(tf, [(_sparse(tf, [2, 3], fed=True), ("N", "M")),
                                             (_pwd(tf, [1., 2., 3.]), ("N",))]),
    "equal_data": lambda tf: tf.debugging.assert_equal(_pwd(tf, [1, 2]), _pwd(tf, [1, 3]),
                                                       data=["d", _pwd(tf, [9, 8])],
                                                       message="pre"),
    "less_all": lambda tf: tf.debugging.assert_less(_pwd(tf, np.arange(8)),
                                                    _pwd(tf, np.arange(8) - 1), summarize=-1),
    "greater_name": lambda tf: tf.debugging.assert_greater(_pwd(tf, [1.]), _pwd(tf, [2.]),
                                                           message="m", name="chk"),
    "near_default_tol": lambda tf: tf.debugging.assert_near(_pwd(tf, [1.0], tf.float64),
                                                            _pwd(tf, [1.001], tf.float64)),
    "positive_summarize": lambda tf: tf.debugging.assert_positive(
        _pwd(tf, np.arange(-3, 3)), summarize=2, message="pos"),
    "non_positive_msg": lambda tf: tf.assert_non_positive(_pwd(tf, [2.5]), message="np"),
    "rank_msg": lambda tf: tf.debugging.assert_rank(_pwd(tf, 1.), 1, message="rk"),
    "rank_in_data": lambda tf: tf.assert_rank_in(_pwd(tf, 1.), [1, 2], data=["only"]),
}

# label -> builder raising at construction (error type and message are the fixture)
STATIC_CASES = {
    "shapes_explicit": lambda tf: _shapes(tf, [(tf.zeros([2, 3]), (2, 4))]),
    "shapes_named": lambda tf: _shapes(tf, [(tf.zeros([2, 3], name="a"), ("N", "Q")),
                                            (tf.zeros([3, 3], name="b"), ("N", "Q"))]),
    "shapes_named_msg": lambda tf: _shapes(tf, [(tf.zeros([2, 3]), ("N", "Q")),
                                                (tf.zeros([4]), ("Q",))], message="m"),
    "shapes_inner": lambda tf: _shapes(tf, [(tf.zeros([5, 2, 3]), ("...", "N")),
                                            (tf.zeros([4]), ("N",))]),
    "shapes_rank": lambda tf: _shapes(tf, [(tf.zeros([2, 3]), ("N",))]),
    "shapes_rank3": lambda tf: _shapes(tf, [(tf.zeros([2, 3]), ("A", "B", "C"))]),
    "shapes_rank_at_least": lambda tf: _shapes(tf, [(tf.zeros([2]), ("*", "A", "B"))],
                                               message="m"),
    "shapes_scalar": lambda tf: _shapes(tf, [(tf.constant(1.), ("N", "M"))]),
    "shapes_scalar_size": lambda tf: _shapes(tf, [(tf.constant(1.), (3,))]),
    "shapes_sparse": lambda tf: _shapes(tf, [(_sparse(tf, [2, 3]), ("N", 4))]),
    "shapes_sparse_rank": lambda tf: _shapes(tf, [(_sparse(tf, [2, 3]), ("N",))]),
    "shapes_sparse_named": lambda tf: _shapes(tf, [(_sparse(tf, [2, 3]), ("N", "M")),
                                                   (tf.zeros([3]), ("N",))]),
    "shapes_ellipsis_late": lambda tf: _shapes(tf, [(tf.zeros([2]), ("N", "..."))]),
    "shapes_not_iterable": lambda tf: _shapes(tf, [(tf.zeros([2]), 5)], message="m"),
    "shapes_tensor_shape": lambda tf: _shapes(tf, [(tf.zeros([2, 3]), tf.TensorShape([2, 2]))]),
    "shapes_string_int": lambda tf: _shapes(tf, [(tf.zeros([2, 3]), ("2", "4"))]),
    "same_float_mixed": lambda tf: tf.assert_same_float_dtype(
        [tf.constant(1., name="a"), tf.constant(1., tf.float64, name="b")]),
    "same_float_expected": lambda tf: tf.debugging.assert_same_float_dtype(
        [tf.constant(1., name="a")], tf.float64),
    "same_float_int": lambda tf: tf.assert_same_float_dtype([tf.constant(1)]),
    "same_float_int_dtype": lambda tf: tf.assert_same_float_dtype(None, tf.int32),
    "non_decreasing_string": lambda tf: tf.math.is_non_decreasing(tf.constant(["a", "b"])),
    "increasing_bool": lambda tf: tf.math.is_strictly_increasing(tf.constant([True])),
    "check_numerics_in_cond": _add_check_numerics_in_cond,
    "verify_int": lambda tf: tf.verify_tensor_all_finite(tf.constant([1]), "m"),
    "equal_data_msg": lambda tf: tf.debugging.assert_equal(tf.constant([1, 2]),
                                                           tf.constant([1, 3]),
                                                           data=["d", tf.constant(4)],
                                                           message="pre"),
    "greater_equal_default": lambda tf: tf.debugging.assert_greater_equal(
        tf.constant([[1., 2.]]), tf.constant(3.), message="m"),
    "none_equal_static": lambda tf: tf.assert_none_equal(tf.constant(2), tf.constant([1, 2])),
    "negative_static": lambda tf: tf.debugging.assert_negative(tf.constant([0, -1]),
                                                               message="n"),
    "rank_at_least_msg": lambda tf: tf.debugging.assert_rank_at_least(
        tf.zeros([2]), 3, message="m"),
    "rank_in_msg": lambda tf: tf.assert_rank_in(tf.zeros([2, 2, 2]), [1, 2], message="m"),
    "integer_msg": lambda tf: tf.assert_integer(tf.constant([1.5]), message="m"),
    "type_msg": lambda tf: tf.debugging.assert_type(tf.constant([1.5]), tf.float64,
                                                    message="m"),
    "scalar_msg": lambda tf: tf.assert_scalar(tf.zeros([1]), message="m"),
}

# label -> builder; the fixture lists (name, type) of every node of the graph
NAME_CASES = {
    "verify": lambda tf: tf.verify_tensor_all_finite(tf.placeholder(tf.float32), "m"),
    "assert_all_finite_named": lambda tf: tf.debugging.assert_all_finite(
        tf.placeholder(tf.float32, [2]), "m", name="fin"),
    "check_numerics_ops": lambda tf: _add_check_numerics(tf, [1., 2.]),
    "shapes_static_ok": lambda tf: _shapes(tf, [(tf.zeros([2, 3]), ("N", "Q")),
                                                (tf.zeros([2]), ("N",))]),
    "shapes_dynamic": lambda tf: _shapes(tf, [(tf.placeholder(tf.float32, [None, 3]),
                                               ("N", "Q")),
                                              (tf.placeholder(tf.float32, [None]), ("N",))]),
    "shapes_unknown_rank": lambda tf: _shapes(tf, [(tf.placeholder(tf.float32), ("N", 2))]),
    "shapes_inner": lambda tf: _shapes(tf, [(tf.placeholder(tf.float32, [None, None, 4]),
                                             ("...", "N", 4))], name="sh"),
    "shapes_none_entry": lambda tf: _shapes(tf, [(tf.placeholder(tf.float32, [None]), None),
                                                 (tf.placeholder(tf.float32, [None, 2]),
                                                  (None, ".")),
                                                 (tf.placeholder(tf.float32, [3, None]), ("*",))]),
    "shapes_sparse": lambda tf: _shapes(tf, [(_sparse(tf, [2, 3], fed=True), ("N", "M")),
                                             (tf.placeholder(tf.float32, [None]), ("N",))]),
    "non_decreasing": lambda tf: tf.math.is_non_decreasing(tf.placeholder(tf.float32)),
    "greater_data": lambda tf: tf.debugging.assert_greater(
        tf.placeholder(tf.int32, [2]), tf.placeholder(tf.int32, [2]),
        data=["d", tf.placeholder(tf.int32, [])], message="m", summarize=4, name="g"),
    "non_negative_msg": lambda tf: tf.assert_non_negative(tf.placeholder(tf.int32),
                                                          message="nn"),
    "rank_at_least_dyn": lambda tf: tf.debugging.assert_rank_at_least(
        tf.placeholder(tf.int32), 2, message="r"),
    "increasing_v1": lambda tf: _v1_cond(
        tf, lambda: tf.math.is_strictly_increasing(tf.placeholder(tf.int32, [3]))),
}

# label -> builder returning a Python value (a DType's name here)
PY_CASES = {
    "same_float_none": lambda tf: tf.assert_same_float_dtype().name,
    "same_float_tensors": lambda tf: tf.debugging.assert_same_float_dtype(
        [tf.constant(1., tf.float64), None, tf.constant(2., tf.float64)]).name,
    "same_float_dtype_only": lambda tf: tf.assert_same_float_dtype(None, tf.float16).name,
    "same_float_both": lambda tf: tf.assert_same_float_dtype(
        [tf.constant(1., tf.float16)], tf.float16).name,
}
