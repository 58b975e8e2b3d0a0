"""Graph naming, default graphs, finalize, lookup and collections.

Every expected value below was printed by TensorFlow 2.21 tf.compat.v1 in
graph mode (tools/graph_api_reference.py prints them).
"""
import threading

import pytest

import minitf as tf


def test_seed_name_scope_example(graph):
    # Seed 002, tf.Graph.name_scope.
    g = graph
    c = tf.constant(1.0, name="c")
    c_1 = tf.constant(2.0, name="c")
    with g.name_scope("nested") as scope:
        assert scope == "nested/"
        nested_c = tf.constant(3.0, name="c")
        with g.name_scope("inner"):
            nested_inner_c = tf.constant(4.0, name="c")
        with g.name_scope("inner"):
            nested_inner_1_c = tf.constant(5.0, name="c")
            with g.name_scope(scope):
                nested_c_1 = tf.constant(6.0, name="c")
            with g.name_scope(""):
                c_2 = tf.constant(7.0, name="c")
            with g.name_scope(None) as s:
                assert s == "" and g.get_name_scope() == ""
    assert [t.op.name for t in (c, c_1, nested_c, nested_inner_c, nested_inner_1_c,
                                nested_c_1, c_2)] == \
        ["c", "c_1", "nested/c", "nested/inner/c", "nested/inner_1/c", "nested/c_1", "c_2"]


def test_unique_name_case_insensitive_and_mark_as_used(graph):
    g = graph
    assert [g.unique_name("Foo"), g.unique_name("foo"), g.unique_name("FOO"),
            g.unique_name("foo_1"), g.unique_name("foo_1")] == \
        ["Foo", "foo_1", "FOO_2", "foo_1_1", "foo_1_2"]
    assert [g.unique_name("bar", mark_as_used=False), g.unique_name("bar", mark_as_used=False),
            g.unique_name("bar"), g.unique_name("bar")] == ["bar", "bar", "bar", "bar_1"]
    tf.constant(1, name="X")
    assert tf.constant(1, name="x").op.name == "x_1"
    tf.constant(1, name="a_1")
    tf.constant(1, name="a")
    assert tf.constant(1, name="a").op.name == "a_2"  # skips the taken "a_1"


def test_invalid_scope_and_node_names(graph):
    for bad in ["_bad", "a b", "-x"]:
        with pytest.raises(ValueError) as e:
            with graph.name_scope(bad):
                pass
        assert str(e.value) == (
            "'%s' is not a valid root scope name. A root scope name has to match the following "
            "pattern: ^[A-Za-z0-9.][A-Za-z0-9_.\\\\/>-]*$" % bad)
    with graph.name_scope("x/") as s:
        assert s == "x/"
    with graph.name_scope("outer"):
        with graph.name_scope("_ok") as s1:
            assert s1 == "outer/_ok/"
        with graph.name_scope("-x") as s2:
            assert s2 == "outer/-x/"
        with pytest.raises(ValueError) as e:
            with graph.name_scope("a b"):
                pass
        assert str(e.value) == ("'a b' is not a valid scope name. A scope name has to match the "
                                "following pattern: ^[A-Za-z0-9_.\\\\/>-]*$")
    for bad in ["a b", "_a"]:
        with pytest.raises(ValueError) as e:
            tf.constant(1, name=bad)
        assert str(e.value) == (
            "`%s` is not a valid node name. Accepted names conform to Regex "
            "/re.compile('^[A-Za-z0-9.][A-Za-z0-9_.\\\\\\\\/>-]*$')/" % bad)


def test_version_seed_finalize(graph):
    g = graph
    assert g.version == 0
    for i in range(3):
        tf.constant(i)
    assert g.version == 3
    assert str(g.graph_def_versions) == "producer: 2474\n"
    assert str(tf.Graph().as_graph_def()) == "versions {\n  producer: 2474\n}\n"
    assert g.seed is None
    tf.set_random_seed(5)
    assert g.seed == 5
    assert (g.building_function, g.finalized) == (False, False)
    g.finalize()
    assert g.finalized
    for fn in (lambda: tf.constant(1), lambda: g.add_to_collection("x", 1),
               lambda: g.clear_collection("x")):
        with pytest.raises(RuntimeError, match="^Graph is finalized and cannot be modified.$"):
            fn()
    with g.name_scope("zz") as s:  # name scopes are still allowed
        assert s == "zz/"


def test_default_graph_stack_and_threads(graph):
    g = graph
    assert tf.get_default_graph() is g
    with g.as_default() as gg:
        assert gg is g
        g2 = tf.Graph()
        with g2.as_default():
            assert tf.get_default_graph() is g2
            with pytest.raises(AssertionError) as e:
                tf.reset_default_graph()
            assert str(e.value) == (
                "Do not use tf.reset_default_graph() to clear nested graphs. If you need a "
                "cleared graph, exit the nesting and create a new graph.")
        assert tf.get_default_graph() is g
    res = []
    # Another thread does not see this thread's as_default() graph, but the
    # global default graph.
    t = threading.Thread(target=lambda: res.append(tf.get_default_graph() is g))
    t.start()
    t.join()
    t = threading.Thread(target=lambda: res.append(
        tf.get_default_graph() is tf.get_default_graph()))
    t.start()
    t.join()
    assert res == [False, True]


def test_reset_default_graph_outside_nesting():
    import minitf.framework.ops as ops_mod
    saved = ops_mod._default_graph_stack.stack[:]
    ops_mod._default_graph_stack.stack[:] = []
    try:
        g0 = tf.get_default_graph()
        assert tf.get_default_graph() is g0
        tf.reset_default_graph()
        assert tf.get_default_graph() is not g0
    finally:
        ops_mod._default_graph_stack.stack[:] = saved


def test_collections(graph):
    g = graph
    a = tf.constant(1.0, name="a")
    with tf.name_scope("s"):
        b = tf.constant(2.0, name="b")
    g.add_to_collection("k", a)
    g.add_to_collection("k", b)
    g.add_to_collection("k", 3)
    assert g.get_collection("k") == [a, b, 3]
    assert g.get_collection("k", "s") == [b]
    assert g.get_collection("k", "a") == [a]
    assert g.get_collection("k", "s/b") == [b]
    assert g.get_collection("none") == [] and g.get_collection("none", "x") == []
    g.add_to_collections(["m", "n", "m"], a)
    assert g.get_collection("m") == [a] and g.get_collection("n") == [a]
    g.add_to_collections("q", a)
    assert g.get_collection("q") == [a]
    r = g.get_collection_ref("r")
    r.append(7)
    assert g.get_collection("r") == [7]
    copy = g.get_collection("r")
    copy.append(8)
    assert g.get_collection("r") == [7]
    assert sorted(g.get_all_collection_keys()) == ["k", "m", "n", "q", "r"]
    g.add_to_collection(("tuplekey",), 1)  # non-string keys are not listed
    assert sorted(g.get_all_collection_keys()) == ["k", "m", "n", "q", "r"]
    g.clear_collection("k")
    assert g.get_collection("k") == []
    g.clear_collection("nonexistent")
    assert g.get_collection_ref("empty") == [] and "empty" in g.get_all_collection_keys()
    tf.add_to_collection("top", a)
    assert tf.get_collection("top") == [a] and tf.get_collection_ref("top") == [a]


def test_graph_keys():
    k = tf.GraphKeys
    assert [k.ACTIVATIONS, k.ASSET_FILEPATHS, k.BIASES, k.CONCATENATED_VARIABLES,
            k.COND_CONTEXT, k.EVAL_STEP, k.GLOBAL_STEP, k.GLOBAL_VARIABLES, k.INIT_OP,
            k.LOCAL_INIT_OP, k.LOCAL_RESOURCES, k.LOCAL_VARIABLES, k.LOSSES, k.METRIC_VARIABLES,
            k.MODEL_VARIABLES, k.MOVING_AVERAGE_VARIABLES, k.QUEUE_RUNNERS,
            k.READY_FOR_LOCAL_INIT_OP, k.READY_OP, k.REGULARIZATION_LOSSES, k.RESOURCES,
            k.SAVEABLE_OBJECTS, k.SAVERS, k.SUMMARIES, k.SUMMARY_OP, k.TABLE_INITIALIZERS,
            k.TRAINABLE_RESOURCE_VARIABLES, k.TRAINABLE_VARIABLES, k.TRAIN_OP, k.UPDATE_OPS,
            k.VARIABLES, k.WEIGHTS, k.WHILE_CONTEXT, k._STREAMING_MODEL_PORTS,
            k._SUMMARY_COLLECTION, k._VARIABLE_COLLECTIONS] == [
        'activations', 'asset_filepaths', 'biases', 'concatenated_variables', 'cond_context',
        'eval_step', 'global_step', 'variables', 'init_op', 'local_init_op', 'local_resources',
        'local_variables', 'losses', 'metric_variables', 'model_variables',
        'moving_average_variables', 'queue_runners', 'ready_for_local_init_op', 'ready_op',
        'regularization_losses', 'resources', 'saveable_objects', 'savers', 'summaries',
        'summary_op', 'table_initializer', 'trainable_resource_variables', 'trainable_variables',
        'train_op', 'update_ops', 'variables', 'weights', 'while_context',
        'streaming_model_ports', '_SUMMARY_V2',
        ['variables', 'local_variables', 'metric_variables', 'model_variables',
         'trainable_variables', 'moving_average_variables', 'concatenated_variables',
         'trainable_resource_variables']]


AS_ELEMENT_CASES = [
    ("a:1", True, True, KeyError, "The name 'a:1' refers to a Tensor which does not exist. The "
     "operation, 'a', exists but only has 1 outputs."),
    ("zz:0", True, True, KeyError, "The name 'zz:0' refers to a Tensor which does not exist. The "
     "operation, 'zz', does not exist in the graph."),
    ("zz", True, True, KeyError, "The name 'zz' refers to an Operation not in the graph."),
    ("a:x", True, True, ValueError, "The name 'a:x' looks a like a Tensor name, but is not a "
     "valid one. Tensor names must be of the form \"<op_name>:<output_index>\"."),
    ("a:0:1", True, True, ValueError, "The name 'a:0:1' looks a like a Tensor name, but is not "
     "a valid one. Tensor names must be of the form \"<op_name>:<output_index>\"."),
    ("a:0", False, True, ValueError, "Name 'a:0' appears to refer to a Tensor, not a Operation."),
    ("a", True, False, ValueError, "The name 'a' refers to an Operation, not a Tensor. Tensor "
     "names must be of the form \"<op_name>:<output_index>\"."),
    ("zz", True, False, ValueError, "The name 'zz' looks like an (invalid) Operation name, not a "
     "Tensor. Tensor names must be of the form \"<op_name>:<output_index>\"."),
    (1, True, True, TypeError, "Can not convert a int into a Tensor or Operation."),
    (1, True, False, TypeError, "Can not convert a int into a Tensor."),
    (1, False, True, TypeError, "Can not convert a int into a Operation."),
    ("a", False, False, ValueError, "allow_tensor and allow_operation can't both be False."),
]


@pytest.mark.parametrize("obj,allow_t,allow_o,exc,msg", AS_ELEMENT_CASES)
def test_as_graph_element_errors(graph, obj, allow_t, allow_o, exc, msg):
    tf.constant(1.0, name="a")
    with pytest.raises(exc) as e:
        graph.as_graph_element(obj, allow_t, allow_o)
    got = e.value.args[0]
    assert got == msg


def test_as_graph_element_objects(graph):
    a = tf.constant(1.0, name="a")
    assert graph.as_graph_element("a") is a.op
    assert graph.as_graph_element("a:0") is a
    with pytest.raises(TypeError, match="^Can not convert a SymbolicTensor into a Operation.$"):
        graph.as_graph_element(a, False, True)
    with pytest.raises(TypeError, match="^Can not convert a Operation into a Tensor.$"):
        graph.as_graph_element(a.op, True, False)
    with pytest.raises(TypeError, match="^Operation names are strings \\(or similar\\), not int.$"):
        graph.get_operation_by_name(1)
    with pytest.raises(TypeError, match="^Tensor names are strings \\(or similar\\), not int.$"):
        graph.get_tensor_by_name(1)
    g2 = tf.Graph()
    with g2.as_default():
        x = tf.constant(1)

        class W:
            def _as_graph_element(self):
                return x
        assert g2.as_graph_element(W()) is x
        assert g2.version == 1
        tf.import_graph_def(graph.as_graph_def(), name="imp")
        assert g2.version == 2
        assert [o.name for o in g2.get_operations()] == ["Const", "imp/a"]
    with pytest.raises(ValueError) as e:
        graph.as_graph_element(x)
    assert str(e.value) == ('Tensor Tensor("Const:0", shape=(), dtype=int32) is not an element '
                            'of this graph.')
    assert graph.get_operations() == [a.op]
