"""tf.train.export_meta_graph / import_meta_graph against TensorFlow 2.21: a `.meta` and
checkpoint TF's Saver wrote (tests/fixtures/saved_model/meta/, tools/
gen_saved_model_fixtures.py) import into minitf, restore and keep training with TF's
numbers; minitf's own exports round-trip (scopes, devices, default attrs, text); bad files
give TF's errors. (That minitf's .meta files import in TF is checked by
tools/check_saved_model_in_tf.py.)"""
import json
import logging
import os

import numpy as np
import pytest
from google.protobuf import text_format

import minitf as tf
from minitf.core.framework import variable_pb2
from minitf.core.protobuf import meta_graph_pb2
from minitf.framework import errors, meta_graph

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "fixtures", "saved_model")
META = os.path.join(FIX, "meta")
with open(os.path.join(FIX, "expected.json")) as _f:
    EXPECTED = json.load(_f)
CONT = EXPECTED["meta_continue"]
ERR = EXPECTED["errors"]
RX = np.array(EXPECTED["rx"], np.float32)
RY = np.array(EXPECTED["ry"], np.float32)


def _continue(sess, steps=3):
    train = tf.get_collection("train_op")[0]
    losses = []
    for _ in range(steps):
        losses.append(float(sess.run("loss:0", {"x:0": RX, "y:0": RY})))
        sess.run(train, {"x:0": RX, "y:0": RY})
    return losses


def _check_continued(sess, losses):
    np.testing.assert_allclose(losses, CONT["losses"], rtol=1e-6)
    assert [v.name for v in tf.trainable_variables()] == CONT["trainable"]
    assert [v.name for v in tf.global_variables()] == CONT["global_variables"]
    for v in tf.global_variables():
        np.testing.assert_allclose(sess.run(v), CONT["values"][v.name], rtol=1e-6)


def test_tf_meta_graph_imports_restores_and_trains_on():
    with tf.Graph().as_default(), tf.Session() as sess:
        saver = tf.train.import_meta_graph(os.path.join(META, "model.ckpt-3.meta"))
        assert isinstance(saver, tf.train.Saver)
        saver.restore(sess, os.path.join(META, "model.ckpt-3"))
        assert sess.run(tf.train.get_global_step()) == 3
        _check_continued(sess, _continue(sess))
        assert tf.get_collection("my_ints") == CONT["my_ints"]
        assert tf.get_collection("my_floats") == CONT["my_floats"]
        assert tf.get_collection("my_strings") == [s.encode() for s in CONT["my_strings"]]
        assert [t.name for t in tf.get_collection("losses_and_preds")] == \
            CONT["losses_and_preds"]
        # a ref and a resource variable, one Python object per variable across collections
        w, b = tf.trainable_variables()
        assert w.dtype == tf.float32._as_ref and b.dtype == tf.float32
        assert tf.global_variables()[0] is w


def test_tf_meta_graph_as_text(tmp_path):
    mg = meta_graph.read_meta_graph_file(os.path.join(META, "model.ckpt-3.meta"))
    path = str(tmp_path / "model.pbtxt")
    with open(path, "w") as f:
        f.write(text_format.MessageToString(mg))
    with tf.Graph().as_default(), tf.Session() as sess:
        saver = tf.train.import_meta_graph(path)
        saver.restore(sess, os.path.join(META, "model.ckpt-3"))
        _check_continued(sess, _continue(sess))


def test_tf_meta_graph_import_scope():
    with tf.Graph().as_default() as g, tf.Session() as sess:
        tf.constant(1.0, name="other")
        saver = tf.train.import_meta_graph(os.path.join(META, "model.ckpt-3.meta"),
                                           import_scope="imported")
        assert saver.saver_def.restore_op_name == "imported/save/restore_all"
        saver.restore(sess, os.path.join(META, "model.ckpt-3"))
        assert [v.name for v in tf.trainable_variables()] == ["imported/w:0", "imported/b:0"]
        assert g.get_operation_by_name("imported/loss").type == "Mean"
        assert tf.get_collection("train_op")[0].name == "imported/Momentum"
        np.testing.assert_allclose(
            sess.run("imported/loss:0", {"imported/x:0": RX, "imported/y:0": RY}),
            CONT["losses"][0], rtol=1e-6)


def _regression(ref=True):
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    y = tf.placeholder(tf.float32, [None, 1], name="y")
    w = tf.Variable(np.array([[0.5], [-0.25]], np.float32), name="w", use_resource=not ref)
    b = tf.get_variable("b", initializer=np.array([0.1], np.float32), use_resource=True)
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y), name="loss")
    step = tf.train.get_or_create_global_step()
    train = tf.train.MomentumOptimizer(0.05, 0.9).minimize(loss, global_step=step)
    tf.add_to_collection("train_op", train)
    return train


def test_minitf_save_import_resume_equals_uninterrupted(tmp_path):
    """Saver.save writes the .meta; a fresh graph imported from it and restored trains on
    exactly as the original graph does."""
    prefix = str(tmp_path / "model.ckpt")
    with tf.Graph().as_default(), tf.Session() as sess:
        _regression()
        saver = tf.train.Saver()
        sess.run(tf.global_variables_initializer())
        _continue(sess, 2)
        saver.save(sess, prefix, global_step=2)
        straight = _continue(sess, 3)
        want = {v.name: sess.run(v) for v in tf.global_variables()}
    assert os.path.exists(prefix + "-2.meta")
    with tf.Graph().as_default(), tf.Session() as sess:
        saver = tf.train.import_meta_graph(prefix + "-2.meta")
        saver.restore(sess, prefix + "-2")
        assert _continue(sess, 3) == straight
        got = {v.name: sess.run(v) for v in tf.global_variables()}
    assert sorted(got) == sorted(want)
    for k in want:
        np.testing.assert_array_equal(got[k], want[k])


def test_saver_writes_and_deletes_meta_files_as_tf(tmp_path):
    """max_to_keep=2 over four saves leaves TF's files (tests/fixtures/saver_expected.json),
    .meta files included."""
    with open(os.path.join(HERE, "..", "fixtures", "saver_expected.json")) as f:
        state = json.load(f)["state_file"]
    d = str(tmp_path)
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.Variable(1.0, name="x")
        saver = tf.train.Saver(max_to_keep=2)
        sess.run(tf.global_variables_initializer())
        for s in (10, 20, 30, 40):
            saver.save(sess, os.path.join(d, "model"), global_step=s)
    assert sorted(os.listdir(d)) == state["files"]


def test_meta_info_def_and_stripped_op_list():
    with tf.Graph().as_default() as g:
        _regression()
        mg = tf.train.export_meta_graph()
    info = mg.meta_info_def
    assert info.tensorflow_version == "2.21.0"
    used = sorted({n.op for n in mg.graph_def.node})
    assert [op.name for op in info.stripped_op_list.op] == used
    assert not info.stripped_default_attrs
    # nodes carry their output shapes, as TF's exports do
    loss = [n for n in mg.graph_def.node if n.name == "loss"][0]
    assert len(loss.attr["_output_shapes"].list.shape) == 1
    assert set(mg.collection_def) == {"variables", "trainable_variables", "global_step",
                                      "train_op"}
    # minimize() adds the op to train_op and so did _regression, as in TF's fixture
    assert mg.collection_def["train_op"].node_list.value == ["Momentum", "Momentum"]
    assert len(g.get_operations()) == len(mg.graph_def.node)


def test_variable_def_round_trip():
    with tf.Graph().as_default():
        r = tf.Variable(np.float32(2.0), name="r")
        v = tf.Variable(np.float32(3.0), name="v", use_resource=False, trainable=False)
        dr, dv = r.to_proto(), v.to_proto()
        assert (dr.variable_name, dr.initializer_name, dr.snapshot_name, dr.is_resource,
                dr.trainable, dr.initial_value_name) == (
            "r:0", "r/Assign", "r/Read/ReadVariableOp:0", True, True,
            "r/Initializer/initial_value:0")
        assert (dv.variable_name, dv.initializer_name, dv.snapshot_name, dv.is_resource,
                dv.trainable, dv.initial_value_name) == (
            "v:0", "v/Assign", "v/read:0", False, False, "v/initial_value:0")
        r2 = tf.Variable.from_proto(dr)
        v2 = tf.Variable(variable_def=dv)
        assert r2.name == "r:0" and r2.dtype == tf.float32 and r2.shape == r.shape
        assert v2.name == "v:0" and v2.dtype == tf.float32._as_ref and not v2.trainable
        assert r2.to_proto() == dr and v2.to_proto() == dv
        with tf.Session() as sess:
            sess.run([r2.initializer, v2.initializer])
            assert sess.run([r2, v2]) == [2.0, 3.0]
        assert r.to_proto(export_scope="other") is None


def test_export_scope_clear_devices_and_import_into_scope(tmp_path):
    path = str(tmp_path / "scoped.meta")
    with tf.Graph().as_default():
        tf.constant(0.0, name="outside")
        with tf.variable_scope("net"), tf.device("/cpu:0"):
            x = tf.placeholder(tf.float32, [None, 2], name="x")
            w = tf.Variable(np.ones((2, 1), np.float32), name="w")
            tf.matmul(x, w, name="y")
        mg, var_list = meta_graph.export_scoped_meta_graph(
            filename=path, export_scope="net", clear_devices=True)
    assert sorted(var_list) == ["w:0"]
    names = [n.name for n in mg.graph_def.node]
    assert "outside" not in names and "y" in names and "w" in names
    assert all(not n.device for n in mg.graph_def.node)
    y = [n for n in mg.graph_def.node if n.name == "y"][0]
    assert list(y.input) == ["x", "y/ReadVariableOp"]
    with tf.Graph().as_default() as g, tf.Session() as sess:
        var_list = meta_graph.import_scoped_meta_graph(path, import_scope="copy")
        assert sorted(var_list) == ["w:0"] and var_list["w:0"].name == "copy/w:0"
        sess.run(tf.global_variables_initializer())
        out = sess.run("copy/y:0", {"copy/x:0": [[1.0, 2.0]]})
        np.testing.assert_array_equal(out, [[3.0]])
        assert g.get_operation_by_name("copy/y").device == ""


def test_strip_default_attrs_and_as_text(tmp_path):
    path = str(tmp_path / "g.pbtxt")
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, [2, 2], name="a")
        tf.matmul(a, a, name="mm")
        mg = tf.train.export_meta_graph(path, as_text=True, strip_default_attrs=True)
    assert mg.meta_info_def.stripped_default_attrs
    mm = [n for n in mg.graph_def.node if n.name == "mm"][0]
    assert "transpose_a" not in mm.attr and "T" in mm.attr
    with open(path) as f:
        text = f.read()
    assert text.startswith("meta_info_def {")
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.train.import_meta_graph(path)
        # the importer fills the stripped defaults back from the OpDef
        assert tf.get_default_graph().get_operation_by_name("mm").get_attr(
            "transpose_a") is False
        np.testing.assert_array_equal(sess.run("mm:0", {"a:0": np.eye(2)}), np.eye(2))


def test_unserializable_collection_is_skipped_with_warning(caplog):
    with tf.Graph().as_default():
        tf.Variable(1.0, name="v")
        tf.add_to_collection("odd", object())
        tf.add_to_collection(("not", "a", "string"), 1)
        with caplog.at_level(logging.WARNING, logger="minitf"):
            mg = tf.train.export_meta_graph()
    assert "odd" not in mg.collection_def and "variables" in mg.collection_def
    assert any("Issue encountered when serializing odd" in r.getMessage()
               for r in caplog.records)


def test_import_without_saver_def_builds_a_saver_or_none():
    with tf.Graph().as_default():
        tf.constant(1.0, name="c")
        bare = tf.train.export_meta_graph()
        tf.Variable(1.0, name="v")
        with_var = tf.train.export_meta_graph()
    with tf.Graph().as_default():
        assert tf.train.import_meta_graph(bare) is None
    with tf.Graph().as_default():
        s = tf.train.import_meta_graph(with_var)
        assert s.saver_def.restore_op_name == "save/restore_all"


# -- bad input ---------------------------------------------------------------------------

def test_missing_meta_file(tmp_path):
    path = str(tmp_path / "none.meta")
    with tf.Graph().as_default(), pytest.raises(OSError) as e:
        tf.train.import_meta_graph(path)
    assert str(e.value) == ERR["missing_meta"][1].replace("<tmp>", str(tmp_path))


@pytest.mark.parametrize("data", [b"\x12\xff\xff\x01 garbage", b"\x0a\x05abc",
                                  b"meta_info_def { nonsense: 1 }"])
def test_malformed_meta_file(tmp_path, data):
    # TF: a UnicodeDecodeError for bytes that are not UTF-8, OSError for bad text; minitf
    # reports both as InvalidArgumentError naming the file.
    path = str(tmp_path / "bad.meta")
    with open(path, "wb") as f:
        f.write(data)
    with tf.Graph().as_default(), pytest.raises(errors.InvalidArgumentError) as e:
        tf.train.import_meta_graph(path)
    assert e.value.message.startswith("Cannot parse file %s: " % path)


def test_truncated_meta_files_never_crash(tmp_path):
    with open(os.path.join(META, "model.ckpt-3.meta"), "rb") as f:
        data = f.read()
    outcomes = set()
    for cut in range(1, len(data), max(1, len(data) // 23)):
        path = str(tmp_path / ("cut%d.meta" % cut))
        with open(path, "wb") as f:
            f.write(data[:cut])
        with tf.Graph().as_default():
            try:
                tf.train.import_meta_graph(path)
                outcomes.add("ok")
            except (errors.InvalidArgumentError, errors.NotFoundError, ValueError) as e:
                outcomes.add(type(e).__name__)
    assert "InvalidArgumentError" in outcomes


def test_collection_naming_a_missing_node():
    mg = meta_graph.read_meta_graph_file(os.path.join(META, "model.ckpt-3.meta"))
    mg.collection_def["train_op"].node_list.value.append("no_such_op")
    with tf.Graph().as_default(), pytest.raises(errors.NotFoundError) as e:
        tf.train.import_meta_graph(mg)
    assert "no_such_op" in e.value.message and "train_op" in e.value.message
    mg = meta_graph.read_meta_graph_file(os.path.join(META, "model.ckpt-3.meta"))
    mg.collection_def["variables"].bytes_list.value.append(
        variable_pb2.VariableDef(variable_name="ghost:0", is_resource=True).SerializeToString())
    with tf.Graph().as_default(), pytest.raises(errors.NotFoundError) as e:
        tf.train.import_meta_graph(mg)
    assert "ghost" in e.value.message
    mg = meta_graph.read_meta_graph_file(os.path.join(META, "model.ckpt-3.meta"))
    mg.collection_def["variables"].bytes_list.value.append(b"\xff\xff")
    with tf.Graph().as_default(), pytest.raises(errors.InvalidArgumentError):
        tf.train.import_meta_graph(mg)


def test_unknown_fields_of_tf2_meta_graphs_survive():
    """object_graph_def and composite TensorInfos are not in minitf's schema; their bytes
    are kept and written back."""
    mg = meta_graph_pb2.MetaGraphDef()
    mg.meta_info_def.tags.append("serve")
    raw = mg.SerializeToString() + b"\x3a\x02\x0a\x00"  # field 7 (object_graph_def)
    back = meta_graph_pb2.MetaGraphDef.FromString(raw)
    assert back.SerializeToString() == raw


# -- string ops that sharded savers use ----------------------------------------------------

def test_string_join_and_static_regex_full_match():
    with tf.Graph().as_default(), tf.Session() as sess:
        a = tf.constant(["a", "bc"])
        j = tf.raw_ops.StringJoin(inputs=[a, tf.constant("_temp/part"), a], separator="-")
        assert j.shape.as_list() == [2]
        m = tf.raw_ops.StaticRegexFullMatch(input=tf.constant(["s3://b/k", "/tmp/s3://x", ""]),
                                            pattern="^s3://.*")
        assert sess.run(j).tolist() == [b"a-_temp/part-a", b"bc-_temp/part-bc"]
        assert sess.run(m).tolist() == [True, False, False]
        with pytest.raises(ValueError):
            tf.raw_ops.StringJoin(inputs=[a, tf.constant(["x", "y", "z"])])
        bad = tf.raw_ops.StaticRegexFullMatch(input=tf.constant("a"), pattern="(")
        with pytest.raises(errors.InvalidArgumentError):
            sess.run(bad)


# -- TF1 control flow contexts -------------------------------------------------------------

LOOP = EXPECTED["loop"]


def _loop_model():
    """tools/gen_saved_model_fixtures.py's build_loop_model: a v1 while loop (with
    maximum_iterations) holding a cond."""
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.Variable(np.array([[0.5], [-0.25]], np.float32), name="w")
    h = tf.matmul(x, w)

    def body(i, v):
        v = tf.cond(tf.equal(i % 2, 0), lambda: tf.tanh(v), lambda: v * v * 0.5)
        return [i + 1, v * 0.9 + 0.1]

    _, out = tf.while_loop(lambda i, v: i < 3, body, [tf.constant(0), h],
                           maximum_iterations=5)
    loss = tf.reduce_mean(tf.square(out - 0.3), name="loss")
    return w, loss, tf.train.GradientDescentOptimizer(0.5).minimize(loss)


def test_tf_loop_meta_graph_differentiates_after_import():
    """TF's while_context collection becomes minitf WhileContexts again: tf.gradients
    through the imported loop gives TF's gradient, and training goes on as TF's."""
    with tf.Graph().as_default() as g, tf.Session() as sess:
        saver = tf.train.import_meta_graph(os.path.join(FIX, "loop", "loop.meta"))
        saver.restore(sess, os.path.join(FIX, "loop", "loop"))
        assert sorted(g.get_all_collection_keys()) == LOOP["collections"]
        ctx = tf.get_collection("while_context")[0]
        assert ctx.name == "while/while_context" and ctx.maximum_iterations is not None
        w = tf.trainable_variables()[0]
        grad = tf.gradients(g.get_tensor_by_name("loss:0"), w)[0]
        np.testing.assert_allclose(sess.run(grad, {"x:0": RX}), LOOP["grad"], rtol=1e-6)
        losses = []
        for _ in range(2):
            losses.append(float(sess.run("loss:0", {"x:0": RX})))
            sess.run(tf.get_collection("train_op")[0], {"x:0": RX})
        np.testing.assert_allclose(losses, LOOP["losses"], rtol=1e-6)
        np.testing.assert_allclose(sess.run(w), LOOP["w"], rtol=1e-6)


@pytest.fixture
def v1_control_flow():
    was_v2 = tf.control_flow_v2_enabled()
    tf.disable_control_flow_v2()
    yield
    if was_v2:
        tf.enable_control_flow_v2()


def test_while_context_def_equals_tf_and_round_trips(tmp_path, v1_control_flow):
    from minitf.core.protobuf import control_flow_pb2
    tf_mg = meta_graph.read_meta_graph_file(os.path.join(FIX, "loop", "loop.meta"))
    want = control_flow_pb2.WhileContextDef.FromString(
        tf_mg.collection_def["while_context"].bytes_list.value[0])
    path = str(tmp_path / "loop.meta")
    with tf.Graph().as_default() as g, tf.Session() as sess:
        w, loss, _ = _loop_model()
        mg = tf.train.export_meta_graph(path)
        got = control_flow_pb2.WhileContextDef.FromString(
            mg.collection_def["while_context"].bytes_list.value[0])
        assert got == want
        sess.run(tf.global_variables_initializer())
        direct = sess.run(tf.gradients(loss, w)[0], {"x:0": RX})
    with tf.Graph().as_default() as g, tf.Session() as sess:
        tf.train.import_meta_graph(path, import_scope="again")
        ctx = tf.get_collection("while_context")[0]
        assert ctx.name == "again/while/while_context"
        w = tf.trainable_variables()[0]
        sess.run(tf.global_variables_initializer())
        grad = tf.gradients(g.get_tensor_by_name("again/loss:0"), w)[0]
        np.testing.assert_allclose(sess.run(grad, {"again/x:0": RX}), direct, rtol=1e-6)


def test_saver_export_collection_list_clear_devices_and_unbound_inputs(tmp_path):
    path = str(tmp_path / "m.pbtxt")
    with tf.Graph().as_default():
        with tf.device("/cpu:0"):
            v = tf.Variable(1.0, name="v")
        tf.add_to_collection("extra", 3)
        saver = tf.train.Saver()
        mg = saver.export_meta_graph(path, collection_list=["extra"], as_text=True)
    assert list(mg.collection_def) == ["extra"]
    assert mg.saver_def.restore_op_name == "save/restore_all"
    assert any(n.device for n in mg.graph_def.node)
    with tf.Graph().as_default() as g:
        tf.train.import_meta_graph(path, clear_devices=True)
        assert all(op.device == "" for op in g.get_operations())
        assert tf.get_collection("extra") == [3] and not tf.global_variables()
    # a scope whose nodes read from outside it records its unbound inputs
    with tf.Graph().as_default():
        a = tf.constant(2.0, name="a")
        with tf.name_scope("inner"):
            tf.multiply(a, 3.0, name="m")
        scoped, _ = meta_graph.export_scoped_meta_graph(export_scope="inner")
    assert list(scoped.collection_def["unbound_inputs"].bytes_list.value) == \
        [b"$unbound_inputs_a"]
    with tf.Graph().as_default(), pytest.raises(ValueError, match="Graph contains unbound "
                                                               "inputs: \\$unbound_inputs_a"):
        meta_graph.import_scoped_meta_graph(scoped)
    with tf.Graph().as_default(), tf.Session() as sess:
        five = tf.constant(5.0)
        meta_graph.import_scoped_meta_graph(scoped, import_scope="s",
                                            input_map={"$unbound_inputs_a": five})
        assert sess.run("s/m:0") == 15.0


def test_imported_loop_keeps_tfs_shapes_and_trains():
    # TF 2.21 (v1 loops): after import_meta_graph the loop's Enter and the in-loop
    # ReadVariableOp have the shapes recorded in _output_shapes, so minimize builds;
    # one SGD step gives loss 6919.2.
    tf.disable_control_flow_v2()
    try:
        with tf.Graph().as_default():
            w = tf.get_variable("w", initializer=tf.constant([1.0, 2.0]), use_resource=True)
            _, acc = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a + w * 2.0),
                                   [0, tf.zeros([2])])
            tf.add_to_collection("loss", tf.reduce_sum(acc * acc))
            mg = tf.train.export_meta_graph()
        with tf.Graph().as_default() as g:
            tf.train.import_meta_graph(mg)
            loss = tf.get_collection("loss")[0]
            assert g.get_tensor_by_name("while/Enter_1:0").shape.as_list() == [2]
            assert g.get_tensor_by_name("while/ReadVariableOp:0").shape.as_list() == [2]
            assert "_output_shapes" not in g.get_operation_by_name("while/Enter_1").node_def.attr
            train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            with tf.Session() as s:
                s.run(tf.global_variables_initializer())
                s.run(train)
                assert s.run(loss) == pytest.approx(6919.2, rel=1e-6)
    finally:
        tf.enable_control_flow_v2()


def test_import_rejects_inconsistent_output_shapes():
    gd = tf.GraphDef()
    node = gd.node.add(name="c", op="Const")
    node.attr["dtype"].type = tf.float32.as_datatype_enum
    node.attr["value"].tensor.CopyFrom(tf.make_tensor_proto([1.0, 2.0], tf.float32))
    node.attr["_output_shapes"].list.shape.add().dim.add(size=3)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"Node 'c' has an _output_shapes attribute "
                           r"inconsistent with the GraphDef for output #0: Dimension 0 in both "
                           r"shapes must be equal, but are 2 and 3\. Shapes are \[2\] and "
                           r"\[3\]\."):
            tf.import_graph_def(gd, name="")
