"""Writes the SavedModel that the C loader's tests read (developer tool; run with real TF:
/opt/tfvenv/bin/python tools/gen_saved_model_c_fixture.py).

tests/fixtures/saved_model_c/mlp/   TF 2.21's TF1 SavedModelBuilder output: a 3-4-3 MLP
    (resource variables, relu, softmax), two MetaGraphDefs (tags {serve} with signatures
    serving_default (predict: x -> logits, probs) and "vocab" (the path of the asset
    vocab.txt, held in a local variable that the legacy_init_op assigns from the fed asset
    path), and tags {train, gpu} without signatures), saved by an unsharded V2 Saver (so the
    graph's save/restore ops are SaveV2/RestoreV2 only).
tests/fixtures/saved_model_c/mlp_pbtxt/   the same SavedModel with saved_model.pbtxt (protobuf's
    text_format of saved_model.pb, what builder.save(as_text=True) writes) instead of .pb.
tests/fixtures/saved_model_c/meta_graph_serve.pb   the {serve} MetaGraphDef serialized
    deterministically (map entries sorted by key, as a text file lists them).
tests/fixtures/saved_model_c/expected.json   what TF's loader serves from it for X.
"""
import os
import shutil

import numpy as np

from tf_fixture import tf, write

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "tests", "fixtures", "saved_model_c")
X = np.array([[1.0, -2.0, 0.5], [0.25, 0.75, -1.5]], np.float32)
W1 = np.array([[0.2, -0.1, 0.4, 0.3], [-0.5, 0.6, 0.1, 0.9], [0.7, -0.8, 0.2, -0.4]], np.float32)
B1 = np.array([0.1, 0.0, -0.1, 0.2], np.float32)
W2 = np.array([[0.5, -0.2, 0.1], [0.3, 0.4, -0.6], [-0.7, 0.2, 0.8], [0.1, -0.9, 0.3]],
              np.float32)
B2 = np.array([0.0, 0.1, -0.2], np.float32)


def build():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    with tf.variable_scope("layer1"):
        w1 = tf.get_variable("w", initializer=W1)
        b1 = tf.get_variable("b", initializer=B1)
    h = tf.nn.relu(tf.matmul(x, w1) + b1, name="h")
    with tf.variable_scope("layer2"):
        w2 = tf.get_variable("w", initializer=W2)
        b2 = tf.get_variable("b", initializer=B2)
    logits = tf.add(tf.matmul(h, w2), b2, name="logits")
    probs = tf.nn.softmax(logits, name="probs")
    asset = tf.constant("vocab.txt", name="asset_path")
    tf.add_to_collection(tf.GraphKeys.ASSET_FILEPATHS, asset)
    vocab = tf.Variable("", name="vocab_path", trainable=False,
                        collections=[tf.GraphKeys.LOCAL_VARIABLES])
    init = tf.group(tf.assign(vocab, asset), name="legacy_init")
    return x, logits, probs, vocab, init


def main():
    export_dir = os.path.join(ROOT, "mlp")
    shutil.rmtree(ROOT, ignore_errors=True)
    os.makedirs(ROOT)
    vocab_src = os.path.join(ROOT, "vocab.txt")
    with open(vocab_src, "w") as f:
        f.write("alpha\nbeta\n")
    cwd = os.getcwd()
    os.chdir(ROOT)  # the asset constant names a file relative to cwd
    try:
        g = tf.Graph()
        with g.as_default():
            x, logits, probs, vocab, init = build()
            u = tf.saved_model.utils
            sigs = {
                "serving_default": tf.saved_model.signature_def_utils.predict_signature_def(
                    {"x": x}, {"logits": logits, "probs": probs}),
                "vocab": tf.saved_model.signature_def_utils.build_signature_def(
                    outputs={"path": u.build_tensor_info(vocab.read_value())},
                    method_name=tf.saved_model.signature_constants.PREDICT_METHOD_NAME),
            }
            saver = tf.train.Saver(sharded=False)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                b = tf.saved_model.builder.SavedModelBuilder(export_dir)
                b.add_meta_graph_and_variables(
                    sess, ["serve"], signature_def_map=sigs, saver=saver,
                    assets_collection=tf.get_collection(tf.GraphKeys.ASSET_FILEPATHS),
                    legacy_init_op=init)
                b.add_meta_graph(["train", "gpu"], saver=saver)
                b.save()
    finally:
        os.chdir(cwd)
    os.remove(vocab_src)
    from google.protobuf import text_format
    from tensorflow.core.protobuf import saved_model_pb2
    sm = saved_model_pb2.SavedModel()
    with open(os.path.join(export_dir, "saved_model.pb"), "rb") as f:
        sm.ParseFromString(f.read())
    text_dir = os.path.join(ROOT, "mlp_pbtxt")
    shutil.copytree(export_dir, text_dir)
    os.remove(os.path.join(text_dir, "saved_model.pb"))
    with open(os.path.join(text_dir, "saved_model.pbtxt"), "w") as f:
        f.write(text_format.MessageToString(sm))
    with open(os.path.join(ROOT, "meta_graph_serve.pb"), "wb") as f:
        f.write(sm.meta_graphs[0].SerializeToString(deterministic=True))
    g = tf.Graph()
    with g.as_default(), tf.Session() as sess:
        mg = tf.saved_model.loader.load(sess, ["serve"], export_dir)
        sig = mg.signature_def["serving_default"]
        out = sess.run({k: v.name for k, v in sig.outputs.items()}, {sig.inputs["x"].name: X})
        path = sess.run(mg.signature_def["vocab"].outputs["path"].name).decode()
        ops = sorted({n.op for n in mg.graph_def.node})
    write("saved_model_c/expected.json", {
        "x": X.tolist(), "outputs": {k: v.tolist() for k, v in out.items()},
        "output_names": {k: v.name for k, v in sig.outputs.items()},
        "vocab_path": os.path.relpath(path, export_dir), "op_types": ops})


if __name__ == "__main__":
    main()
