"""tf.test (TF1): numerical and symbolic Jacobians for checking gradients.

`compute_gradient` and `compute_gradient_error` mirror tf.compat.v1.test's functions of the
same names (TensorFlow's gradient_checker): they run in the default session.
"""
import numpy as np

from minitf.framework import ops


def _size(shape):
    return int(np.prod(shape)) if len(shape) else 1


def _dense(value):
    from minitf.framework.indexed_slices import IndexedSlices
    if isinstance(value, IndexedSlices):
        return ops.convert_to_tensor(value)
    return value


def _theoretical(x, x_shape, x_data, dy, dy_shape, dx, extra_feed_dict):
    x_size, dy_size = _size(x_shape), _size(dy_shape)
    jac = np.zeros((x_size, dy_size), dtype=np.float64)
    sess = ops.get_default_session()
    dy_data = np.zeros(dy_shape, dtype=dy.dtype.as_numpy_dtype)
    flat = dy_data.reshape(-1)
    for col in range(dy_size):
        flat[:] = 0
        flat[col] = 1
        feed = dict(extra_feed_dict)
        feed[x] = x_data
        feed[dy] = dy_data
        value = sess.run(dx, feed)
        jac[:, col] = np.asarray(value, dtype=np.float64).reshape(x_size)
    return jac


def _numerical(x, x_shape, x_data, y, y_shape, delta, extra_feed_dict):
    x_size, y_size = _size(x_shape), _size(y_shape)
    jac = np.zeros((x_size, y_size), dtype=np.float64)
    sess = ops.get_default_session()
    base = x_data.copy()
    flat = base.reshape(-1)
    for row in range(x_size):
        orig = flat[row]
        flat[row] = orig + delta
        feed = dict(extra_feed_dict)
        feed[x] = base
        y_pos = np.asarray(sess.run(y, feed), dtype=np.float64)
        flat[row] = orig - delta
        feed[x] = base
        y_neg = np.asarray(sess.run(y, feed), dtype=np.float64)
        flat[row] = orig
        jac[row, :] = ((y_pos - y_neg) / (2 * delta)).reshape(y_size)
    return jac


def _one(x, x_shape, y, y_shape, x_init_value, delta, extra_feed_dict):
    from minitf.ops import gradients_impl
    from minitf.ops.array_ops import placeholder
    x_shape = list(x_shape)
    y_shape = list(y_shape)
    dt = x.dtype.base_dtype
    if x_init_value is not None:
        x_data = np.asarray(x_init_value, dtype=dt.as_numpy_dtype).copy()
        if list(x_data.shape) != x_shape:
            raise ValueError("x_init_value has shape %s, x_shape is %s" %
                             (list(x_data.shape), x_shape))
    else:
        x_data = np.random.random_sample(x_shape).astype(dt.as_numpy_dtype)
    with x.graph.as_default():
        dy = placeholder(y.dtype.base_dtype, y_shape)
        dx = gradients_impl.gradients(y, x, dy)[0]
    if dx is None:
        theory = np.zeros((_size(x_shape), _size(y_shape)))
    else:
        theory = _theoretical(x, x_shape, x_data, dy, y_shape, _dense(dx), extra_feed_dict)
    numeric = _numerical(x, x_shape, x_data, y, y_shape, delta, extra_feed_dict)
    return theory, numeric


def compute_gradient(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3, init_targets=None,
                     extra_feed_dict=None):
    """Symbolic and numerical Jacobians of y with respect to x (tf.compat.v1.test.compute_gradient).

    Args:
      x: a float Tensor (placeholder or any feedable tensor), or a list of them.
      x_shape: x's shape (a list of shapes when x is a list).
      y: the Tensor to differentiate; y_shape its shape.
      x_init_value: the point to evaluate at (default: uniform random in [0, 1)).
      delta: the step of the central differences.
      init_targets: ops run once first (variable initializers).
      extra_feed_dict: more feeds for every run.

    Returns:
      (theoretical, numerical): two float64 arrays [x_size, y_size], or a list of such pairs
      when x is a list. Runs in the default session (ValueError without one).
    """
    sess = ops.get_default_session()
    if sess is None:
        raise ValueError("compute_gradient needs a default session (with tf.Session():)")
    extra_feed_dict = extra_feed_dict or {}
    if init_targets is not None:
        sess.run(init_targets)
    if isinstance(x, (list, tuple)):
        inits = x_init_value if x_init_value is not None else [None] * len(x)
        return [_one(xi, si, y, y_shape, vi, delta, extra_feed_dict)
                for xi, si, vi in zip(x, x_shape, inits)]
    return _one(x, x_shape, y, y_shape, x_init_value, delta, extra_feed_dict)


def compute_gradient_error(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3,
                           init_targets=None, extra_feed_dict=None):
    """The largest absolute difference between the symbolic and numerical Jacobians
    (tf.compat.v1.test.compute_gradient_error); arguments as compute_gradient."""
    grad = compute_gradient(x, x_shape, y, y_shape, x_init_value, delta, init_targets,
                            extra_feed_dict)
    pairs = grad if isinstance(grad, list) else [grad]
    err = 0.0
    for theory, numeric in pairs:
        if theory.size or numeric.size:
            err = max(err, float(np.fabs(theory - numeric).max()))
    return err


__all__ = ["compute_gradient", "compute_gradient_error"]
