"""Cases shared by tools/gen_logging_expected.py (run with real TensorFlow) and the tests of
logging ops, asserts and py_func: each builder takes the `tf` module (TensorFlow's
tf.compat.v1 or minitf) and builds the same graph in the default graph."""
import sys

import numpy as np


def _pwd(tf, value, dtype=None):
    # A value the graph cannot fold: checks run at run time, not at construction.
    return tf.placeholder_with_default(tf.constant(value, dtype=dtype), None)


# label -> builder returning a scalar string tensor (tf.strings.format)
FORMAT_CASES = {
    "vec": lambda tf: tf.strings.format("{}", tf.constant([1, 2, 3])),
    "mat": lambda tf: tf.strings.format("{}", tf.constant([[1, 2], [3, 4]])),
    "big_s2": lambda tf: tf.strings.format("{}", tf.reshape(tf.range(20), [4, 5]), summarize=2),
    "big3_s2": lambda tf: tf.strings.format("{}", tf.reshape(tf.range(112), [2, 7, 8]),
                                            summarize=2),
    "t3": lambda tf: tf.strings.format("{}", tf.reshape(tf.range(24), [2, 3, 4])),
    "all": lambda tf: tf.strings.format("{}", tf.range(10), summarize=-1),
    "s0": lambda tf: tf.strings.format("{}", tf.range(5), summarize=0),
    "scalar_s0": lambda tf: tf.strings.format("{}", tf.constant(5), summarize=0),
    "floats": lambda tf: tf.strings.format("{} {}", (
        tf.constant([0.1, 1 / 3., 1e10, -0.0, np.nan, np.inf, 1e-8]),
        tf.constant([0.1, 1 / 3.], tf.float64))),
    "strings": lambda tf: tf.strings.format("{}", tf.constant(["a", "b\n", "q\"'\\"])),
    "string_scalar": lambda tf: tf.strings.format("x={}", tf.constant("hi")),
    "bools": lambda tf: tf.strings.format("{}", tf.constant([True, False])),
    "empty": lambda tf: tf.strings.format("{}", tf.zeros([0])),
    "empty2": lambda tf: tf.strings.format("{}", tf.zeros([2, 0])),
    "uint8_half": lambda tf: tf.strings.format("{} {}", (tf.constant([233], tf.uint8),
                                                         tf.constant([1.5], tf.float16))),
    "complex": lambda tf: tf.strings.format("{}", tf.constant([1 + 2j, 3j])),
    "placeholder": lambda tf: tf.strings.format("a %s b %s", (tf.constant(1), tf.constant([2])),
                                                placeholder="%s"),
    "no_inputs": lambda tf: tf.strings.format("abc", []),
}

# label -> builder of an op that fails at run time (its message is the fixture)
ASSERT_RUN_CASES = {
    "ints": lambda tf: tf.Assert(_pwd(tf, False), [tf.constant([1, 2, 3, 4]), "x"]),
    "summarize5": lambda tf: tf.Assert(_pwd(tf, False), [tf.reshape(tf.range(12), [2, 2, 3])],
                                       summarize=5),
    "mixed": lambda tf: tf.Assert(_pwd(tf, False), [
        tf.constant([1 + 2j, 3j, 4, 5]), tf.constant([[1.5, 2], [3, 4]]),
        tf.constant(["a\x01", "b"]), tf.constant(True)]),
    "all": lambda tf: tf.Assert(_pwd(tf, False), [tf.range(6)], summarize=-1),
    "not_scalar": lambda tf: tf.Assert(_pwd(tf, [False, True]), [1]),
    "equal": lambda tf: tf.debugging.assert_equal(_pwd(tf, [1, 2, 3]), _pwd(tf, [1, 2, 4]),
                                                  message="msg"),
    "equal_f": lambda tf: tf.debugging.assert_equal(_pwd(tf, [1., 2.]), _pwd(tf, [1., 3.])),
    "none_equal": lambda tf: tf.debugging.assert_none_equal(_pwd(tf, [1, 2]), _pwd(tf, [3, 2])),
    "less": lambda tf: tf.debugging.assert_less(_pwd(tf, [1, 5]), _pwd(tf, [2, 3]),
                                                summarize=1),
    "less_equal": lambda tf: tf.debugging.assert_less_equal(_pwd(tf, [3]), _pwd(tf, [2])),
    "greater": lambda tf: tf.assert_greater(_pwd(tf, [1, 2]), _pwd(tf, [1, 1])),
    "greater_equal": lambda tf: tf.assert_greater_equal(_pwd(tf, [0]), _pwd(tf, [1])),
    "positive": lambda tf: tf.debugging.assert_positive(_pwd(tf, [1, -2, 3])),
    "negative": lambda tf: tf.debugging.assert_negative(_pwd(tf, [-1, 2]), message="neg"),
    "non_negative": lambda tf: tf.debugging.assert_non_negative(_pwd(tf, [-1.5])),
    "non_positive": lambda tf: tf.debugging.assert_non_positive(_pwd(tf, [1])),
    "near": lambda tf: tf.debugging.assert_near(_pwd(tf, [1., 2.]), _pwd(tf, [1., 2.5]),
                                                rtol=0.1, atol=0.1),
    "rank": lambda tf: tf.debugging.assert_rank(_pwd(tf, [1, 2]), 2),
    "rank_at_least": lambda tf: tf.debugging.assert_rank_at_least(_pwd(tf, [1, 2]), 2),
    "rank_in": lambda tf: tf.debugging.assert_rank_in(_pwd(tf, [1, 2]), [0, 2]),
}

# label -> builder raising at construction (type and message are the fixture)
STATIC_CASES = {
    "equal": lambda tf: tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 3])),
    "less_msg": lambda tf: tf.debugging.assert_less(tf.constant(3), tf.constant(2),
                                                    message="m"),
    "positive": lambda tf: tf.debugging.assert_positive(tf.constant([1, -1])),
    "rank": lambda tf: tf.debugging.assert_rank(tf.constant([1, 2]), 2),
    "rank_msg": lambda tf: tf.debugging.assert_rank(tf.zeros([2, 3]), 1, message="m"),
    "rank_at_least": lambda tf: tf.debugging.assert_rank_at_least(tf.constant(1), 1),
    "rank_in": lambda tf: tf.debugging.assert_rank_in(tf.zeros([2]), [0, 2]),
    "rank_not_scalar": lambda tf: tf.debugging.assert_rank(tf.zeros([2]), [1]),
    "integer": lambda tf: tf.debugging.assert_integer(tf.constant(1.0)),
    "type": lambda tf: tf.debugging.assert_type(tf.constant(1.0), tf.int32),
    "scalar": lambda tf: tf.debugging.assert_scalar(tf.constant([1, 2])),
    "proper_iterable": lambda tf: tf.debugging.assert_proper_iterable(np.zeros(2)),
    "format_count": lambda tf: tf.strings.format("{} {}", [tf.constant(1)]),
    "print_stream": lambda tf: tf.print("x", output_stream="bogus"),
    "print_kwarg": lambda tf: tf.print("x", bogus=1),
    "printv2_rank": lambda tf: tf.raw_ops.PrintV2(input=tf.constant(["a", "b"])),
}

# label -> builder; the fixture lists the (name, type) of every op in the graph. Cases
# whose Assert data are not all string/int32 get TensorFlow's AssertGuard (tf.cond).
NEEDS_COND = {"assert_equal_f", "assert_positive_f", "assert_near", "Assert_float"}
NAME_CASES = {
    "assert_equal": lambda tf: tf.debugging.assert_equal(tf.placeholder(tf.int32, [3]),
                                                         tf.placeholder(tf.int32, [3])),
    "assert_equal_twice": lambda tf: [tf.debugging.assert_equal(tf.placeholder(tf.int32, [2]),
                                                                tf.placeholder(tf.int32, [2]))
                                      for _ in range(2)],
    "assert_equal_same": lambda tf: (lambda x: tf.debugging.assert_equal(x, x))(
        tf.placeholder(tf.int32)),
    "assert_positive": lambda tf: tf.debugging.assert_positive(tf.placeholder(tf.int32, [3])),
    "assert_rank": lambda tf: tf.debugging.assert_rank(tf.placeholder(tf.float32), 2),
    "assert_rank_static": lambda tf: tf.debugging.assert_rank(tf.zeros([2, 2]), 2),
    "assert_rank_in": lambda tf: tf.debugging.assert_rank_in(tf.placeholder(tf.float32),
                                                             [1, 2]),
    "assert_rank_dyn": lambda tf: tf.debugging.assert_rank(tf.placeholder(tf.float32, [2]),
                                                           tf.placeholder(tf.int32)),
    "assert_type": lambda tf: tf.debugging.assert_type(tf.constant(1), tf.int32, name="t"),
    "assert_integer": lambda tf: tf.debugging.assert_integer(tf.constant(1)),
    "Assert_int": lambda tf: tf.Assert(tf.placeholder(tf.bool, []), [tf.constant([1, 2]), "s"],
                                       name="chk"),
    "Print": lambda tf: tf.Print(tf.constant(1.0), [tf.constant([1, 2]), "s"], message="hi "),
    "print": lambda tf: tf.print("a", tf.constant([1, 2]), {"k": tf.constant(3)},
                                 output_stream=sys.stdout, sep="|", end="!\n"),
    "print_named": lambda tf: tf.print(tf.constant(1), name="p"),
    "print_scalar_string": lambda tf: tf.print(tf.constant("s")),
    "format": lambda tf: tf.strings.format("{}", tf.constant(1), name="f"),
    "py_func": lambda tf: [tf.py_func(lambda a: a, [tf.constant(1.)], tf.float32),
                           tf.py_func(lambda a: a, [tf.constant(1.)], [tf.float32],
                                      stateful=False, name="pf"),
                           tf.numpy_function(lambda a: a, [tf.constant(1.)], tf.float32),
                           tf.py_function(lambda a: a, [tf.constant(1.)], tf.float32)],
    "assert_equal_f": lambda tf: tf.debugging.assert_equal(tf.placeholder(tf.float32, [3]),
                                                           tf.placeholder(tf.float32, [3])),
    "assert_positive_f": lambda tf: tf.debugging.assert_positive(
        tf.placeholder(tf.float32, [3])),
    "assert_near": lambda tf: tf.debugging.assert_near(tf.placeholder(tf.float32),
                                                       tf.placeholder(tf.float32)),
    "Assert_float": lambda tf: tf.Assert(tf.placeholder(tf.bool, []), [tf.constant(1.0)]),
}

# label -> (builder of the op to run, stream): what the run prints (fd 1 or 2)
PRINT_CASES = {
    "print": (lambda tf: tf.print("a", tf.constant([1, 2]), {"k": tf.constant(3)},
                                  output_stream=sys.stdout, sep="|", end="!\n"), 1),
    "print_default": (lambda tf: tf.print("loss:", tf.constant(0.5), [tf.constant(1), "x"]), 2),
    "print_nested": (lambda tf: tf.print({"b": tf.constant([1.5]), "a": ("s", tf.constant(2))},
                                         output_stream=sys.stdout), 1),
    "print_big": (lambda tf: tf.print(tf.reshape(tf.range(100), [10, 10]),
                                      output_stream=sys.stdout), 1),
    "print_summarize": (lambda tf: tf.print(tf.range(10), summarize=2,
                                            output_stream=sys.stdout), 1),
    "print_braces": (lambda tf: tf.print("{}", tf.constant(1), output_stream=sys.stdout), 1),
    "print_string_tensor": (lambda tf: tf.print(tf.constant("raw\n"), end="",
                                                output_stream=sys.stdout), 1),
    "Print": (lambda tf: tf.Print(tf.constant(1.0), [tf.constant([1, 2, 3, 4]), "s"],
                                  message="hi "), 2),
    "Print_summarize": (lambda tf: tf.Print(tf.constant(1), [tf.reshape(tf.range(6), [2, 3])],
                                            summarize=4), 2),
}


def raise_runtime(a):
    raise RuntimeError("boom")


def raise_value(a):
    raise ValueError("bad value")


def raise_type(a):
    raise TypeError("bad type")


def raise_stop(a):
    raise StopIteration()


def raise_not_impl(a):
    raise NotImplementedError("later")


def raise_memory(a):
    raise MemoryError("mem")


# label -> builder of a tensor/op whose run fails (code name and message head are the fixture)
PY_FUNC_ERROR_CASES = {
    "dtype": lambda tf: tf.py_func(lambda a: np.array([1, 2]), [tf.constant([1.])], tf.float32),
    "count": lambda tf: tf.py_func(lambda a: (a, a), [tf.constant([1.])], [tf.float32]),
    "none": lambda tf: tf.py_func(lambda: None, [], tf.float32),
    "runtime": lambda tf: tf.py_func(raise_runtime, [tf.constant(1.)], tf.float32),
    "value": lambda tf: tf.py_func(raise_value, [tf.constant(1.)], tf.float32),
    "type": lambda tf: tf.py_func(raise_type, [tf.constant(1.)], tf.float32),
    "stop": lambda tf: tf.py_func(raise_stop, [tf.constant(1.)], tf.float32),
    "not_impl": lambda tf: tf.py_func(raise_not_impl, [tf.constant(1.)], tf.float32),
    "memory": lambda tf: tf.py_func(raise_memory, [tf.constant(1.)], tf.float32),
    "eager_runtime": lambda tf: tf.py_function(raise_runtime, [tf.constant(1.)], tf.float32),
    "eager_dtype": lambda tf: tf.py_function(lambda a: a, [tf.constant([1.])], tf.int32),
}

# label -> builder of fetches whose values are the fixture
PY_FUNC_VALUE_CASES = {
    "double": lambda tf: tf.py_func(lambda a: a * 2, [tf.constant([1., 2.])], tf.float32),
    "two": lambda tf: tf.py_func(lambda a, b: [a + b, a * b],
                                 [tf.constant([1, 2]), tf.constant([3, 4])],
                                 [tf.int32, tf.int32], stateful=False),
    "scalar": lambda tf: tf.py_func(lambda: 3.0, [], tf.float64),
    "strings": lambda tf: tf.py_func(lambda s: s, [tf.constant(["x", "y"])], tf.string),
    "str_out": lambda tf: tf.py_func(lambda: np.array(["ab", "c"]), [], tf.string),
    "numpy_function": lambda tf: tf.numpy_function(lambda a: a + 1, [tf.constant([1.])],
                                                   tf.float32),
    "py_function": lambda tf: tf.py_function(lambda a: a.numpy() * 3, [tf.constant([1., 2.])],
                                             tf.float32),
    "py_function_scalar": lambda tf: tf.py_function(lambda a: 2.5, [tf.constant(1.)],
                                                    tf.float32),
    "py_function_np": lambda tf: tf.py_function(lambda a: np.array([1, 2], np.int32),
                                                [tf.constant([1.])], tf.float32),
    "py_function_multi": lambda tf: tf.py_function(lambda a: (a, 7), [tf.constant(1.)],
                                                   [tf.float32, tf.int64]),
    "arg_types": lambda tf: tf.py_func(
        lambda s, f, v, b: np.array([type(x).__name__ for x in (s, f, v, b)]),
        [tf.constant("x"), tf.constant(2.0), tf.constant(["a"]), tf.constant(True)], tf.string),
}
