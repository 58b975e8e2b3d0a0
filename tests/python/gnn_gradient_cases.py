"""tf.gradients programs over the nn, conv and pooling gradients (batch norm, LRN, TopKV2,
AvgPool, MaxPoolV2, depthwise conv, the second-order pooling and conv-backprop gradients),
written against the TF1 API so the same code runs on TensorFlow 2.21 (tf.compat.v1 graph
mode) and on minitf.

Each case takes the `tf` module and returns a dict of observable results: the backward
graph ("ops": name, type and inputs of every op tf.gradients added), the gradients' static
shapes, gradient values
([dtype name, nested list], None for no gradient) and errors (class name).
tools/gen_gnn_gradient_expected.py runs them on TensorFlow and writes
tests/fixtures/gnn_gradient_expected.json; tests/python/test_gnn_gradients.py replays them.
"""
import numpy as np

from gradient_cases import new_ops, run


def _rand(seed, *shape, dtype=np.float32):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _weights(shape, dtype=np.float32):
    n = int(np.prod(shape))
    return np.cos(np.arange(n, dtype=np.float64)).reshape(shape).astype(dtype)


def _grads(tf, g, ys, xs, feeds, w_shapes):
    """gradients of sum(y_j * w_j) (w_j = cos(arange)), the ops they added and values."""
    n = len(g.get_operations())
    grads = tf.gradients(ys, xs, grad_ys=[tf.constant(_weights(s)) for s in w_shapes])
    ops = [o for o in new_ops(g, n) if not o[0].startswith("Const")]
    return {"ops": ops, "names": [None if t is None else t.name for t in grads],
            "shapes": [None if t is None else t.shape.as_list() for t in grads],
            "values": run(tf, g, grads, feeds)}


def _batch_norm(version, fmt, training):
    def case(tf):
        g = tf.Graph()
        with g.as_default():
            shape = [2, 3, 4, 5] if fmt == "NHWC" else [2, 5, 3, 4]
            x = tf.placeholder(tf.float32, shape, name="x")
            vecs = [tf.placeholder(tf.float32, [5], name=n) for n in ("s", "o", "m", "v")]
            out = getattr(tf.raw_ops, "FusedBatchNorm" + version)(
                x=x, scale=vecs[0], offset=vecs[1], mean=vecs[2], variance=vecs[3],
                epsilon=0.001, data_format=fmt, is_training=training)
            feeds = {x: _rand(1, *shape) * 2 + 0.5, vecs[0]: _rand(2, 5) + 1,
                     vecs[1]: _rand(3, 5), vecs[2]: _rand(4, 5) * 0.1,
                     vecs[3]: np.abs(_rand(5, 5)) + 0.5}
            return _grads(tf, g, [out[0]], [x] + vecs, feeds, [shape])
    case.__name__ = "batch_norm%s_%s_%s" % (version.lower(), fmt.lower(),
                                            "train" if training else "infer")
    return case


def lrn(tf):
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2, 2, 3, 7], name="x")
        y = tf.raw_ops.LRN(input=x, depth_radius=2, bias=1.5, alpha=0.3, beta=0.75)
        return _grads(tf, g, [y], [x], {x: _rand(6, 2, 2, 3, 7)}, [[2, 2, 3, 7]])


def top_k(tf):
    """Static shapes: the shapes fold to Consts."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float64, [3, 6], name="x")
        v, _ = tf.raw_ops.TopKV2(input=x, k=2)
        n = len(g.get_operations())
        grads = tf.gradients(v, x, grad_ys=tf.constant(_weights([3, 2], np.float64)))
        return {"ops": new_ops(g, n),
                "values": run(tf, g, grads, {x: _rand(7, 3, 6, dtype=np.float64)})}


def top_k_fed_k(tf):
    """k fed and x of unknown batch: Shape, Size and StridedSlice at run time."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 2, 5], name="x")
        k = tf.placeholder(tf.int32, [], name="k")
        v, _ = tf.raw_ops.TopKV2(input=x, k=k, sorted=False)
        n = len(g.get_operations())
        grads = tf.gradients(v * v, x)
        return {"ops": new_ops(g, n), "shapes": [t.shape.as_list() for t in grads],
                "values": run(tf, g, grads, {x: _rand(8, 3, 2, 5), k: 3})}


def avg_pool(tf):
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2, 5, 5, 3], name="x")
        y = tf.raw_ops.AvgPool(value=x, ksize=[1, 3, 2, 1], strides=[1, 2, 2, 1],
                               padding="SAME")
        return _grads(tf, g, [y], [x], {x: _rand(9, 2, 5, 5, 3)}, [[2, 3, 3, 3]])


def avg_pool_nchw_dynamic(tf):
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 3, 5, 4], name="x")
        y = tf.raw_ops.AvgPool(value=x, ksize=[1, 1, 2, 2], strides=[1, 1, 2, 1],
                               padding="VALID", data_format="NCHW")
        n = len(g.get_operations())
        grads = tf.gradients(y * y, x)
        return {"ops": new_ops(g, n), "shapes": [t.shape.as_list() for t in grads],
                "values": run(tf, g, grads, {x: _rand(10, 2, 3, 5, 4)})}


def avg_pool_grad_grad(tf):
    g = tf.Graph()
    with g.as_default():
        dy = tf.placeholder(tf.float32, [1, 2, 3, 2], name="dy")
        y = tf.raw_ops.AvgPoolGrad(orig_input_shape=[1, 4, 5, 2], grad=dy, ksize=[1, 2, 2, 1],
                                   strides=[1, 2, 2, 1], padding="SAME")
        return _grads(tf, g, [y], [dy], {dy: _rand(11, 1, 2, 3, 2)}, [[1, 4, 5, 2]])


def max_pool_v2(tf):
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [1, 4, 6, 2], name="x")
        y = tf.raw_ops.MaxPoolV2(input=x, ksize=[1, 2, 3, 1], strides=[1, 2, 2, 1],
                                 padding="SAME")
        return _grads(tf, g, [y], [x], {x: _rand(12, 1, 4, 6, 2)}, [[1, 2, 3, 2]])


def _max_pool_second(big):
    def case(tf):
        g = tf.Graph()
        with g.as_default():
            shape = [2, 16, 16, 4] if big else [1, 4, 4, 2]
            pooled = [shape[0], shape[1] // 2, shape[2] // 2, shape[3]]
            x = tf.placeholder(tf.float32, shape, name="x")
            dy = tf.placeholder(tf.float32, pooled, name="dy")
            y = tf.nn.max_pool(x, 2, 2, "VALID")
            gx = tf.raw_ops.MaxPoolGrad(orig_input=x, orig_output=y, grad=dy,
                                        ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1],
                                        padding="VALID")
            feeds = {x: _rand(13, *shape), dy: _rand(14, *pooled)}
            return _grads(tf, g, [gx], [x, dy], feeds, [shape])
    case.__name__ = "max_pool_grad_grad" + ("_big" if big else "")
    return case


def max_pool_grad_v2_grad(tf):
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [1, 4, 4, 2], name="x")
        dy = tf.placeholder(tf.float32, [1, 2, 2, 2], name="dy")
        y = tf.raw_ops.MaxPoolV2(input=x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1],
                                 padding="VALID")
        gx = tf.raw_ops.MaxPoolGradV2(orig_input=x, orig_output=y, grad=dy, ksize=[1, 2, 2, 1],
                                      strides=[1, 2, 2, 1], padding="VALID")
        feeds = {x: _rand(15, 1, 4, 4, 2), dy: _rand(16, 1, 2, 2, 2)}
        return _grads(tf, g, [gx], [x, dy], feeds, [[1, 4, 4, 2]])


def max_pool_grad_grad_grad(tf):
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [1, 4, 4, 2], name="x")
        gg = tf.placeholder(tf.float32, [1, 4, 4, 2], name="gg")
        y = tf.nn.max_pool(x, 2, 2, "VALID")
        o = tf.raw_ops.MaxPoolGradGrad(orig_input=x, orig_output=y, grad=gg, ksize=[1, 2, 2, 1],
                                       strides=[1, 2, 2, 1], padding="VALID")
        feeds = {x: _rand(17, 1, 4, 4, 2), gg: _rand(18, 1, 4, 4, 2)}
        return _grads(tf, g, [o], [x, gg], feeds, [[1, 2, 2, 2]])


def depthwise(tf):
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2, 6, 5, 3], name="x")
        f = tf.placeholder(tf.float32, [3, 2, 3, 2], name="f")
        y = tf.raw_ops.DepthwiseConv2dNative(input=x, filter=f, strides=[1, 2, 1, 1],
                                             padding="SAME")
        feeds = {x: _rand(19, 2, 6, 5, 3), f: _rand(20, 3, 2, 3, 2)}
        return _grads(tf, g, [y], [x, f], feeds, [[2, 3, 5, 6]])


def depthwise_nchw(tf):
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [1, 2, 5, 5], name="x")
        f = tf.placeholder(tf.float32, [3, 3, 2, 3], name="f")
        y = tf.raw_ops.DepthwiseConv2dNative(input=x, filter=f, strides=[1, 1, 1, 1],
                                             padding="VALID", data_format="NCHW")
        feeds = {x: _rand(21, 1, 2, 5, 5), f: _rand(22, 3, 3, 2, 3)}
        return _grads(tf, g, [y], [x, f], feeds, [[1, 6, 3, 3]])


def _conv_backprop(kind):
    def case(tf):
        g = tf.Graph()
        with g.as_default():
            dy = tf.placeholder(tf.float32, [2, 3, 3, 4], name="dy")
            if kind == "input":
                a = tf.placeholder(tf.float32, [3, 3, 3, 4], name="f")
                y = tf.raw_ops.Conv2DBackpropInput(input_sizes=[2, 5, 5, 3], filter=a,
                                                   out_backprop=dy, strides=[1, 2, 2, 1],
                                                   padding="SAME")
                out_shape = [2, 5, 5, 3]
            elif kind == "filter":
                a = tf.placeholder(tf.float32, [2, 5, 5, 3], name="x")
                y = tf.raw_ops.Conv2DBackpropFilter(input=a, filter_sizes=[3, 3, 3, 4],
                                                    out_backprop=dy, strides=[1, 2, 2, 1],
                                                    padding="SAME")
                out_shape = [3, 3, 3, 4]
            elif kind == "dw_input":
                dy = tf.placeholder(tf.float32, [2, 3, 3, 6], name="dy")
                a = tf.placeholder(tf.float32, [3, 3, 3, 2], name="f")
                y = tf.raw_ops.DepthwiseConv2dNativeBackpropInput(
                    input_sizes=[2, 5, 5, 3], filter=a, out_backprop=dy, strides=[1, 2, 2, 1],
                    padding="SAME")
                out_shape = [2, 5, 5, 3]
            else:
                dy = tf.placeholder(tf.float32, [2, 3, 3, 6], name="dy")
                a = tf.placeholder(tf.float32, [2, 5, 5, 3], name="x")
                y = tf.raw_ops.DepthwiseConv2dNativeBackpropFilter(
                    input=a, filter_sizes=[3, 3, 3, 2], out_backprop=dy, strides=[1, 2, 2, 1],
                    padding="SAME")
                out_shape = [3, 3, 3, 2]
            feeds = {a: _rand(23, *a.shape.as_list()), dy: _rand(24, *dy.shape.as_list())}
            return _grads(tf, g, [y], [a, dy], feeds, [out_shape])
    case.__name__ = "conv_backprop_" + kind + "_grad"
    return case


def conv2d_nchw_grouped(tf):
    """NCHW, groups of 2, dilation: Conv2DBackpropInput/Filter on oneDNN's path in TF."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2, 4, 6, 5], name="x")
        f = tf.placeholder(tf.float32, [3, 2, 2, 6], name="f")
        y = tf.raw_ops.Conv2D(input=x, filter=f, strides=[1, 1, 1, 2], padding="SAME",
                              data_format="NCHW", dilations=[1, 1, 2, 1])
        feeds = {x: _rand(25, 2, 4, 6, 5), f: _rand(26, 3, 2, 2, 6)}
        return _grads(tf, g, [y], [x, f], feeds, [[2, 6, 6, 3]])


def errors(tf):
    """Run-time errors TensorFlow's CPU kernels give: MaxPoolGradGrad is NHWC only; the conv
    backprops refuse NCHW with explicit padding."""
    out = {}

    def attempt(key, build):
        g = tf.Graph()
        with g.as_default():
            try:
                fetch, feeds = build()
                with tf.Session(graph=g) as sess:
                    sess.run(fetch, feeds)
                out[key] = "ok"
            except Exception as e:  # noqa: BLE001 - the class name is the result
                out[key] = type(e).__name__

    def mpgg_nchw():
        x = tf.placeholder(tf.float32, [1, 2, 4, 4])
        y = tf.placeholder(tf.float32, [1, 2, 2, 2])
        o = tf.raw_ops.MaxPoolGradGrad(orig_input=x, orig_output=y, grad=x, ksize=[1, 1, 2, 2],
                                       strides=[1, 1, 2, 2], padding="VALID",
                                       data_format="NCHW")
        return o, {x: _rand(27, 1, 2, 4, 4), y: _rand(28, 1, 2, 2, 2)}

    def filter_nchw_explicit():
        x = tf.placeholder(tf.float32, [1, 2, 4, 4])
        dy = tf.placeholder(tf.float32, [1, 3, 5, 5])
        o = tf.raw_ops.Conv2DBackpropFilter(input=x, filter_sizes=[2, 2, 2, 3], out_backprop=dy,
                                            strides=[1, 1, 1, 1], padding="EXPLICIT",
                                            explicit_paddings=[0, 0, 0, 0, 1, 0, 1, 0],
                                            data_format="NCHW")
        return o, {x: _rand(29, 1, 2, 4, 4), dy: _rand(30, 1, 3, 5, 5)}

    attempt("max_pool_grad_grad_nchw", mpgg_nchw)
    attempt("conv_backprop_filter_nchw_explicit", filter_nchw_explicit)
    return out


CASES = ([_batch_norm(v, f, t) for v in ("", "V2", "V3") for f in ("NHWC", "NCHW")
          for t in (True, False)] +
         [lrn, top_k, top_k_fed_k, avg_pool, avg_pool_nchw_dynamic, avg_pool_grad_grad,
          max_pool_v2, _max_pool_second(False), _max_pool_second(True), max_pool_grad_v2_grad,
          max_pool_grad_grad_grad, depthwise, depthwise_nchw] +
         [_conv_backprop(k) for k in ("input", "filter", "dw_input", "dw_filter")] +
         [conv2d_nchw_grouped, errors])
