import tensorflow as tf1
tf = tf1.compat.v1
tf.disable_eager_execution()
g = tf.Graph()
with g.as_default():
    c = tf.constant(1.0, name="c"); c1 = tf.constant(2.0, name="c")
    with g.name_scope("nested") as scope:
        print(repr(scope))
        n = tf.constant(3.0, name="c")
        with g.name_scope("inner"):
            a = tf.constant(4.0, name="c")
        with g.name_scope("inner"):
            b = tf.constant(5.0, name="c")
            with g.name_scope(scope):
                d = tf.constant(6.0, name="c")
            with g.name_scope(""):
                e = tf.constant(7.0, name="c")
            with g.name_scope(None) as s:
                print("none scope", repr(s), g.get_name_scope())
    print([x.op.name for x in (c, c1, n, a, b, d, e)])
    print(g.unique_name("Foo"), g.unique_name("foo"), g.unique_name("FOO"), g.unique_name("foo_1"), g.unique_name("foo_1"))
    print(g.unique_name("bar", mark_as_used=False), g.unique_name("bar", mark_as_used=False), g.unique_name("bar"), g.unique_name("bar"))
    x = tf.constant(1, name="X"); y = tf.constant(1, name="x"); print(y.op.name)
    z = tf.constant(1, name="a_1"); w = tf.constant(1, name="a"); w2 = tf.constant(1, name="a"); print(w2.op.name)
    for bad in ["_bad", "a b", "-x", "", "x/"]:
        try:
            with g.name_scope(bad) as s: print("ok", repr(bad), repr(s))
        except Exception as ex: print(type(ex).__name__, ex)
    with g.name_scope("outer"):
        for bad in ["_ok", "a b", "-x"]:
            try:
                with g.name_scope(bad) as s: print("ok", repr(bad), repr(s))
            except Exception as ex: print(type(ex).__name__, ex)
    try: tf.constant(1, name="a b")
    except Exception as ex: print(type(ex).__name__, ex)
    try: tf.constant(1, name="_a")
    except Exception as ex: print(type(ex).__name__, ex)
    print("version", g.version, len(g.get_operations()))
    print("gdv", g.graph_def_versions)
    print("seed", g.seed)
    tf.set_random_seed(5); print("seed", g.seed)
    print(g.building_function, g.finalized)
    g.finalize(); print(g.finalized)
    try: tf.constant(1)
    except Exception as ex: print(type(ex).__name__, ex)
    try: g.add_to_collection("x", 1); print(g.get_collection("x"))
    except Exception as ex: print(type(ex).__name__, ex)
    try:
        with g.name_scope("zz") as s: print(s)
    except Exception as ex: print(type(ex).__name__, ex)
print(tf.get_default_graph() is g)
g0 = tf.get_default_graph()
with g.as_default() as gg:
    print(gg is g, tf.get_default_graph() is g)
    g2 = tf.Graph()
    with g2.as_default():
        print(tf.get_default_graph() is g2)
        try: tf.reset_default_graph()
        except Exception as ex: print(type(ex).__name__, ex)
    print(tf.get_default_graph() is g)
print(tf.get_default_graph() is g0)
tf.reset_default_graph(); print(tf.get_default_graph() is g0)
import threading
res = []
with g.as_default():
    t = threading.Thread(target=lambda: res.append(tf.get_default_graph() is g)); t.start(); t.join()
    t = threading.Thread(target=lambda: res.append(tf.get_default_graph() is tf.get_default_graph())); t.start(); t.join()
print(res)
g3 = tf.Graph()
with g3.as_default(): h = tf.constant(1.0)
t = threading.Thread(target=lambda: res.append(tf.get_default_graph() is g3)); t.start(); t.join(); print(res)
