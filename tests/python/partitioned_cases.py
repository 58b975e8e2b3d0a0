"""Partitioned variables, written against the TF1 API so the same code runs on TensorFlow
2.21 (tf.compat.v1) and on minitf. tools/gen_partitioned_expected.py records what TF builds
(parts, slice specs, partitions, the nodes of as_tensor, values) and saves TF checkpoints
under tests/fixtures/checkpoints/partitioned/; tests/python/test_partitioned.py compares."""
import numpy as np

EMB = np.arange(35, dtype=np.float32).reshape(7, 5) * 0.25 - 3.0
W = np.arange(24, dtype=np.float64).reshape(4, 6) / 8.0


def embedding(tf):
    """A [7, 5] embedding in 3 parts (3, 2, 2 rows) from a constant value."""
    return tf.get_variable("emb", initializer=tf.constant(EMB),
                           partitioner=tf.fixed_size_partitioner(3))


def axis1_ref(tf):
    """Ref variables split along axis 1 by variable_axis_size_partitioner, a callable
    initializer (ones); ASSIGNED then gives them W through PartitionedVariable.assign."""
    return tf.get_variable("w", shape=[4, 6], dtype=tf.float64,
                           initializer=tf.ones_initializer(), use_resource=False,
                           partitioner=tf.variable_axis_size_partitioner(64, axis=1))


def scoped_minmax(tf):
    """A variable_scope partitioner (min_max_variable_partitioner) and int32 zeros."""
    with tf.variable_scope("layer", partitioner=tf.min_max_variable_partitioner(
            max_partitions=4, min_slice_size=16)):
        return tf.get_variable("ids", shape=[10, 2], dtype=tf.int32,
                               initializer=tf.zeros_initializer())


def single_part(tf):
    """A partitioner giving one part: p/part_0, as_tensor an Identity named p."""
    return tf.get_variable("one", initializer=tf.constant(EMB[:2]),
                           partitioner=tf.fixed_size_partitioner(1))


def embedding_slots(tf):
    """The embedding with Adagrad and Momentum slots: each slot of a part is that part of a
    partitioned slot, saved as a slice of emb/Adagrad, emb/Momentum (TF's keys)."""
    emb = embedding(tf)
    loss = tf.reduce_sum(tf.nn.embedding_lookup(emb, [0, 6]))
    tf.train.AdagradOptimizer(0.1).minimize(loss)
    tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss)
    return emb


# Values assigned (PartitionedVariable.assign of the full value) after initialization.
ASSIGNED = {"axis1_ref": W}

CASES = {"embedding": embedding, "axis1_ref": axis1_ref, "scoped_minmax": scoped_minmax,
         "single_part": single_part, "embedding_slots": embedding_slots}

# Partitioner results for (partitioner factory args, shape, dtype name).
PARTITIONER_CALLS = [
    ("axis_size", dict(max_shard_bytes=100), [30, 4], "float32"),
    ("axis_size", dict(max_shard_bytes=100, max_shards=3), [30, 4], "float32"),
    ("axis_size", dict(max_shard_bytes=1000, axis=1), [3, 50], "float64"),
    ("axis_size", dict(max_shard_bytes=64, bytes_per_string_element=8), [20], "string"),
    ("min_max", dict(max_partitions=8, min_slice_size=256), [100, 10], "float32"),
    ("min_max", dict(max_partitions=3, min_slice_size=1 << 20), [100, 10], "float32"),
    ("min_max", dict(max_partitions=50, axis=1, min_slice_size=4), [2, 7], "int64"),
    ("fixed", dict(num_shards=5), [3, 2], "float32"),
    ("fixed", dict(num_shards=2, axis=1), [3, 8], "float32"),
]


def partitioner(tf, kind, kwargs):
    return {"axis_size": tf.variable_axis_size_partitioner,
            "min_max": tf.min_max_variable_partitioner,
            "fixed": tf.fixed_size_partitioner}[kind](**kwargs)


def describe(tf, g, pv):
    """What a test compares: parts (name, spec, shape), partitions, len, and the nodes
    as_tensor adds (name, op, inputs)."""
    before = {n.name for n in g.as_graph_def().node}
    t = pv.as_tensor()
    nodes = [[n.name, n.op, list(n.input)] for n in g.as_graph_def().node
             if n.name not in before]
    return {"parts": [[v.name, v._get_save_slice_info().spec, v.shape.as_list()]
                      for v in pv],
            "partitions": list(pv._get_partitions()), "len": len(pv),
            "name": pv.name, "shape": pv.get_shape().as_list(), "dtype": pv.dtype.name,
            "as_tensor_nodes": nodes, "as_tensor_name": t.name,
            "variable_list": [v.name for v in pv._get_variable_list()]}
