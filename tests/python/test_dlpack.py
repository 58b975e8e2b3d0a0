"""DLPack interchange (minitf.experimental.dlpack, Session.run feeds and
fetches) with NumPy always, PyTorch and JAX when installed (`make
test-interop` installs nothing; it runs this file with whatever is there).
Every test checks that memory is shared (data pointers) and values stay
valid after the producer's last Python reference is dropped."""
import gc

import numpy as np
import pytest

import minitf as tf
from minitf.experimental import dlpack


def _ptr(a):
    return np.asarray(a).__array_interface__["data"][0]


def test_numpy_round_trip_shares_memory():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    addr = a.ctypes.data
    cap = dlpack.to_dlpack(a)
    assert "dltensor" in repr(cap) and "used" not in repr(cap)
    del a
    gc.collect()
    b = dlpack.from_dlpack(cap)
    assert "used_dltensor" in repr(cap)
    assert b.ctypes.data == addr
    np.testing.assert_array_equal(b, np.arange(12, dtype=np.float32).reshape(3, 4))


def test_capsule_consumed_at_most_once():
    cap = dlpack.to_dlpack(np.ones(3, np.int64))
    dlpack.from_dlpack(cap)
    with pytest.raises(BufferError, match="already consumed"):
        dlpack.from_dlpack(cap)


def test_numpy_producer_and_consumer_of_fetches():
    x = tf.compat.v1.placeholder(tf.float32, [None, 3])
    y = x * 2.0
    with tf.Session() as sess:
        src = np.arange(6, dtype=np.float32).reshape(2, 3)
        out = sess.run(y, {x: dlpack.from_dlpack(src)})
    view = np.from_dlpack(out)
    assert _ptr(view) == _ptr(out)
    del out
    gc.collect()
    np.testing.assert_array_equal(view, [[0, 2, 4], [6, 8, 10]])


def test_dtypes_round_trip():
    for dt in (np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
               np.uint8, np.uint16, np.uint32, np.uint64, np.bool_, np.complex64, np.complex128):
        a = (np.arange(4) % 2).astype(dt)
        b = dlpack.from_dlpack(dlpack.to_dlpack(a))
        assert b.dtype == a.dtype and b.ctypes.data == a.ctypes.data
        np.testing.assert_array_equal(a, b)


def test_strided_producer_is_copied_once():
    a = np.arange(6, dtype=np.int32).reshape(2, 3).T  # not C-contiguous
    b = dlpack.from_dlpack(a)
    np.testing.assert_array_equal(b, a)
    assert b.flags.c_contiguous


def test_bad_inputs():
    with pytest.raises(BufferError, match="string"):
        dlpack.to_dlpack(np.array([b"a"], dtype=object))

    class OnGpu:
        def __dlpack__(self, stream=None, max_version=None):
            raise AssertionError("must not be asked for a capsule")

        def __dlpack_device__(self):
            return (2, 0)  # kDLCUDA

    with pytest.raises(BufferError, match="device type 2"):
        dlpack.from_dlpack(OnGpu())
    with pytest.raises(TypeError):
        dlpack.from_dlpack([1, 2])




@pytest.fixture
def torch_mod():
    return pytest.importorskip("torch")


def test_torch_feed_without_copy(torch_mod):
    torch = torch_mod
    t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    addr = t.data_ptr()
    view = dlpack.from_dlpack(t)
    assert view.ctypes.data == addr
    x = tf.compat.v1.placeholder(tf.float32, [2, 3])
    ident = tf.identity(x)
    with tf.Session() as sess:
        out = sess.run(ident + 1.0, {x: t})  # fed straight from the torch tensor
        np.testing.assert_array_equal(out, [[1, 2, 3], [4, 5, 6]])
    del t
    gc.collect()
    np.testing.assert_array_equal(view, [[0, 1, 2], [3, 4, 5]])


def test_torch_takes_fetches_without_copy(torch_mod):
    torch = torch_mod
    x = tf.compat.v1.placeholder(tf.float64, [3])
    with tf.Session() as sess:
        out = sess.run(x * 3.0, {x: np.array([1.0, 2.0, 3.0])})
    t = torch.from_dlpack(out)
    assert t.data_ptr() == out.ctypes.data
    t2 = torch.from_dlpack(dlpack.to_dlpack(out))  # through our legacy capsule
    assert t2.data_ptr() == out.ctypes.data
    del out
    gc.collect()
    assert t.tolist() == [3.0, 6.0, 9.0] and t2.tolist() == [3.0, 6.0, 9.0]


def test_torch_versioned_capsule(torch_mod):
    torch = torch_mod
    t = torch.tensor([True, False, True])
    cap = t.__dlpack__(max_version=(1, 1))
    if "versioned" not in repr(cap):
        pytest.skip("this torch exports only legacy capsules")
    b = dlpack.from_dlpack(cap)
    assert "used_dltensor_versioned" in repr(cap)
    assert b.dtype == np.bool_ and b.ctypes.data == t.data_ptr()
    assert b.tolist() == [True, False, True]


def test_jax_round_trip():
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp
    x = jnp.arange(4.0, dtype=jnp.float32)
    b = dlpack.from_dlpack(x)
    np.testing.assert_array_equal(b, [0, 1, 2, 3])
    y = jax.dlpack.from_dlpack(b)
    np.testing.assert_array_equal(np.asarray(y), [0, 1, 2, 3])
