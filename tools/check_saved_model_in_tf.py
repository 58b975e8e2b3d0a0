"""Checks that MetaGraphs and SavedModels written by minitf load in TensorFlow 2.21 and
compute what minitf computes (developer tool; minitf's venv writes, TF's venv reads):

    MINITF_PYTHON=/work/venvs/<branch>/bin/python /opt/tfvenv/bin/python \
        tools/check_saved_model_in_tf.py

1. meta: minitf trains tests/fixtures/saved_model's regression (a ref and a resource
   variable, Momentum, global_step) 3 steps and Saver.save writes model.ckpt-3 and its .meta
   (binary, and a text copy through export_meta_graph(as_text=True)); minitf then imports it
   and trains 3 more steps (and saves a TF1 while loop holding a cond, with its
   while_context collection). TF imports each .meta (tf.train.import_meta_graph), restores,
   takes train_op from the collection and trains 3 steps: losses and variables must match.
2. saved_model: minitf's SavedModelBuilder saves the MLP (predict signature, an asset
   copied into a local variable by the main_op), binary and as_text, plus simple_save and
   strip_default_attrs variants; TF's loader.load serves each signature and the outputs
   must match minitf's.
Prints one line per check; exits 1 on a mismatch.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

WRITE = r"""
import json, os, sys
import numpy as np
sys.path.insert(0, %(tools)r)
import types
import minitf.compat.v1 as tf
# the fixture generator's graph builders, run with minitf as their `tf`
sys.modules["tf_fixture"] = types.SimpleNamespace(tf=tf, HERE=%(tools)r)
import gen_saved_model_fixtures as g
root = %(root)r
out = {}
# 1. meta graph
with tf.Graph().as_default():
    x, y, loss, train = g.build_regression()
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(train, {x: g.RX, y: g.RY})
        saver.save(sess, root + "/meta/model.ckpt", global_step=3)
        saver.export_meta_graph(root + "/meta/model.ckpt-3.pbtxt", as_text=True)
for name in ["model.ckpt-3.meta", "model.ckpt-3.pbtxt"]:
    with tf.Graph().as_default(), tf.Session() as sess:
        s = tf.train.import_meta_graph(root + "/meta/" + name)
        s.restore(sess, root + "/meta/model.ckpt-3")
        train = tf.get_collection("train_op")[0]
        losses = []
        for _ in range(3):
            losses.append(float(sess.run("loss:0", {"x:0": g.RX, "y:0": g.RY})))
            sess.run(train, {"x:0": g.RX, "y:0": g.RY})
        out[name] = {"losses": losses,
                     "values": {v.name: np.asarray(sess.run(v)).tolist()
                                for v in tf.global_variables()}}
# 1b. a TF1 while loop holding a cond: the while_context collection
tf.disable_control_flow_v2()
with tf.Graph().as_default():
    xl, wl, lossl, trainl = g.build_loop_model()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        tf.train.Saver().save(sess, root + "/meta/loop")
        out["loop"] = {"grad": sess.run(tf.gradients(lossl, wl)[0], {xl: g.RX}).tolist()}
tf.enable_control_flow_v2()
# 2. saved models
vocab = os.path.join(root, "vocab.txt")
open(vocab, "w").write("apple\n")
os.chdir(root)
for name, kw in [("sm_pb", {}), ("sm_pbtxt", {"as_text": True}), ("sm_strip", {"strip": True})]:
    with tf.Graph().as_default():
        x, logits, probs, vocab_var, main_op = g.build_mlp()
        u = tf.saved_model.utils
        sigs = {"serving_default": tf.saved_model.signature_def_utils.predict_signature_def(
                    {"x": x}, {"logits": logits, "probs": probs}),
                "vocab": tf.saved_model.signature_def_utils.build_signature_def(
                    outputs={"path": u.build_tensor_info(vocab_var.read_value())},
                    method_name=tf.saved_model.signature_constants.PREDICT_METHOD_NAME)}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            b = tf.saved_model.builder.SavedModelBuilder(root + "/" + name)
            b.add_meta_graph_and_variables(
                sess, ["serve"], signature_def_map=sigs,
                assets_collection=tf.get_collection(tf.GraphKeys.ASSET_FILEPATHS),
                main_op=main_op, strip_default_attrs=kw.get("strip", False))
            b.save(as_text=kw.get("as_text", False))
            out[name] = sess.run({"logits": logits, "probs": probs}, {x: g.X})
            out[name] = {k: v.tolist() for k, v in out[name].items()}
with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.Variable(g.W1, name="w")
    yy = tf.matmul(x, w, name="y")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        tf.saved_model.simple_save(sess, root + "/simple", {"x": x}, {"y": yy})
        out["simple"] = {"y": sess.run(yy, {x: g.X}).tolist()}
json.dump(out, open(root + "/out.json", "w"))
"""


def close(a, b):
    return np.allclose(np.asarray(a, np.float64), np.asarray(b, np.float64), rtol=1e-6,
                       atol=1e-7)


def main():
    import tf_fixture  # noqa: F401
    from tf_fixture import tf
    import gen_saved_model_fixtures as g
    minitf_python = os.environ.get("MINITF_PYTHON", "python3")
    root = tempfile.mkdtemp()
    os.makedirs(os.path.join(root, "meta"))
    subprocess.run([minitf_python, "-c", WRITE % {"tools": HERE, "root": root}], check=True,
                   cwd=root)
    want = json.load(open(os.path.join(root, "out.json")))
    bad = 0
    for name in ["model.ckpt-3.meta", "model.ckpt-3.pbtxt"]:
        with tf.Graph().as_default(), tf.Session() as sess:
            s = tf.train.import_meta_graph(os.path.join(root, "meta", name))
            s.restore(sess, os.path.join(root, "meta", "model.ckpt-3"))
            train = tf.get_collection("train_op")[0]
            losses = []
            for _ in range(3):
                losses.append(float(sess.run("loss:0", {"x:0": g.RX, "y:0": g.RY})))
                sess.run(train, {"x:0": g.RX, "y:0": g.RY})
            values = {v.name: np.asarray(sess.run(v)).tolist() for v in tf.global_variables()}
            trainable = [v.name for v in tf.trainable_variables()]
        ok = (close(losses, want[name]["losses"]) and sorted(values) ==
              sorted(want[name]["values"]) and
              all(close(values[k], want[name]["values"][k]) for k in values) and
              trainable == ["w:0", "b:0"])
        bad += not ok
        print("meta", name, "match" if ok else "MISMATCH", losses, want[name]["losses"])
    tf.disable_control_flow_v2()
    with tf.Graph().as_default() as graph, tf.Session() as sess:
        s = tf.train.import_meta_graph(os.path.join(root, "meta", "loop.meta"))
        s.restore(sess, os.path.join(root, "meta", "loop"))
        w = tf.trainable_variables()[0]
        grad = sess.run(tf.gradients(graph.get_tensor_by_name("loss:0"), w)[0],
                        {"x:0": g.RX})
        ok = close(grad, want["loop"]["grad"]) and len(tf.get_collection("while_context")) == 1
        bad += not ok
        print("meta loop.meta (while_context, gradients after import)",
              "match" if ok else "MISMATCH")
    tf.enable_control_flow_v2()
    for name in ["sm_pb", "sm_pbtxt", "sm_strip", "simple"]:
        export_dir = os.path.join(root, name)
        with tf.Graph().as_default(), tf.Session() as sess:
            mg = tf.saved_model.loader.load(sess, ["serve"], export_dir)
            sig = mg.signature_def["serving_default"]
            got = sess.run({k: v.name for k, v in sig.outputs.items()},
                           {sig.inputs["x"].name: g.X})
            ok = sorted(got) == sorted(want[name]) and all(
                close(got[k], want[name][k]) for k in got)
            if "vocab" in mg.signature_def:
                path = sess.run(mg.signature_def["vocab"].outputs["path"].name).decode()
                ok = ok and path == os.path.join(export_dir, "assets", "vocab.txt")
        bad += not ok
        print("saved_model", name, "match" if ok else "MISMATCH")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
