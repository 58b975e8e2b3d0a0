"""Writes frozen real-model fixtures with real TensorFlow (run with an interpreter that has
tensorflow-cpu and scikit-learn, e.g. /opt/tfvenv/bin/python tools/gen_frozen_models.py).

* tests/fixtures/models/keras_cnn/: a Keras CNN (Conv2D, BatchNormalization, MaxPooling2D,
  DepthwiseConv2D, AveragePooling2D, GlobalAveragePooling2D, Dropout, Dense) trained briefly on
  scikit-learn's digits (8x8x1), frozen with convert_variables_to_constants_v2.
* tests/fixtures/models/tf1_dynamic/: a TF1 graph whose shapes are only known at run time
  (Shape, StridedSlice, Pack, Reshape, Fill, Range, Tile, GatherV2, ...), frozen with
  tf.compat.v1.graph_util.convert_variables_to_constants.

Each folder: graph.pb, io.npz (feed:<name> / fetch:<name> arrays), meta.json.
"""
import json
import os

import numpy as np
import tensorflow as tf
from sklearn.datasets import load_digits
from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "models")


def save(name, graph_def, feeds, fetches, note):
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "graph.pb"), "wb") as f:
        f.write(graph_def.SerializeToString())
    arrays = {"feed:" + k: v for k, v in feeds.items()}
    arrays.update({"fetch:" + k: v for k, v in fetches.items()})
    np.savez(os.path.join(d, "io.npz"), **arrays)
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump({"feeds": sorted(feeds), "fetches": sorted(fetches),
                   "ops": sorted({n.op for n in graph_def.node}),
                   "tf_version": tf.__version__, "note": note}, f, indent=1)
    print(name, sorted({n.op for n in graph_def.node}))


def keras_cnn():
    tf.keras.utils.set_random_seed(0)
    digits = load_digits()
    x = (digits.images / 16.0).astype(np.float32)[..., None]
    y = digits.target
    L = tf.keras.layers
    model = tf.keras.Sequential([
        L.Input((8, 8, 1), name="x"),
        L.Conv2D(16, 3, padding="same", activation="relu"),
        L.BatchNormalization(),
        L.DepthwiseConv2D(3, padding="same", activation="relu"),
        L.MaxPooling2D(2),
        L.Conv2D(32, 3, padding="valid", strides=1, activation="relu"),
        L.AveragePooling2D(1),
        L.GlobalAveragePooling2D(),
        L.Dropout(0.25),
        L.Dense(32, activation="relu"),
        L.Dense(10, activation="softmax", name="probs"),
    ])
    model.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    model.fit(x[:1400], y[:1400], epochs=8, batch_size=64, verbose=0)
    fn = tf.function(lambda t: model(t, training=False))
    concrete = fn.get_concrete_function(tf.TensorSpec([None, 8, 8, 1], tf.float32, name="x"))
    frozen = convert_variables_to_constants_v2(concrete)
    graph_def = frozen.graph.as_graph_def()
    test_x = x[1400:1464]  # batch 64
    out = frozen(tf.constant(test_x))[0].numpy()
    in_name = frozen.inputs[0].name
    out_name = frozen.outputs[0].name
    save("keras_cnn", graph_def, {in_name: test_x}, {out_name: out},
         "Keras CNN on digits, frozen with convert_variables_to_constants_v2; labels in "
         "labels.npy; test accuracy %.4f" % np.mean(out.argmax(1) == y[1400:1464]))
    np.save(os.path.join(OUT, "keras_cnn", "labels.npy"), y[1400:1464])


def tf1_dynamic():
    v1 = tf.compat.v1
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [None, None], name="x")
        ids = v1.placeholder(tf.int32, [None], name="ids")
        w = v1.get_variable("w", initializer=np.arange(12, dtype=np.float32).reshape(4, 3) / 10)
        shape = tf.shape(x)
        rows, cols = shape[0], shape[1]
        flat = tf.reshape(x, tf.stack([rows * cols]))
        back = tf.reshape(flat, tf.stack([rows, -1]))
        filled = tf.fill(tf.stack([rows, 2]), 0.5)
        r = tf.range(rows)
        tiled = tf.tile(tf.expand_dims(tf.cast(r, tf.float32), 1), tf.stack([1, cols]))
        emb = tf.gather(w, ids)
        emb_sum = tf.reduce_sum(emb, axis=1, keepdims=True)
        out = tf.concat([back + tiled, filled], axis=1, name="mixed")
        total = tf.add(tf.reduce_sum(out), tf.reduce_sum(emb_sum), name="total")
        sliced = tf.identity(out[:, 1:-1], name="sliced")
        with v1.Session(graph=g) as sess:
            sess.run(v1.global_variables_initializer())
            graph_def = v1.graph_util.convert_variables_to_constants(
                sess, g.as_graph_def(), ["mixed", "total", "sliced"])
    g2 = tf.Graph()
    with g2.as_default():
        tf.graph_util.import_graph_def(graph_def, name="")
        feeds = {"x:0": np.arange(15, dtype=np.float32).reshape(3, 5) - 7,
                 "ids:0": np.array([3, 0, 3, 1], np.int32)}
        with v1.Session(graph=g2) as sess:
            vals = sess.run(["mixed:0", "total:0", "sliced:0"], feeds)
    save("tf1_dynamic", graph_def, feeds, dict(zip(["mixed:0", "total:0", "sliced:0"], vals)),
         "TF1 graph with run-time shapes, frozen with convert_variables_to_constants")


if __name__ == "__main__":
    keras_cnn()
    tf1_dynamic()
