"""Value helpers shared by gen_indexing.py and gen_space.py."""
import numpy as np

from golden_lib import tf

BF16 = tf.bfloat16.as_numpy_dtype
# Every dtype the memory-moving kernels handle (TensorFlow registers all of them on CPU).
ALL = ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64", "uint8",
       "uint16", "uint32", "uint64", "bool", "complex64", "complex128", "string"]


def val(ints, dtype):
    """ints (any nested list / array) as dtype: strings spell the numbers, bools are x % 2."""
    a = np.asarray(ints)
    if dtype == "string":
        return np.array([("s%d" % v).encode() for v in a.ravel()], dtype=object).reshape(a.shape)
    if dtype == "bool":
        return (a % 2).astype(bool)
    if dtype == "bfloat16":
        return a.astype(np.float32).astype(BF16)
    if dtype.startswith("complex"):
        return (a + 1j * (a % 3)).astype(dtype)
    return a.astype(dtype)
