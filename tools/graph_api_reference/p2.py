import numpy as np
import tensorflow as tf1
tf = tf1.compat.v1
tf.disable_eager_execution()
g = tf.Graph()
with g.as_default():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.constant([[1.,2.,3.]], name="y")
    i = tf.constant([1, 2], name="i")
    b = tf.constant([True, False], name="b")
    u = tf.placeholder(tf.float32, name="u")
    print(str(x), repr(x)); print(str(u), repr(u)); print(str(b), repr(b))
    with tf.device("/cpu:0"):
        z = tf.constant(1.0, name="z")
    print(str(z), repr(z))
    def show(t):
        op = t.op
        print(t.name, op.type, [a.name for a in op.inputs], t.dtype.name, t.shape)
    for f in [lambda: x + y, lambda: x - y, lambda: x * y, lambda: x / y, lambda: x // y, lambda: x % y, lambda: x ** y, lambda: x @ tf.constant([[1.],[2.],[3.]], name="yt"),
              lambda: -x, lambda: abs(x), lambda: ~b, lambda: b & b, lambda: b | b, lambda: b ^ b, lambda: x < y, lambda: x <= y, lambda: x > y, lambda: x >= y,
              lambda: 1 + x, lambda: 1 - x, lambda: 2 * x, lambda: 2 / x, lambda: 2 // x, lambda: 2 % x, lambda: 2 ** x, lambda: np.ones((3,1),np.float32) @ x,
              lambda: True & b, lambda: True | b, lambda: True ^ b, lambda: i / i, lambda: i // i, lambda: i * 2, lambda: abs(i), lambda: -i, lambda: x + 1, lambda: 1.5 * i if False else x * 1.5, lambda: i % 3, lambda: x.__div__(y) if hasattr(x, "__div__") else x]:
        try: show(f())
        except Exception as ex: print(type(ex).__name__, ex)
    print(x == y, x != y, hash(x) == id(x), x.__eq__(y), x == x)
    try: bool(x)
    except Exception as ex: print(type(ex).__name__, ex)
    try: iter(x)
    except Exception as ex: print(type(ex).__name__, ex)
    try: [t.name for t in y]
    except Exception as ex: print(type(ex).__name__, ex)
    print([t.name for t in y], [t.op.type for t in y])
    try: [t for t in u]
    except Exception as ex: print(type(ex).__name__, ex)
    try: len(x)
    except Exception as ex: print(type(ex).__name__, ex)
    try: x + i
    except Exception as ex: print(type(ex).__name__, ex)
    try: x + "a"
    except Exception as ex: print(type(ex).__name__, ex)
    print(x.ndim, x.consumers())
    print(x.device, x.value_index, x.op.name)
