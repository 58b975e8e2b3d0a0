import tensorflow as tf1
tf = tf1.compat.v1
tf.disable_eager_execution()
g = tf.Graph()
with g.as_default():
    a = tf.constant(1.0, name="a")
    with tf.name_scope("s"):
        b = tf.constant(2.0, name="b")
    g.add_to_collection("k", a); g.add_to_collection("k", b); g.add_to_collection("k", 3)
    print(g.get_collection("k")); print(g.get_collection("k", "s")); print(g.get_collection("k", "a"))
    print(g.get_collection("k", "s/b")); print(g.get_collection("none"), g.get_collection("none", "x"))
    g.add_to_collections(["m", "n", "m"], a); print(g.get_collection("m"), g.get_collection("n"))
    g.add_to_collections("q", a); print(g.get_collection("q"))
    r = g.get_collection_ref("r"); r.append(7); print(g.get_collection("r"))
    print(sorted(g.get_all_collection_keys()))
    g.add_to_collection(("tuplekey",), 1); print(sorted(map(str, g.get_all_collection_keys())))
    g.clear_collection("k"); print(g.get_collection("k")); g.clear_collection("nonexistent")
    print("ref empty", g.get_collection_ref("empty"), "empty" in g.get_all_collection_keys())
    print(sorted(k for k in dir(tf.GraphKeys) if not k.startswith("__")))
    print([getattr(tf.GraphKeys, k) for k in sorted(k for k in dir(tf.GraphKeys) if not k.startswith("__") and k.isupper())])
    for obj, at, ao in [("a", True, True), ("a:0", True, True), ("a:1", True, True), ("zz:0", True, True), ("zz", True, True),
                        ("a:x", True, True), ("a:0:1", True, True), ("a:0", False, True), ("a", True, False), ("zz", True, False),
                        (a, False, True), (a.op, True, False), (1, True, True), (1, True, False), (1, False, True), ("a", False, False)]:
        try: print(repr(obj), at, ao, "->", g.as_graph_element(obj, at, ao))
        except Exception as ex: print(repr(obj), at, ao, type(ex).__name__, ex)
    for f, arg in [(g.get_operation_by_name, 1), (g.get_tensor_by_name, 1), (g.get_operation_by_name, "a:0"), (g.get_tensor_by_name, "a")]:
        try: print(f(arg))
        except Exception as ex: print(type(ex).__name__, ex)
    print(g.get_operations())
g2 = tf.Graph()
with g2.as_default():
    x = tf.constant(1)
    try: g.as_graph_element(x)
    except Exception as ex: print(type(ex).__name__, ex)
    try: g.as_graph_element(x.op)
    except Exception as ex: print(type(ex).__name__, ex)
    class W:
        def _as_graph_element(self): return x
    print(g2.as_graph_element(W()))
    print(g2.version)
    tf.import_graph_def(g.as_graph_def(), name="imp")
    print(g2.version, [o.name for o in g2.get_operations()])
