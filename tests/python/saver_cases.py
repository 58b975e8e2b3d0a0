"""Graphs with tf.train.Saver, written against the TF1 API so that the same code runs on
TensorFlow 2.21 (tf.compat.v1) and on minitf.

Each builder takes the `tf` module, makes its variables in the current default graph and
returns (var_list, saver kwargs). tools/gen_saver_expected.py builds them in real TensorFlow,
records the save/ nodes, the SaverDef and the values, and writes TensorFlow's checkpoints under
tests/fixtures/checkpoints/saver/; tests/python/test_saver.py builds them in minitf and
compares.
"""
import numpy as np

A = [[1.5, -2.0, 3.25], [4.0, 5.5, -6.75]]
B = [7, -8, 9]
C = [[0.5, 0.25], [0.125, -1.0], [2.0, 4.0]]
P = np.arange(12, dtype=np.float32).reshape(4, 3) * 0.5 - 1.0


def resource(tf):
    """Resource variables (TF 2.21's compat.v1 default), one inside a variable scope;
    the default var_list (every global variable)."""
    tf.Variable(A, name="a")
    tf.Variable(np.array(B, np.int32), name="b")
    with tf.variable_scope("layer"):
        tf.get_variable("kernel", initializer=tf.constant(C, tf.float64))
    return None, {}


def ref(tf):
    """Ref variables (VariableV2), passed as a list."""
    a = tf.Variable(A, name="a", use_resource=False)
    b = tf.Variable(np.array(B, np.int32), name="b", use_resource=False)
    return [a, b], {}


def dict_list(tf):
    """A dict var_list: checkpoint keys that differ from the variables' names."""
    a = tf.Variable(A, name="a")
    b = tf.Variable(np.array(B, np.int32), name="b")
    return {"x/first": a, "second": b}, {"max_to_keep": 3}


def dtypes(tf):
    """A variable of each common dtype, scalars and strings included."""
    vs = [tf.Variable(np.float64(2.5), name="f64"),
          tf.Variable(np.array([1 << 40, -3], np.int64), name="i64"),
          tf.Variable(np.array([True, False, True]), name="flag"),
          tf.Variable(np.array([b"hello", b"", b"checkpoint"]), name="words"),
          tf.Variable(np.array([[1, 2], [3, 4]], np.int8), name="i8"),
          tf.Variable(np.array([0.5, -1.5], np.float16), name="f16")]
    return vs, {}


def named(tf):
    """Saver options: a name scope of its own, a default filename, no step padding."""
    a = tf.Variable(A, name="a")
    return [a], {"name": "my_saver", "filename": "model.ckpt", "max_to_keep": 2,
                 "keep_checkpoint_every_n_hours": 2.0}


def sharded1(tf):
    """sharded=True with every variable on one device: one shard."""
    a = tf.Variable(A, name="a")
    b = tf.Variable(np.array(B, np.int32), name="b")
    return [a, b], {"sharded": True}


def sharded2(tf):
    """sharded=True with variables on two CPU devices: two shards, merged."""
    with tf.device("/cpu:0"):
        a = tf.Variable(A, name="a")
    with tf.device("/cpu:1"):
        b = tf.Variable(np.array(B, np.int32), name="b")
        c = tf.Variable(np.array(C, np.float32), name="c")
    return [a, b, c], {"sharded": True}


def slots(tf):
    """An Adam-trained variable: its slots and the beta powers are saved by their TF names."""
    v = tf.get_variable("v", initializer=tf.constant([1.0, -2.0, 3.0]))
    loss = tf.reduce_sum(v * v)
    train = tf.train.AdamOptimizer(0.1).minimize(loss, name="train")
    tf.add_to_collection("train_op", train)
    return None, {}


CASES = {"resource": resource, "ref": ref, "dict_list": dict_list, "dtypes": dtypes,
         "named": named, "sharded1": sharded1, "sharded2": sharded2, "slots": slots}


def session_config(tf):
    """Two CPU devices, for sharded2."""
    return tf.ConfigProto(device_count={"CPU": 2})


def save_nodes(g, scope):
    """The nodes of the saver's name scope as dicts: name, op, inputs, device, attrs (each
    AttrValue in protobuf text format, one line)."""
    from google.protobuf import text_format
    out = []
    for node in g.as_graph_def().node:
        if not node.name.startswith(scope + "/"):
            continue
        attrs = {k: text_format.MessageToString(v, as_one_line=True)
                 for k, v in sorted(node.attr.items())}
        out.append({"name": node.name, "op": node.op, "inputs": list(node.input),
                    "device": node.device, "attrs": attrs})
    return out


def values_of(sess, var_list):
    """{checkpoint key: value as a list (strings decoded)} for a list or dict var_list."""
    items = var_list.items() if isinstance(var_list, dict) else [
        (v.op.name, v) for v in var_list]
    out = {}
    for key, v in items:
        val = sess.run(v)
        out[key] = jsonable(val)
    return out


def jsonable(val):
    val = np.asarray(val)
    if val.dtype.kind in "SO":
        return [x.decode() if isinstance(x, bytes) else x for x in val.reshape(-1).tolist()]
    return val.tolist()
