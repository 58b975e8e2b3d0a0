"""The seed programs, exactly as the seed documents print them."""
import os

import numpy as np

import minitf as tf


def test_seed_000_prints_and_runs(capsys):
    a = tf.constant(3.0, dtype=tf.float32)
    b = tf.constant(4.0)  # also tf.float32 implicitly
    total = a + b
    print(a)
    print(b)
    print(total)
    assert capsys.readouterr().out.splitlines() == [
        'Tensor("Const:0", shape=(), dtype=float32)',
        'Tensor("Const_1:0", shape=(), dtype=float32)',
        'Tensor("add:0", shape=(), dtype=float32)',
    ]
    with tf.Session() as sess:
        result = sess.run(total)
    assert result == 7.0
    assert type(result) is np.float32
    assert total.op.type == "AddV2"


def test_seed_004_from_scratch_program():
    a = tf.constant(15)
    b = tf.constant(5)
    prod = tf.multiply(a, b)
    total = tf.add(a, b)
    res = tf.divide(prod, total)
    with tf.Session() as sess:
        value = sess.run(res)
    # (15*5)/(15+5); int32 division happens in float64, as in TensorFlow.
    assert value == 3.75
    assert type(value) is np.float64
    assert [op.name for op in tf.get_default_graph().get_operations()] == [
        "Const", "Const_1", "Mul", "Add", "truediv/Cast", "truediv/Cast_1", "truediv"]


def test_seed_examples_fixture_graph(fixtures_dir):
    d = os.path.join(fixtures_dir, "seed_examples")
    io = np.load(os.path.join(d, "io.npz"))
    with open(os.path.join(d, "graph.pb"), "rb") as f:
        gd = tf.GraphDef.FromString(f.read())
    add, res = tf.import_graph_def(gd, return_elements=["add:0", "res:0"], name="")
    with tf.Session() as sess:
        got_add, got_res = sess.run([add, res])
    assert got_add == io["fetch:add:0"] == 7.0
    assert got_res == io["fetch:res:0"] == 3.75
    assert type(got_add) is type(io["fetch:add:0"][()])
