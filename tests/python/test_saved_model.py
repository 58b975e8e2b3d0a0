"""tf.saved_model (TF1 API) against TensorFlow 2.21: SavedModels TF's SavedModelBuilder
wrote (tests/fixtures/saved_model/tf_mlp*, tools/gen_saved_model_fixtures.py) load in
minitf and serve their signatures with TF's outputs; minitf's builder writes TF's layout and
loads back; signature_def_utils builds TF's protos; the CLI inspects and runs SavedModels;
bad input gives TF's errors. (That minitf's SavedModels load in TF is checked by
tools/check_saved_model_in_tf.py.)"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
from google.protobuf import text_format

import minitf as tf
from minitf.core.protobuf import meta_graph_pb2, saved_model_pb2
from minitf.framework import errors

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "fixtures", "saved_model")
TF_MLP = os.path.join(FIX, "tf_mlp")
with open(os.path.join(FIX, "expected.json")) as _f:
    EXPECTED = json.load(_f)
X = np.array(EXPECTED["x"], np.float32)
ERR = EXPECTED["errors"]
sm = tf.saved_model


def _serve(export_dir, tags=("serve",), **kw):
    with tf.Graph().as_default() as g, tf.Session(graph=g) as sess:
        mg = sm.loader.load(sess, list(tags), export_dir, **kw)
        sig = mg.signature_def["serving_default"]
        scope = kw.get("import_scope")
        feed = {sm.utils.get_tensor_from_tensor_info(sig.inputs["x"], import_scope=scope): X}
        out = sess.run({k: sm.utils.get_tensor_from_tensor_info(v, import_scope=scope)
                        for k, v in sig.outputs.items()}, feed)
        path = None
        if "vocab" in mg.signature_def:
            path = sess.run(sm.utils.get_tensor_from_tensor_info(
                mg.signature_def["vocab"].outputs["path"], import_scope=scope)).decode()
        return mg, out, path


@pytest.mark.parametrize("name", ["tf_mlp", "tf_mlp_pbtxt"])
def test_tf_saved_model_serves_tf_outputs(name):
    export_dir = os.path.join(FIX, name)
    mg, out, path = _serve(export_dir)
    assert sorted(out) == ["logits", "probs"]
    for k, v in EXPECTED["mlp_outputs"].items():
        np.testing.assert_allclose(out[k], v, rtol=1e-6, atol=1e-7)
    # the main_op ran with the asset tensor fed the asset's path in this SavedModel
    assert path == os.path.join(export_dir, EXPECTED["vocab_path"])
    assert list(mg.meta_info_def.tags) == ["serve"]
    assert mg.signature_def["serving_default"].method_name == sm.PREDICT_METHOD_NAME


def test_tf_saved_model_variables_and_scope():
    with tf.Graph().as_default() as g, tf.Session(graph=g) as sess:
        sm.load(sess, [sm.tag_constants.SERVING], TF_MLP, import_scope="m")
        names = [v.name for v in tf.trainable_variables()]
        assert names == ["m/dense1/kernel:0", "m/dense1/bias:0", "m/dense2/kernel:0",
                         "m/dense2/bias:0"]
        assert [v.name for v in tf.local_variables()] == ["m/vocab_path:0"]
        np.testing.assert_allclose(sess.run("m/logits:0", {"m/x:0": X}),
                                   EXPECTED["mlp_outputs"]["logits"], rtol=1e-6)
    _, out, path = _serve(TF_MLP, import_scope="again")
    np.testing.assert_allclose(out["probs"], EXPECTED["mlp_outputs"]["probs"], rtol=1e-6)
    assert path == os.path.join(TF_MLP, "assets", "vocab.txt")


def _build_mlp(vocab):
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    with tf.variable_scope("dense1"):
        w = tf.get_variable("kernel", initializer=np.arange(12, dtype=np.float32).reshape(3, 4)
                            / 10)
    logits = tf.matmul(tf.nn.relu(tf.matmul(x, w)), tf.ones([4, 2]), name="logits")
    asset = tf.constant(vocab, name="asset_path")
    tf.add_to_collection(tf.GraphKeys.ASSET_FILEPATHS, asset)
    v = tf.Variable(asset, name="vocab_path", trainable=False,
                    collections=[tf.GraphKeys.LOCAL_VARIABLES])
    main_op = tf.group(tf.local_variables_initializer(), name="main_op")
    sigs = {"serving_default": sm.predict_signature_def({"x": x}, {"logits": logits}),
            "vocab": sm.build_signature_def(
                outputs={"path": sm.build_tensor_info(v.read_value())},
                method_name=sm.PREDICT_METHOD_NAME)}
    return x, logits, main_op, sigs


def _want(x):
    w = np.arange(12, dtype=np.float32).reshape(3, 4) / 10
    return np.maximum(x @ w, 0) @ np.ones((4, 2), np.float32)


@pytest.mark.parametrize("as_text", [False, True])
def test_minitf_builder_layout_and_round_trip(tmp_path, as_text):
    vocab = str(tmp_path / "vocab.txt")
    with open(vocab, "w") as f:
        f.write("a\nb\n")
    export_dir = str(tmp_path / "export")
    with tf.Graph().as_default(), tf.Session() as sess:
        x, logits, main_op, sigs = _build_mlp(vocab)
        sess.run(tf.global_variables_initializer())
        b = sm.builder.SavedModelBuilder(export_dir)
        b.add_meta_graph_and_variables(
            sess, [sm.tag_constants.SERVING], signature_def_map=sigs,
            assets_collection=tf.get_collection(tf.GraphKeys.ASSET_FILEPATHS),
            main_op=main_op, clear_devices=True, strip_default_attrs=True)
        b.add_meta_graph([sm.tag_constants.TRAINING, sm.tag_constants.GPU])
        path = b.save(as_text=as_text)
    fname = "saved_model.pbtxt" if as_text else "saved_model.pb"
    assert path == os.path.join(export_dir, fname).encode()
    assert sorted(os.listdir(export_dir)) == ["assets", fname, "variables"]
    assert sorted(os.listdir(os.path.join(export_dir, "variables"))) == [
        "variables.data-00000-of-00001", "variables.index"]
    assert os.listdir(os.path.join(export_dir, "assets")) == ["vocab.txt"]
    assert sm.contains_saved_model(export_dir) and sm.loader.maybe_saved_model_directory(
        export_dir)
    parsed = sm.loader.parse_saved_model(export_dir)
    assert parsed.saved_model_schema_version == 1
    assert [list(m.meta_info_def.tags) for m in parsed.meta_graphs] == [["serve"],
                                                                       ["train", "gpu"]]
    first = parsed.meta_graphs[0]
    assert first.meta_info_def.stripped_default_attrs
    assert first.saver_def.sharded
    assets = first.collection_def[sm.constants.ASSETS_KEY].any_list.value
    asset = meta_graph_pb2.AssetFileDef()
    assert assets[0].Unpack(asset) and asset.filename == "vocab.txt"
    assert asset.tensor_info.name == "asset_path:0"
    assert first.collection_def[sm.constants.MAIN_OP_KEY].node_list.value == ["main_op"]
    _, out, got_path = _serve(export_dir)
    np.testing.assert_allclose(out["logits"], _want(X), rtol=1e-6)
    assert got_path == os.path.join(export_dir, "assets", "vocab.txt")
    # the second MetaGraph, loaded by its tag set (order does not matter)
    with tf.Graph().as_default(), tf.Session() as sess:
        mg = sm.loader.load(sess, ["gpu", "train"], export_dir)
        assert list(mg.meta_info_def.tags) == ["train", "gpu"]
        np.testing.assert_allclose(sess.run("logits:0", {"x:0": X}), _want(X), rtol=1e-6)


def test_simple_save(tmp_path):
    export_dir = str(tmp_path / "simple")
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        with tf.device("/cpu:0"):
            w = tf.Variable(np.full((3, 2), 0.5, np.float32), name="w")
        y = tf.matmul(x, w, name="y")
        sess.run(tf.global_variables_initializer())
        sm.simple_save(sess, export_dir, {"x": x}, {"y": y})
    parsed = sm.loader.parse_saved_model(export_dir)
    mg = parsed.meta_graphs[0]
    assert list(mg.meta_info_def.tags) == ["serve"]
    assert list(mg.signature_def) == ["serving_default"]
    assert all(not n.device for n in mg.graph_def.node)  # clear_devices=True
    _, out, _ = _serve(export_dir)
    np.testing.assert_allclose(out["y"], X @ np.full((3, 2), 0.5, np.float32), rtol=1e-6)


def test_signature_def_utils_build_tf_protos():
    want = EXPECTED["signature_defs"]
    with tf.Graph().as_default():
        s = tf.placeholder(tf.string, [None], name="examples")
        c = tf.placeholder(tf.string, [None, 3], name="classes")
        sc = tf.placeholder(tf.float32, [None, 3], name="scores")
        p = tf.placeholder(tf.float32, [None, 1], name="pred")
        sp = tf.sparse.placeholder(tf.float32, [None, 4], name="sp")
        got = {
            "classification": sm.signature_def_utils.classification_signature_def(s, c, sc),
            "regression": sm.signature_def_utils.regression_signature_def(s, p),
            "predict": sm.signature_def_utils.predict_signature_def({"a": p}, {"b": sc}),
            "sparse_info": sm.utils.build_tensor_info(sp),
        }
        for k, v in got.items():
            proto = type(v)()
            text_format.Parse(want[k], proto)
            assert v == proto, k
            if k != "sparse_info":
                assert sm.is_valid_signature(v) == EXPECTED["is_valid_signature"][k]
        back = sm.utils.get_tensor_from_tensor_info(got["sparse_info"])
        assert (back.indices.name, back.values.name, back.dense_shape.name) == (
            "sp/indices:0", "sp/values:0", "sp/shape:0")
        assert not sm.is_valid_signature(meta_graph_pb2.SignatureDef())
        assert not sm.is_valid_signature(sm.build_signature_def(
            {"inputs": sm.build_tensor_info(p)}, {"outputs": sm.build_tensor_info(p)},
            sm.REGRESS_METHOD_NAME))
        with pytest.raises(ValueError, match="Regression input tensors must be of type string"):
            sm.regression_signature_def(p, p)
        with pytest.raises(ValueError, match="Prediction `inputs` cannot be None or empty."):
            sm.predict_signature_def({}, {"b": sc})
        d = sm.build_signature_def(defaults={"k": tf.constant([1.5, 2.0])})
        assert tf.make_ndarray(d.defaults["k"]).tolist() == [1.5, 2.0]
        with pytest.raises(ValueError, match="Unable to convert object"):
            sm.build_signature_def(defaults={"k": p})


def test_builder_errors(tmp_path):
    full = tmp_path / "full"
    full.mkdir()
    (full / "f").write_text("x")
    with pytest.raises(AssertionError, match="already exists, and isn't empty"):
        sm.builder.SavedModelBuilder(str(full))
    b = sm.Builder(str(tmp_path / "new"))
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.placeholder(tf.float32, [1], name="x")
        with pytest.raises(AssertionError, match="has not been saved yet"):
            b.add_meta_graph(["serve"])
        bad = {"s": meta_graph_pb2.SignatureDef()}
        bad["s"].inputs["x"].name = "x:0"
        with pytest.raises(AssertionError, match="must have the dtype field set"):
            b.add_meta_graph_and_variables(sess, ["serve"], signature_def_map=bad)
        with pytest.raises(KeyError, match="is reserved for initialization"):
            b.add_meta_graph_and_variables(sess, ["serve"], signature_def_map={
                "__saved_model_init_op": sm.predict_signature_def({"x": x}, {"x": x})})
        with pytest.raises(TypeError, match="must be of type constant"):
            b.add_meta_graph_and_variables(sess, ["serve"], assets_collection=[x])


# -- bad input ---------------------------------------------------------------------------

def test_missing_export_dir(tmp_path):
    d = str(tmp_path / "nope")
    with tf.Graph().as_default(), tf.Session() as sess, pytest.raises(OSError) as e:
        sm.loader.load(sess, ["serve"], d)
    assert str(e.value) == ERR["missing_dir"][1].replace("<tmp>", str(tmp_path))
    assert ERR["missing_dir"][0] == "OSError"
    assert [sm.loader.maybe_saved_model_directory(TF_MLP),
            sm.loader.maybe_saved_model_directory(str(tmp_path))] == \
        ERR["maybe_saved_model_directory"]


def test_tags_not_found():
    with tf.Graph().as_default(), tf.Session() as sess, pytest.raises(RuntimeError) as e:
        sm.loader.load(sess, ["train", "gpu"], TF_MLP)
    assert str(e.value) == ERR["bad_tags"][1]


def test_malformed_saved_model_pb(tmp_path):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "saved_model.pb").write_bytes(b"\x0a\xff\xff\xff\x0f garbage")
    with tf.Graph().as_default(), tf.Session() as sess, pytest.raises(OSError) as e:
        sm.loader.load(sess, ["serve"], str(bad))
    want = ERR["malformed_pb"][1].replace("<tmp>", str(tmp_path))
    # TF's message up to protobuf's own wording of the failure
    assert str(e.value).startswith(want.split(": Error parsing")[0] + ": ")
    (bad / "saved_model.pb").unlink()
    (bad / "saved_model.pbtxt").write_text("meta_graphs { bogus: 1 }")
    with tf.Graph().as_default(), tf.Session() as sess, pytest.raises(OSError) as e:
        sm.loader.load(sess, ["serve"], str(bad))
    assert str(e.value).startswith("Cannot parse file b'%s/saved_model.pbtxt': " % bad)


def test_corrupted_saved_models_never_crash(tmp_path):
    """Truncations and byte flips of TF's saved_model.pb: a clean error (or a load, where
    the damage happens to leave a valid SavedModel), never a crash."""
    with open(os.path.join(TF_MLP, "saved_model.pb"), "rb") as f:
        data = f.read()
    d = tmp_path / "m"
    shutil.copytree(TF_MLP, d)
    variants = [data[:n] for n in range(0, len(data), len(data) // 12)]
    rng = np.random.RandomState(0)
    for _ in range(12):
        b = bytearray(data)
        b[rng.randint(len(b))] ^= 0xFF
        variants.append(bytes(b))
    kinds = set()
    for v in variants:
        (d / "saved_model.pb").write_bytes(v)
        with tf.Graph().as_default(), tf.Session() as sess:
            try:
                sm.loader.load(sess, ["serve"], str(d))
                kinds.add("ok")
            except (OSError, RuntimeError, ValueError, KeyError, TypeError,
                    errors.OpError) as e:
                kinds.add(type(e).__name__)
    assert "OSError" in kinds and "RuntimeError" in kinds


# -- CLI -----------------------------------------------------------------------------------

def _cli(*args):
    return subprocess.run([sys.executable, "-m", "minitf", *args], capture_output=True,
                          text=True, timeout=120)


def test_cli_inspect_saved_model():
    r = _cli("inspect", TF_MLP)
    assert r.returncode == 0, r.stderr
    text = r.stdout
    assert text.startswith("The given SavedModel contains the following tag-sets:\n'serve'\n")
    assert "MetaGraphDef with tag-set: 'serve' contains the following SignatureDefs:" in text
    block = text.split("signature_def['serving_default']:")[1].split("signature_def[")[0]
    assert block.splitlines()[1:] == [
        "  The given SavedModel SignatureDef contains the following input(s):",
        "    inputs['x'] tensor_info:",
        "        dtype: DT_FLOAT",
        "        shape: (-1, 3)",
        "        name: x:0",
        "  The given SavedModel SignatureDef contains the following output(s):",
        "    outputs['logits'] tensor_info:",
        "        dtype: DT_FLOAT",
        "        shape: (-1, 2)",
        "        name: logits:0",
        "    outputs['probs'] tensor_info:",
        "        dtype: DT_FLOAT",
        "        shape: (-1, 2)",
        "        name: probs:0",
        "  Method name is: tensorflow/serving/predict",
        ""]
    assert "outputs['path'] tensor_info:\n        dtype: DT_STRING\n        shape: ()" in text


def test_cli_shape_strings_are_saved_model_clis():
    """saved_model_cli prints '(' + ', '.join(sizes) + ')': one dimension is "(-1)", with
    no tuple comma; a scalar "()"; unknown rank "unknown_rank"."""
    from minitf import cli
    from minitf.core.framework import tensor_shape_pb2
    one = tensor_shape_pb2.TensorShapeProto(dim=[tensor_shape_pb2.TensorShapeProto.Dim(size=-1)])
    two = tensor_shape_pb2.TensorShapeProto(dim=[tensor_shape_pb2.TensorShapeProto.Dim(size=-1),
                                                 tensor_shape_pb2.TensorShapeProto.Dim(size=3)])
    assert cli._shape_str(one) == "(-1)"
    assert cli._shape_str(two) == "(-1, 3)"
    assert cli._shape_str(tensor_shape_pb2.TensorShapeProto()) == "()"
    assert cli._shape_str(tensor_shape_pb2.TensorShapeProto(unknown_rank=True)) == "unknown_rank"


def test_cli_run_saved_model(tmp_path):
    xfile = str(tmp_path / "x.npy")
    np.save(xfile, X)
    outdir = str(tmp_path / "out")
    r = _cli("run", TF_MLP, "--signature", "serving_default", "--input", "x=" + xfile,
             "--tag_set", "serve", "--outdir", outdir)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "Result for output key logits:"
    printed = np.array([[float(t) for t in ln.strip(" []").split()] for ln in lines[1:3]])
    np.testing.assert_allclose(printed, EXPECTED["mlp_outputs"]["logits"], rtol=1e-6)
    assert "Result for output key probs:" in lines
    for k in ("logits", "probs"):
        np.testing.assert_allclose(np.load(os.path.join(outdir, k + ".npy")),
                                   EXPECTED["mlp_outputs"][k], rtol=1e-6, atol=1e-7)


def test_cli_saved_model_errors(tmp_path):
    xfile = str(tmp_path / "x.npy")
    np.save(xfile, X)
    r = _cli("run", TF_MLP, "--signature", "nope", "--input", "x=" + xfile)
    assert r.returncode == 2
    assert r.stderr.strip() == ("minitf run: error: signature 'nope' not found in the "
                                "MetaGraph with tags 'serve'; it has: serving_default, vocab")
    r = _cli("run", TF_MLP, "--input", "z=" + xfile)
    assert r.returncode == 2 and "has no input 'z'; its inputs are: x" in r.stderr
    r = _cli("run", TF_MLP, "--tag_set", "train", "--input", "x=" + xfile)
    assert r.returncode == 2
    assert r.stderr.strip() == "minitf run: error: " + ERR["bad_tags"][1].replace(
        "'train', 'gpu'", "'train'")
    empty = tmp_path / "empty"
    empty.mkdir()
    r = _cli("inspect", str(empty))
    assert r.returncode == 2 and "SavedModel file does not exist at: " in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("how", ["legacy_init_op", "init_op_signature"])
def test_loader_finds_the_init_op_as_tf(tmp_path, how):
    """Older SavedModels keep the init op in the legacy_init_op collection, TF2's
    _SavedModelBuilder in the __saved_model_init_op signature: both run at load, with the
    assets fed."""
    d = tmp_path / "m"
    shutil.copytree(TF_MLP, d)
    model = saved_model_pb2.SavedModel.FromString((d / "saved_model.pb").read_bytes())
    mg = model.meta_graphs[0]
    mg.collection_def[how if how == "legacy_init_op" else "unused"].CopyFrom(
        mg.collection_def[sm.constants.MAIN_OP_KEY])
    del mg.collection_def[sm.constants.MAIN_OP_KEY]
    if how == "init_op_signature":
        mg.signature_def[sm.constants.INIT_OP_SIGNATURE_KEY].outputs[
            sm.constants.INIT_OP_SIGNATURE_KEY].name = "main_op"
    (d / "saved_model.pb").write_bytes(model.SerializeToString())
    _, out, path = _serve(str(d))
    assert path == os.path.join(str(d), "assets", "vocab.txt")
    np.testing.assert_allclose(out["logits"], EXPECTED["mlp_outputs"]["logits"], rtol=1e-6)
