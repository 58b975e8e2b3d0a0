"""embedding_lookup cases, written against the TF1 API so the same code runs on TensorFlow
2.21 (tf.compat.v1) and on minitf. Each case returns (lookup tensor, list of variables to
differentiate, ids); tools/gen_embedding_expected.py records TF's nodes, value, the
gradient for each variable (densified) and the variables after one GradientDescent step;
tests/python/test_embedding.py compares minitf's."""
import numpy as np

import partitioned_cases

IDS = np.array([[0, 6, 3], [2, 2, 5]], np.int32)
TABLE = np.arange(40, dtype=np.float32).reshape(10, 4) / 4.0 - 2.0


def _emb(tf):
    return partitioned_cases.embedding(tf)


def partitioned_mod(tf):
    pv = _emb(tf)
    return tf.nn.embedding_lookup(pv, IDS), list(pv)


def partitioned_div(tf):
    pv = _emb(tf)
    return tf.nn.embedding_lookup(pv, IDS, partition_strategy="div"), list(pv)


def variable_list_div_int64(tf):
    """A list of three ref variables (4, 3, 3 rows) and int64 ids, "div"."""
    vs = [tf.Variable(TABLE[0:4], name="t0", use_resource=False),
          tf.Variable(TABLE[4:7], name="t1", use_resource=False),
          tf.Variable(TABLE[7:10], name="t2", use_resource=False)]
    ids = tf.constant([9, 0, 4, 3, 7, 7], tf.int64)
    return tf.nn.embedding_lookup(vs, ids, partition_strategy="div"), vs


def tensor_list_mod(tf):
    """Two constant tensors as params (no gradient to take), 1-D ids."""
    parts = [tf.constant(TABLE[0::2]), tf.constant(TABLE[1::2])]
    return tf.nn.embedding_lookup(parts, [1, 8, 3, 0]), []


def single(tf):
    v = tf.get_variable("single", initializer=tf.constant(TABLE))
    return tf.nn.embedding_lookup(v, IDS), [v]


def max_norm(tf):
    v = tf.get_variable("clipped", initializer=tf.constant(TABLE))
    return tf.nn.embedding_lookup(v, [[9, 1], [4, 0]], max_norm=2.0), [v]


def dynamic_partition_grad(tf):
    """Not a lookup: the gradient through DynamicPartition (rows of a variable split in
    three, one part unused, stitched back by the gradient)."""
    v = tf.get_variable("dp", initializer=tf.constant(TABLE))
    parts = tf.dynamic_partition(v.read_value() * 2.0, [2, 0, 2, 1, 0, 0, 2, 2, 0, 2], 3)
    return tf.reshape(tf.concat([parts[2], parts[0]], 0), [9, 4]), [v]


CASES = {"partitioned_mod": partitioned_mod, "partitioned_div": partitioned_div,
         "variable_list_div_int64": variable_list_div_int64,
         "tensor_list_mod": tensor_list_mod, "single": single, "max_norm": max_norm,
         "dynamic_partition_grad": dynamic_partition_grad}


def run(tf, build):
    """(nodes [name, op] the lookup added, value, dense grads, values after one step)."""
    g = tf.get_default_graph()
    out = {}
    before = {n.name for n in g.as_graph_def().node}
    emb, vs = build(tf)
    out["nodes"] = [[n.name, n.op] for n in g.as_graph_def().node
                    if n.name not in before and not n.name.startswith(
                        tuple(v.op.name + "/" for v in vs) + tuple(v.op.name for v in vs))]
    out["shape"] = emb.shape.as_list()
    w = tf.constant(np.arange(1, 1 + int(np.prod(emb.shape.as_list())),
                              dtype=np.float32).reshape(emb.shape.as_list()) / 10.0)
    loss = tf.reduce_sum(emb * emb * w)
    grads = tf.gradients(loss, vs) if vs else []
    dense = [tf.convert_to_tensor(x) for x in grads]
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss) if vs else None
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out["value"] = sess.run(emb).tolist()
        out["grads"] = [sess.run(x).tolist() for x in dense]
        out["grad_kinds"] = [type(x).__name__ for x in grads]
        if train is not None:
            sess.run(train)
            out["after_step"] = [sess.run(v).tolist() for v in vs]
    return out
