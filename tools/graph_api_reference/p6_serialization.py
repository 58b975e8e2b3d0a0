import tensorflow as tf1
tf = tf1.compat.v1
tf.disable_eager_execution()
import os, tempfile
from google.protobuf import text_format
g = tf.Graph()
with g.as_default():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.constant([[1., 2.], [3., 4.], [5., 6.]], name="w")
    y = tf.matmul(x, w, name="y")
    u = tf.placeholder(tf.float32, None, name="u")
    with tf.control_dependencies([y]):
        z = tf.identity(u, name="z")
    gd = g.as_graph_def(add_shapes=True)
    for n in gd.node: print(n.name, text_format.MessageToString(n.attr["_output_shapes"], as_one_line=True))
    print(g.as_graph_def(from_version=g.version).node[0].name, len(g.as_graph_def(from_version=1).node))
    d = tempfile.mkdtemp()
    p = tf.train.write_graph(g, d, "g.pbtxt")
    print(os.path.basename(p), p == os.path.join(d, "g.pbtxt"))
    txt = open(p).read()
    print(repr(txt[:300]))
    p2 = tf.train.write_graph(g.as_graph_def(), os.path.join(d, "sub", "dir"), "g.pb", as_text=False)
    print(os.path.exists(p2), len(open(p2, "rb").read()))
    open("/tmp/g2/tf_written.pbtxt", "w").write(txt); open("/tmp/g2/tf_written.pb", "wb").write(open(p2, "rb").read())
g2 = tf.Graph()
with g2.as_default():
    a = tf.constant([[1., 1., 1.]], name="a")
    ctl = tf.no_op(name="ctl")
    r = tf.import_graph_def(gd, input_map={"x:0": a, "^y": a}, return_elements=["y:0", "z", "w"], name="imp")
    print(r)
    print([i.name for i in r[1].control_inputs])
    r = tf.import_graph_def(gd, input_map={"x": a}, return_elements=["y:0"], name="")
    print(r)
    for kw in [dict(input_map={"nope:0": a}), dict(input_map={"x:0": a, "q:1": a}), dict(return_elements=["nope:0"]), dict(return_elements=["nope"]), dict(input_map={"x:0": 1.0}), dict(input_map=[1]), dict(return_elements="y"), dict(input_map={"^nope": a}), dict(input_map={"^y": ctl}), dict(input_map={1: a}), dict(return_elements=["y:5"])]:
        try: print(tf.import_graph_def(gd, **kw))
        except Exception as e: print(type(e).__name__, e)
    try: tf.import_graph_def("x")
    except Exception as e: print(type(e).__name__, e)
    print(tf.import_graph_def(gd, op_dict={"a": 1}, producer_op_list=None, return_elements=["w"]))
    gd3 = tf.GraphDef()
    text_format.Merge(txt, gd3)
    print(len(gd3.node), gd3.node[0].name)
    r = tf.import_graph_def(gd3, return_elements=["y:0"], name="fromtext")
    with tf.Session() as s:
        print(s.run(r[0], {"fromtext/x:0": [[1, 1, 1]]}))
    print(tf.import_graph_def(gd, name="imp"), [o.name for o in g2.get_operations()][-5:])
