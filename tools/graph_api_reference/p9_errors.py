import tensorflow as tf1
tf = tf1.compat.v1
tf.disable_eager_execution()
from tensorflow.python.framework import errors_impl as ei
g = tf.Graph()
def build():
    x = tf.placeholder(tf.float32, [None], name="x")
    return x
with g.as_default():
    x = build()
    y = tf.identity(x, name="y")
    s = tf.Session()
    try: s.run(y)
    except tf.errors.OpError as e:
        print("MESSAGE<<%s>>" % e.message)
        print("STR<<%s>>" % str(e))
        print(e.op.name, e.error_code, type(e.node_def).__name__, e.node_def.name, e.experimental_payloads)
        print(repr(e.args))
    md = tf.RunMetadata()
    print(s.run(y, {x: [1.0]}, options=tf.RunOptions(trace_level=3), run_metadata=md))
    for n in md.step_stats.dev_stats[0].node_stats:
        if n.node_name == "y": print(n)
    e = tf.errors.InvalidArgumentError(None, None, "boom")
    print(str(e), repr(e), e.args, e.error_code, e.op, e.node_def)
    e = tf.errors.OpError(None, None, "boom", 3)
    print(str(e), repr(e), e.args)
    for c in range(1, 17): print(c, ei.exception_type_from_error_code(c).__name__ if c!=0 else None, ei.error_code_from_exception_type(ei.exception_type_from_error_code(c)))
    try: ei.exception_type_from_error_code(99)
    except Exception as ex: print(type(ex).__name__, ex)
    try: ei.error_code_from_exception_type(ValueError)
    except Exception as ex: print(type(ex).__name__, ex)
    e = tf.errors.InvalidArgumentError(y.op.node_def, y.op, "boom")
    print("STR2<<%s>>" % str(e))
    import pickle
    print(repr(pickle.loads(pickle.dumps(tf.errors.NotFoundError(None, None, "m")))))
    print(tf.errors.OK, tf.errors.UNAUTHENTICATED)
    print(issubclass(tf.errors.OperatorNotAllowedInGraphError, TypeError))
