"""Writes text protos in which TensorFlow 2.21 records full types (OpDef.ArgDef's
experimental_full_type, e.g. on Shape's output), which minitf must parse (developer tool):

    /opt/tfvenv/bin/python tools/gen_full_type_fixtures.py

tests/fixtures/full_type/train.meta        export_meta_graph(as_text=True) of a small
    regression trained by GradientDescent (its stripped op list holds Shape).
tests/fixtures/full_type/saved_model/      SavedModelBuilder.save(as_text=True) of
    y = (x @ ones([3, 2])) * batch size, signature serving_default (x -> y).
tests/fixtures/full_type/expected.json     TF's y for X and the meta graph's node names.
"""
import os
import shutil

import numpy as np

import tf_fixture
from tf_fixture import tf

OUT = os.path.join(tf_fixture.HERE, "..", "tests", "fixtures", "full_type")
X = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], np.float32)


def write_meta():
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        w = tf.Variable([[1.0], [2.0]], name="w")
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w)), name="loss")
        tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        tf.train.export_meta_graph(os.path.join(OUT, "train.meta"), as_text=True)
        return sorted(op.name for op in g.get_operations())


def write_saved_model():
    d = os.path.join(OUT, "saved_model")
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        w = tf.Variable(tf.ones([3, 2]), name="w")
        y = tf.identity(tf.matmul(x, w) * tf.cast(tf.shape(x)[0], tf.float32), name="y")
        b = tf.saved_model.builder.SavedModelBuilder(d)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            b.add_meta_graph_and_variables(s, ["serve"], signature_def_map={
                "serving_default": tf.saved_model.signature_def_utils.predict_signature_def(
                    {"x": x}, {"y": y})})
            want = s.run(y, {x: X})
        b.save(as_text=True)
    return want


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    names = write_meta()
    y = write_saved_model()
    for f in ("train.meta", os.path.join("saved_model", "saved_model.pbtxt")):
        with open(os.path.join(OUT, f)) as fh:
            assert "experimental_full_type" in fh.read(), f
    tf_fixture.write(os.path.join("full_type", "expected.json"),
                     {"meta_nodes": names, "x": X.tolist(), "y": y.tolist()})


if __name__ == "__main__":
    main()
