"""tf.gradients programs through the array, indexing, space and segment ops, written against
the TF1 API so that the same code runs on TensorFlow 2.21 (tf.compat.v1 graph mode) and on
minitf. Each returns the backward graph tf.gradients added (name, type and inputs of every
op), the names of the gradients (values/indices/dense_shape for IndexedSlices) and their
values. tools/gen_garray_gradient_expected.py writes TensorFlow's results to
tests/fixtures/garray_gradient_expected.json; tests/python/test_garray_gradients.py replays
them on minitf.
"""
import numpy as np

from gradient_cases import new_ops, run

X234 = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10.0 - 1.0
X45 = np.arange(20, dtype=np.float32).reshape(4, 5) / 7.0 - 1.0
X532 = np.arange(30, dtype=np.float32).reshape(5, 3, 2) / 9.0 - 1.5


def weights(shape, j=0):
    n = int(np.prod(shape)) if len(shape) else 1
    return np.cos(np.arange(n, dtype=np.float64) + j).reshape(shape).astype(np.float32)


def names(tf, grads):
    out = []
    for gr in grads:
        if gr is None:
            out.append(None)
        elif isinstance(gr, tf.IndexedSlices):
            out.append([gr.values.name, gr.indices.name, gr.dense_shape.name])
        else:
            out.append(gr.name)
    return out


def _program(tf, build):
    """Builds ys/xs with build(tf) -> (ys, xs, grad_ys), differentiates, runs."""
    g = tf.Graph()
    with g.as_default():
        ys, xs, grad_ys, feeds = build(tf)
        n = len(g.get_operations())
        grads = tf.gradients(ys, xs, grad_ys=grad_ys)
        ops = new_ops(g, n)
        return {"ops": ops, "names": names(tf, grads), "values": run(tf, g, grads, feeds)}


def transpose(tf):
    """Transpose: InvertPermutation of the permutation."""
    def build(tf):
        x = tf.placeholder(tf.float32, [2, 3, 4], name="x")
        y = tf.transpose(x, [2, 0, 1])
        return [y], [x], [tf.constant(weights([4, 2, 3]))], {x: X234}
    return _program(tf, build)


def transpose_dynamic(tf):
    """Transpose by a fed int64 permutation of a tensor of unknown shape."""
    def build(tf):
        x = tf.placeholder(tf.float32, None, name="x")
        p = tf.placeholder(tf.int64, [3], name="p")
        y = tf.transpose(x, p)
        return [y], [x], [tf.constant(weights([3, 4, 2]))], {x: X234, p: [1, 2, 0]}
    return _program(tf, build)


def concat(tf):
    """ConcatV2 of known shapes at a negative axis: ConcatOffset and Slices."""
    def build(tf):
        a = tf.placeholder(tf.float32, [2, 3], name="a")
        b = tf.placeholder(tf.float32, [2, 5], name="b")
        c = tf.placeholder(tf.float32, [2, 1], name="c")
        y = tf.concat([a, b, c], -1)
        feeds = {a: X45[:2, :3], b: X45[2:, :], c: X45[:2, 4:]}
        return [y], [a, b, c], [tf.constant(weights([2, 9]))], feeds
    return _program(tf, build)


def concat_dynamic(tf):
    """Unknown input shapes: a Shape node, then ShapeN of all inputs."""
    def build(tf):
        a = tf.placeholder(tf.float32, [None, 3], name="a")
        b = tf.placeholder(tf.float32, [2, None], name="b")
        y = tf.concat([a, b], 1)
        return [y], [a, b], [tf.constant(weights([2, 8]))], {a: X45[:2, :3], b: X45[:2, :]}
    return _program(tf, build)


def concat_many(tf):
    """More than 16 inputs: one SplitV of the gradient."""
    def build(tf):
        xs = [tf.placeholder(tf.float32, [2, 1 + i % 3], name="x%d" % i) for i in range(17)]
        y = tf.concat(xs, 1)
        feeds = {x: np.full([2, 1 + i % 3], i, np.float32) for i, x in enumerate(xs)}
        width = sum(1 + i % 3 for i in range(17))
        return [y], xs[:3], [tf.constant(weights([2, width]))], feeds
    return _program(tf, build)


def gather_axis0(tf):
    """GatherV2 at axis 0 gives IndexedSlices (densified to fetch them)."""
    def build(tf):
        x = tf.placeholder(tf.float32, [5, 3, 2], name="x")
        y = tf.gather(x, [[1, 3], [1, 0]])
        return [y], [x], [tf.constant(weights([2, 2, 3, 2]))], {x: X532}
    return _program(tf, build)


def gather_axis1(tf):
    """GatherV2 at axis 1: transpose, UnsortedSegmentSum, transpose back."""
    def build(tf):
        x = tf.placeholder(tf.float32, [5, 3, 2], name="x")
        y = tf.gather(x, [2, 0, 2], axis=1)
        return [y], [x], [tf.constant(weights([5, 3, 2]))], {x: X532}
    return _program(tf, build)


def gather_batch_dims(tf):
    """GatherV2 with batch_dims=1 and int64 indices (_GetBatchIndices)."""
    def build(tf):
        x = tf.placeholder(tf.float32, [2, 3, 4], name="x")
        i = tf.constant([[0, 2], [1, 1]], tf.int64)
        y = tf.gather(x, i, axis=1, batch_dims=1)
        return [y], [x], [tf.constant(weights([2, 2, 4]))], {x: X234}
    return _program(tf, build)


def gather_unknown_axis(tf):
    """A fed axis: the general path with Size nodes for unknown shapes."""
    def build(tf):
        x = tf.placeholder(tf.float32, None, name="x")
        ax = tf.placeholder(tf.int32, [], name="ax")
        y = tf.gather(x, [1, 0], axis=ax)
        return [y], [x], [tf.constant(weights([5, 2, 2]))], {x: X532, ax: 1}
    return _program(tf, build)


def gather_variable(tf):
    """tf.gather of a resource variable is ResourceGather; its gradient IndexedSlices."""
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(X45, name="v")
        y = tf.gather(v, [3, 1, 3])
        n = len(g.get_operations())
        grads = tf.gradients(y, [v], grad_ys=[tf.constant(weights([3, 5]))])
        ops = new_ops(g, n)
        with tf.Session(graph=g) as sess:
            sess.run(v.initializer)
            value = sess.run(tf.convert_to_tensor(grads[0]))
        return {"ops": ops, "forward": [y.op.name, y.op.type], "names": names(tf, grads),
                "values": [[value.dtype.name, value.tolist()]]}


def gather_mixed_aggregation(tf):
    """A dense and an IndexedSlices gradient of one tensor: AddN densifies the slices."""
    def build(tf):
        x = tf.placeholder(tf.float32, [5, 3], name="x")
        y = tf.concat([tf.gather(x, [1, 3, 1]), x], 0)
        return [y], [x], [tf.constant(weights([8, 3]))], {x: X532[:, :, 0]}
    return _program(tf, build)


def gather_needs_dense(tf):
    """reduce_sum(gather(3 x)) * w: Mul's gradient needs the IndexedSlices densified."""
    def build(tf):
        x = tf.placeholder(tf.float32, [5, 3], name="x")
        w = tf.placeholder(tf.float32, [], name="w")
        y = tf.reduce_sum(tf.gather(x * 3.0, [4, 0, 4])) * w
        return [y], [x, w], None, {x: X532[:, :, 1], w: 0.5}
    return _program(tf, build)


def strided_slice(tf):
    """x[1:3, ::2]: StridedSliceGrad with Const shape/begin/end/strides."""
    def build(tf):
        x = tf.placeholder(tf.float32, [4, 5], name="x")
        y = x[1:3, ::2]
        return [y], [x], [tf.constant(weights([2, 3]))], {x: X45}
    return _program(tf, build)


def strided_slice_dynamic(tf):
    """x[b:, 0] with a fed begin and an unknown batch dim: Shape and the Pack'd begin."""
    def build(tf):
        x = tf.placeholder(tf.float32, [None, 5], name="x")
        b = tf.placeholder(tf.int32, [], name="b")
        y = x[b:, 0]
        return [y], [x], [tf.constant(weights([3]))], {x: X45, b: 1}
    return _program(tf, build)


def strided_slice_masks(tf):
    """Ellipsis, new axis and shrink masks."""
    def build(tf):
        x = tf.placeholder(tf.float32, [2, 3, 4], name="x")
        y = x[..., tf.newaxis, 1:3, -1]
        return [y], [x], [tf.constant(weights([2, 1, 2]))], {x: X234}
    return _program(tf, build)


def strided_slice_second_order(tf):
    """The gradient of StridedSliceGrad's dy is the same StridedSlice."""
    def build(tf):
        x = tf.placeholder(tf.float32, [4, 5], name="x")
        d = tf.placeholder(tf.float32, [2, 3], name="d")
        first = tf.gradients(x[1:3, ::2], x, grad_ys=d)[0]
        return [first * first], [d], None, {x: X45, d: weights([2, 3]) * 2.0}
    return _program(tf, build)


def unsorted_segment_sum(tf):
    """UnsortedSegmentSum with a negative id: _GatherDropNegatives."""
    def build(tf):
        x = tf.placeholder(tf.float32, [4, 3], name="x")
        y = tf.math.unsorted_segment_sum(x, tf.constant([0, 2, -1, 0]), 3)
        return [y], [x], [tf.constant(weights([3, 3]))], {x: X45[:, :3]}
    return _program(tf, build)


def tile_pad_slice(tf):
    """Tile, Pad, Slice and MirrorPad chained."""
    def build(tf):
        x = tf.placeholder(tf.float32, [2, 3], name="x")
        t = tf.tile(x, [2, 1])
        p = tf.pad(t, [[1, 0], [0, 2]])
        s = tf.slice(p, [1, 1], [3, 3])
        m = tf.pad(s, [[1, 1], [2, 0]], mode="SYMMETRIC")
        return [m], [x], [tf.constant(weights([5, 5]))], {x: X45[:2, :3]}
    return _program(tf, build)


CASES = [transpose, transpose_dynamic, concat, concat_dynamic, concat_many, gather_axis0,
         gather_axis1, gather_batch_dims, gather_unknown_axis, gather_variable,
         gather_mixed_aggregation, gather_needs_dense, strided_slice, strided_slice_dynamic,
         strided_slice_masks, strided_slice_second_order, unsorted_segment_sum, tile_pad_slice]
