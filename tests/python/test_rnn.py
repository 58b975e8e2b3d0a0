"""RNN cells, dynamic_rnn, static_rnn and the bidirectional forms against TensorFlow 2.21
(tf-keras 2.21's legacy cells, control flow v2): the programs of rnn_cases.py replayed on
minitf and compared with tests/fixtures/rnn_expected.json (tools/gen_rnn_expected.py):
variable names and shapes (so checkpoints line up), outputs and final states with the same
fixed variable values, every op name and type of the outer graph except initializers, static
shapes; gradients where they do not cross a While (the fixture holds TensorFlow's for the
dynamic_rnn cases too)."""
import json
import os

import numpy as np
import pytest

import minitf as tf
import rnn_cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "rnn_expected.json")) as f:
    FIXTURE = json.load(f)
EXPECTED = FIXTURE["cases"]


def _close(got, want, what):
    """float32 results of the same op sequence; tanh/sigmoid/exp kernels differ from
    TensorFlow's (Eigen) in the last bits, which a few steps carry on."""
    assert [g[0] for g in got] == [w[0] for w in want], what
    for k, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_allclose(np.asarray(g[1]), np.asarray(w[1]), rtol=1e-5, atol=1e-6,
                                   err_msg="%s[%d]" % (what, k))


@pytest.mark.parametrize("name", sorted(rnn_cases.CASES))
def test_rnn_matches_tensorflow(name):
    got = rnn_cases.run_case(tf, name)
    want = EXPECTED[name]
    assert got["variables"] == want["variables"]
    assert got["trainable"] == want["trainable"]
    assert got["shapes"] == want["shapes"]
    _close(got["values"], want["values"], name)
    assert got["ops"] == want["ops"]


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED if "grads" in EXPECTED[n]))
def test_gradients_match_tensorflow(name):
    # d loss / d every variable and the inputs: through dynamic_rnn's While (its v2 gradient
    # loop), bidirectional ReverseSequence, and static unrolled cells.
    got = rnn_cases.run_case(tf, name, grads=True)
    _close(got["grads"], EXPECTED[name]["grads"], name + ".grads")


@pytest.mark.parametrize("name", sorted(rnn_cases.ERRORS))
def test_errors_match_tensorflow(name):
    assert rnn_cases.ERRORS[name](tf) == FIXTURE["errors"][name]


def test_namespaces_and_state_tuple():
    assert tf.compat.v1.nn.rnn_cell.LSTMCell is tf.nn.rnn_cell.LSTMCell
    st = tf.nn.rnn_cell.LSTMStateTuple(1, 2)
    assert (st.c, st.h) == (1, 2) and st._fields == ("c", "h")
    cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.BasicLSTMCell(3),
                                        tf.nn.rnn_cell.GRUCell(2)])
    assert cell.state_size == (tf.nn.rnn_cell.LSTMStateTuple(3, 3), 2)
    assert cell.output_size == 2


def test_cell_reuses_its_variables_across_calls():
    g = tf.Graph()
    with g.as_default():
        cell = tf.nn.rnn_cell.BasicRNNCell(2)
        x = tf.zeros([1, 3])
        h = cell.zero_state(1, tf.float32)
        with tf.variable_scope("step"):
            h1, _ = cell(x, h)
            h2, _ = cell(x, h1)
        assert [v.name for v in tf.global_variables()] == \
            ["step/basic_rnn_cell/kernel:0", "step/basic_rnn_cell/bias:0"]
        assert h2.op.name == "step/basic_rnn_cell_1/Tanh" or \
            h2.op.name.startswith("step/basic_rnn_cell/")


def test_errors_as_tensorflow():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2, 3, 4])
        with pytest.raises(ValueError, match="If there is no initial_state, you must give a "
                                             "dtype."):
            tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(2), x)
        with pytest.raises(TypeError, match="The argument 'cell' .* is not an RNNCell: "
                                            "'output_size' property is missing"):
            tf.nn.dynamic_rnn(lambda a, b: a, x, dtype=tf.float32)
        with pytest.raises(TypeError, match="inputs must be a sequence"):
            tf.nn.static_rnn(tf.nn.rnn_cell.GRUCell(2), x, dtype=tf.float32)
        with pytest.raises(ValueError, match="sequence_length must be a vector"):
            tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(2), x, dtype=tf.float32,
                              sequence_length=[[1]])
        with pytest.raises(ValueError, match="Must specify at least one cell"):
            tf.nn.rnn_cell.MultiRNNCell([])
        with pytest.raises(ValueError, match="Parameter input_keep_prob must be between 0 "
                                             "and 1"):
            tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.GRUCell(2), input_keep_prob=1.5)


def test_dynamic_rnn_sequence_length_checked_at_run_time():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2, 3, 1])
        n = tf.placeholder(tf.int32, [None])
        out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicRNNCell(1), x, sequence_length=n,
                                   dtype=tf.float32)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"assertion failed: \[Expected shape for Tensor "
                                     r"rnn/sequence_length:0 is \] \[2\] \[ but saw shape: \] "
                                     r"\[3\]"):
                sess.run(out, {x: np.ones([2, 3, 1]), n: [1, 2, 3]})
            zero_after = sess.run(out, {x: np.ones([2, 3, 1]), n: [1, 3]})
            assert np.all(zero_after[0, 1:] == 0) and np.all(zero_after[1] != 0)


@pytest.mark.parametrize("name", ["lstm2_dynamic", "gru_bidirectional", "gru_bidirectional_lengths"])
def test_v1_control_flow_gives_tensorflows_values_and_gradients(name):
    # The same programs built with TF1 control flow (Enter/Merge/Switch/Exit loops over
    # TensorArrayV3, gradients through grad loops and stacks): the same math, so TensorFlow's
    # values and gradients (recorded in the v2 form) must come out again.
    tf.disable_control_flow_v2()
    try:
        got = rnn_cases.run_case(tf, name, grads=True)
        g = tf.Graph()
        with g.as_default():
            rnn_cases.CASES[name](tf)
            types = {op.type for op in g.get_operations()}
    finally:
        tf.enable_control_flow_v2()
    assert {"Enter", "Exit", "TensorArrayV3"} <= types and "While" not in types
    _close(got["values"], EXPECTED[name]["values"], name)
    _close(got["grads"], EXPECTED[name]["grads"], name + ".grads")


def test_multi_rnn_cell_op_names_as_tf():
    # TF 2.21 (tools: printed from real TF): a plain RNNCell (MultiRNNCell) re-enters the
    # variable scope of its first call, so static_rnn's ops land under rnn/rnn/...; the
    # built-in LayerRNNCells name theirs rnn/<cell>/...; variables are rnn/... for both.
    with tf.Graph().as_default() as g:
        x = [tf.placeholder(tf.float32, [2, 3]) for _ in range(2)]
        cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.BasicLSTMCell(4) for _ in range(2)])
        tf.nn.static_rnn(cell, x, dtype=tf.float32)
        matmuls = [o.name for o in g.get_operations() if o.type == "MatMul"]
        assert matmuls == ["rnn/rnn/multi_rnn_cell/cell_0/basic_lstm_cell/MatMul",
                           "rnn/rnn/multi_rnn_cell/cell_1/basic_lstm_cell/MatMul",
                           "rnn/rnn/multi_rnn_cell/cell_0/basic_lstm_cell/MatMul_1",
                           "rnn/rnn/multi_rnn_cell/cell_1/basic_lstm_cell/MatMul_1"]
        assert [v.name for v in tf.global_variables()] == [
            "rnn/multi_rnn_cell/cell_0/basic_lstm_cell/kernel:0",
            "rnn/multi_rnn_cell/cell_0/basic_lstm_cell/bias:0",
            "rnn/multi_rnn_cell/cell_1/basic_lstm_cell/kernel:0",
            "rnn/multi_rnn_cell/cell_1/basic_lstm_cell/bias:0"]
    with tf.Graph().as_default() as g:
        x = [tf.placeholder(tf.float32, [2, 3]) for _ in range(2)]
        tf.nn.static_rnn(tf.nn.rnn_cell.BasicLSTMCell(4), x, dtype=tf.float32)
        assert [o.name for o in g.get_operations() if o.type == "MatMul"] == [
            "rnn/basic_lstm_cell/MatMul", "rnn/basic_lstm_cell/MatMul_1"]
