"""Writes TensorFlow-written MetaGraphs and SavedModels for minitf's tests (developer tool,
needs TensorFlow 2.21):

    /opt/tfvenv/bin/python tools/gen_saved_model_fixtures.py

tests/fixtures/saved_model/tf_mlp/        SavedModel from TF1's SavedModelBuilder: a
    2-layer MLP (resource variables), tag "serve", signatures serving_default (predict:
    x -> logits, probs) and "vocab" (an asset's path, the initial value of a local variable
    that the main_op initializes; the loader feeds the asset's path into that run), one asset vocab.txt.
tests/fixtures/saved_model/tf_mlp_pbtxt/  the same graph saved with as_text=True.
tests/fixtures/saved_model/meta/          tf.train.Saver checkpoint model.ckpt-3 and its
    .meta of a small regression trained 3 steps (a ref and a resource variable, Momentum,
    global_step, train_op collection).
tests/fixtures/saved_model/loop/          a .meta + checkpoint of a TF1 while loop holding a
    cond (while_context / cond_context collections).
tests/fixtures/saved_model/expected.json  the outputs TF computes: the MLP's signatures
    on `x`, the meta-graph model's losses and variables for 3 more steps after restoring,
    the signature_def_utils protos TF builds, and TF's error messages for bad input.
"""
import json
import os
import shutil
import tempfile

import numpy as np
from google.protobuf import text_format

import tf_fixture
from tf_fixture import tf

ROOT = os.path.join(tf_fixture.HERE, "..", "tests", "fixtures", "saved_model")
X = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], np.float32)
W1 = np.array([[0.1, -0.2, 0.3, 0.4], [0.5, 0.6, -0.7, 0.8], [-0.9, 1.0, 0.2, -0.1]],
              np.float32)
B1 = np.array([0.01, -0.02, 0.03, 0.0], np.float32)
W2 = np.array([[0.3, -0.5], [0.2, 0.1], [-0.4, 0.6], [0.7, -0.3]], np.float32)
B2 = np.array([0.05, -0.05], np.float32)
# regression data of the meta graph model
RX = np.array([[1.0, 2.0], [-1.0, 0.5], [0.3, -0.7], [2.0, 1.0]], np.float32)
RY = np.array([[1.0], [-0.5], [0.25], [2.0]], np.float32)


def build_mlp():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    with tf.variable_scope("dense1"):
        w1 = tf.get_variable("kernel", initializer=W1)
        b1 = tf.get_variable("bias", initializer=B1)
    h = tf.nn.relu(tf.matmul(x, w1) + b1, name="hidden")
    with tf.variable_scope("dense2"):
        w2 = tf.get_variable("kernel", initializer=W2)
        b2 = tf.get_variable("bias", initializer=B2)
    logits = tf.add(tf.matmul(h, w2), b2, name="logits")
    probs = tf.nn.softmax(logits, name="probs")
    asset_path = tf.constant("vocab.txt", name="asset_path")
    tf.add_to_collection(tf.GraphKeys.ASSET_FILEPATHS, asset_path)
    # A local variable initialized from the asset's path: the loader feeds the path
    # into the main_op run.
    vocab = tf.Variable(asset_path, name="vocab_path", trainable=False,
                        collections=[tf.GraphKeys.LOCAL_VARIABLES])
    main_op = tf.group(tf.local_variables_initializer(), name="main_op")
    return x, logits, probs, vocab, main_op


def save_mlp(name, as_text, vocab_file):
    export_dir = os.path.join(ROOT, name)
    shutil.rmtree(export_dir, ignore_errors=True)
    g = tf.Graph()
    with g.as_default():
        x, logits, probs, vocab, main_op = build_mlp()
        u = tf.saved_model.utils
        sigs = {
            "serving_default": tf.saved_model.signature_def_utils.predict_signature_def(
                {"x": x}, {"logits": logits, "probs": probs}),
            "vocab": tf.saved_model.signature_def_utils.build_signature_def(
                outputs={"path": u.build_tensor_info(vocab.read_value())},
                method_name=tf.saved_model.signature_constants.PREDICT_METHOD_NAME),
        }
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            builder = tf.saved_model.builder.SavedModelBuilder(export_dir)
            builder.add_meta_graph_and_variables(
                sess, [tf.saved_model.tag_constants.SERVING], signature_def_map=sigs,
                assets_collection=tf.get_collection(tf.GraphKeys.ASSET_FILEPATHS),
                main_op=main_op)
            builder.save(as_text=as_text)
    return export_dir


def serve_mlp(export_dir):
    g = tf.Graph()
    with g.as_default(), tf.Session() as sess:
        mg = tf.saved_model.loader.load(sess, ["serve"], export_dir)
        sig = mg.signature_def["serving_default"]
        feeds = {sig.inputs["x"].name: X}
        out = sess.run({k: v.name for k, v in sig.outputs.items()}, feeds)
        path = sess.run(mg.signature_def["vocab"].outputs["path"].name)
    return {k: v.tolist() for k, v in out.items()}, os.path.relpath(path.decode(), export_dir)


def build_regression():
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    y = tf.placeholder(tf.float32, [None, 1], name="y")
    w = tf.Variable(np.array([[0.5], [-0.25]], np.float32), name="w", use_resource=False)
    b = tf.get_variable("b", initializer=np.array([0.1], np.float32), use_resource=True)
    pred = tf.add(tf.matmul(x, w), b, name="pred")
    loss = tf.reduce_mean(tf.square(pred - y), name="loss")
    step = tf.train.get_or_create_global_step()
    train = tf.train.MomentumOptimizer(0.05, 0.9).minimize(loss, global_step=step)
    tf.add_to_collection("train_op", train)
    tf.add_to_collection("my_ints", 7)
    tf.add_to_collection("my_floats", 2.5)
    tf.add_to_collection("my_strings", "hello")
    tf.add_to_collection("losses_and_preds", loss)
    tf.add_to_collection("losses_and_preds", pred)
    return x, y, loss, train


def save_meta():
    d = os.path.join(ROOT, "meta")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    g = tf.Graph()
    with g.as_default():
        x, y, loss, train = build_regression()
        saver = tf.train.Saver(save_relative_paths=True)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(3):
                sess.run(train, {x: RX, y: RY})
            saver.save(sess, os.path.join(d, "model.ckpt"), global_step=3)
    return d


def continue_meta(d):
    """Import the .meta, restore, train 3 more steps: losses and final variables."""
    g = tf.Graph()
    with g.as_default(), tf.Session() as sess:
        saver = tf.train.import_meta_graph(os.path.join(d, "model.ckpt-3.meta"))
        saver.restore(sess, os.path.join(d, "model.ckpt-3"))
        train = tf.get_collection("train_op")[0]
        losses = []
        for _ in range(3):
            losses.append(float(sess.run("loss:0", {"x:0": RX, "y:0": RY})))
            sess.run(train, {"x:0": RX, "y:0": RY})
        out = {
            "losses": losses,
            "trainable": [v.name for v in tf.trainable_variables()],
            "global_variables": [v.name for v in tf.global_variables()],
            "values": {v.name: sess.run(v).tolist() for v in tf.global_variables()},
            "my_ints": tf.get_collection("my_ints"),
            "my_floats": tf.get_collection("my_floats"),
            "my_strings": [s.decode() if isinstance(s, bytes) else s
                           for s in tf.get_collection("my_strings")],
            "losses_and_preds": [t.name for t in tf.get_collection("losses_and_preds")],
        }
    return out


def build_loop_model():
    """A TF1 while loop (maximum_iterations) holding a cond, trained by GradientDescent:
    its .meta carries while_context and cond_context collections."""
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.Variable(np.array([[0.5], [-0.25]], np.float32), name="w")
    h = tf.matmul(x, w)

    def body(i, v):
        v = tf.cond(tf.equal(i % 2, 0), lambda: tf.tanh(v), lambda: v * v * 0.5)
        return [i + 1, v * 0.9 + 0.1]

    _, out = tf.while_loop(lambda i, v: i < 3, body, [tf.constant(0), h],
                           maximum_iterations=5)
    loss = tf.reduce_mean(tf.square(out - 0.3), name="loss")
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    return x, w, loss, train


def save_loop_meta():
    """tests/fixtures/saved_model/loop/: TF1 control flow in a .meta; after importing it,
    TF's losses for 2 training steps and the gradient tf.gradients builds anew."""
    d = os.path.join(ROOT, "loop")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    tf.disable_control_flow_v2()
    try:
        with tf.Graph().as_default():
            x, w, loss, train = build_loop_model()
            saver = tf.train.Saver(save_relative_paths=True)  # no absolute path in the state file
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                saver.save(sess, os.path.join(d, "loop"))
        with tf.Graph().as_default(), tf.Session() as sess:
            saver = tf.train.import_meta_graph(os.path.join(d, "loop.meta"))
            saver.restore(sess, os.path.join(d, "loop"))
            w = tf.trainable_variables()[0]
            grad = tf.gradients(tf.get_default_graph().get_tensor_by_name("loss:0"), w)[0]
            feeds = {"x:0": RX}
            out = {"grad": sess.run(grad, feeds).tolist(), "losses": []}
            for _ in range(2):
                out["losses"].append(float(sess.run("loss:0", feeds)))
                sess.run(tf.get_collection("train_op")[0], feeds)
            out["w"] = sess.run(w).tolist()
            out["collections"] = sorted(tf.get_default_graph().get_all_collection_keys())
    finally:
        tf.enable_control_flow_v2()
    return out


def sig_utils():
    g = tf.Graph()
    with g.as_default():
        s = tf.placeholder(tf.string, [None], name="examples")
        c = tf.placeholder(tf.string, [None, 3], name="classes")
        sc = tf.placeholder(tf.float32, [None, 3], name="scores")
        p = tf.placeholder(tf.float32, [None, 1], name="pred")
        sp = tf.sparse.placeholder(tf.float32, [None, 4], name="sp")
        u = tf.saved_model
        out = {
            "classification": u.signature_def_utils.classification_signature_def(s, c, sc),
            "regression": u.signature_def_utils.regression_signature_def(s, p),
            "predict": u.signature_def_utils.predict_signature_def({"a": p}, {"b": sc}),
            "sparse_info": u.utils.build_tensor_info(sp),
        }
        valid = {k: u.signature_def_utils.is_valid_signature(v)
                 for k, v in out.items() if k != "sparse_info"}
    return {k: text_format.MessageToString(v) for k, v in out.items()}, valid


def errors_of():
    out = {}
    tmp = tempfile.mkdtemp()
    def catch(key, fn):
        try:
            fn()
            out[key] = None
        except Exception as e:  # noqa: BLE001
            out[key] = [type(e).__name__, str(e)]
    with tf.Graph().as_default(), tf.Session() as sess:
        catch("missing_dir", lambda: tf.saved_model.loader.load(
            sess, ["serve"], os.path.join(tmp, "nope")))
        catch("bad_tags", lambda: tf.saved_model.loader.load(
            sess, ["train", "gpu"], os.path.join(ROOT, "tf_mlp")))
        bad = os.path.join(tmp, "bad")
        os.makedirs(bad)
        with open(os.path.join(bad, "saved_model.pb"), "wb") as f:
            f.write(b"\x0a\xff\xff\xff\x0f garbage")
        catch("malformed_pb", lambda: tf.saved_model.loader.load(sess, ["serve"], bad))
        with open(os.path.join(tmp, "bad.meta"), "wb") as f:
            f.write(b"\x12\xff\xff\x01 garbage")
        catch("malformed_meta", lambda: tf.train.import_meta_graph(
            os.path.join(tmp, "bad.meta")))
        catch("missing_meta", lambda: tf.train.import_meta_graph(
            os.path.join(tmp, "none.meta")))
    out["maybe_saved_model_directory"] = [
        tf.saved_model.loader.maybe_saved_model_directory(os.path.join(ROOT, "tf_mlp")),
        tf.saved_model.loader.maybe_saved_model_directory(tmp)]
    shutil.rmtree(tmp)
    return {k: (v if not isinstance(v, list) or not v or not isinstance(v[1], str) else
                [v[0], v[1].replace(tmp, "<tmp>").replace(os.path.abspath(ROOT), "<fixtures>")
                 .replace(ROOT, "<fixtures>")])
            for k, v in out.items()}


def main():
    os.makedirs(ROOT, exist_ok=True)
    vocab = os.path.join(tempfile.mkdtemp(), "vocab.txt")
    with open(vocab, "w") as f:
        f.write("apple\nbanana\ncherry\n")
    old = os.getcwd()
    os.chdir(os.path.dirname(vocab))  # the asset constant names a file relative to cwd
    try:
        mlp = save_mlp("tf_mlp", False, vocab)
        save_mlp("tf_mlp_pbtxt", True, vocab)
    finally:
        os.chdir(old)
    outputs, vocab_rel = serve_mlp(mlp)
    d = save_meta()
    cont = continue_meta(d)
    loop = save_loop_meta()
    sigs, valid = sig_utils()
    payload = {"x": X.tolist(), "mlp_outputs": outputs, "vocab_path": vocab_rel,
               "rx": RX.tolist(), "ry": RY.tolist(), "meta_continue": cont, "loop": loop,
               "signature_defs": sigs, "is_valid_signature": valid, "errors": errors_of()}
    tf_fixture.write("saved_model/expected.json", payload)


if __name__ == "__main__":
    main()
