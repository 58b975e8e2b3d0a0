"""Writes tests/fixtures/stateless_saved_model/ (developer tool, needs TensorFlow 2.21):

    /opt/tfvenv/bin/python tools/gen_stateless_saved_model.py

A TF1 SavedModel whose variables TensorFlow initializes through the stateless RNG graphs
(StatelessRandomGetKeyCounter + StatelessRandomUniformV2 / StatelessTruncatedNormalV2, and
the "philox" path's Python scramble), the checkpoint holds zeros for w and the main op re-runs
the initializers; expected.npz holds the variables' values and a fetched output as TF computes
them.
"""
import os
import shutil

import numpy as np

import tf_fixture
from tf_fixture import tf

OUT = os.path.join(tf_fixture.HERE, "..", "tests", "fixtures", "stateless_saved_model")


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        w = tf.Variable(tf.random.stateless_uniform([3, 4], seed=[7, 11], minval=-1.0),
                        name="w")
        b = tf.Variable(tf.random.stateless_truncated_normal([4], seed=[1, 2], stddev=0.1),
                        name="b")
        s = tf.Variable(tf.random.stateless_normal([2], seed=tf.constant([3, 4], tf.int64),
                                                   alg="philox"), name="s")
        y = tf.identity(tf.matmul(x, w) + b, name="y")
        init = tf.group(tf.global_variables_initializer(), name="init_all")
        builder = tf.saved_model.builder.SavedModelBuilder(os.path.join(OUT, "model"))
        sig = tf.saved_model.signature_def_utils.predict_signature_def({"x": x}, {"y": y})
        with tf.Session(graph=g) as sess:
            sess.run(tf.variables_initializer([w, b, s]))
            sess.run(tf.assign(w, tf.zeros([3, 4])))  # the checkpoint holds zeros for w:
            # loading must run the main op (the stateless initializers) to get TF's values
            builder.add_meta_graph_and_variables(
                sess, ["serve"], signature_def_map={"serving_default": sig}, main_op=init)
            builder.save()
            sess.run(init)
            feed = np.arange(6, dtype=np.float32).reshape(2, 3)
            vals = sess.run({"w": w, "b": b, "s": s, "y": y}, {x: feed})
    np.savez(os.path.join(OUT, "expected.npz"), **vals)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
