"""RNN programs (tf.nn.rnn_cell cells, dynamic_rnn, static_rnn, the bidirectional forms)
written against the TF1 API, so the same code runs on TensorFlow 2.21 (tf.compat.v1 graph
mode with tf-keras's legacy cells, TF_USE_LEGACY_KERAS=1) and on minitf. Every variable gets
a fixed value (fixed_value, by its position in name order) after initialization, so the
outputs compare. run_case records the variables' names and shapes, the fetched outputs and
final states, the outer graph's op names (minus the initializers, whose ops differ: TF's
come from Keras), and, for GRAD_CASES, tf.gradients of a loss with respect to every
variable and the inputs. tools/gen_rnn_expected.py writes TensorFlow's to
tests/fixtures/rnn_expected.json; tests/python/test_rnn.py replays them on minitf."""
import numpy as np

from state_cases import error_of, val


def fixed_value(shape, k):
    """A deterministic array for the k-th variable (values in [-0.6, 0.6])."""
    n = int(np.prod(shape)) if shape else 1
    return (0.6 * np.sin(np.arange(n, dtype=np.float64) * 0.731 + 1.3 * k + 0.2)) \
        .reshape(shape).astype(np.float32)


def _inputs(shape, k=0):
    return fixed_value(shape, 100 + k)


def _lstm2_dynamic(tf):
    x = tf.placeholder(tf.float32, [2, 4, 3], name="x")
    cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.LSTMCell(5), tf.nn.rnn_cell.LSTMCell(4)])
    out, st = tf.nn.dynamic_rnn(cell, x, sequence_length=[4, 2], dtype=tf.float32)
    fetch = [out, st[0].c, st[0].h, st[1].c, st[1].h]
    return fetch, {"x:0": _inputs([2, 4, 3])}, [x]


def _gru_bidirectional(tf):
    x = tf.placeholder(tf.float32, [3, 2, 4], name="x")
    (fw, bw), (sfw, sbw) = tf.nn.bidirectional_dynamic_rnn(
        tf.nn.rnn_cell.GRUCell(3), tf.nn.rnn_cell.GRUCell(2), x, dtype=tf.float32)
    return [fw, bw, sfw, sbw], {"x:0": _inputs([3, 2, 4])}, [x]


def _static_basic_lstm(tf):
    xs = [tf.placeholder(tf.float32, [2, 3], name="x%d" % i) for i in range(3)]
    cell = tf.nn.rnn_cell.BasicLSTMCell(4)
    outs, st = tf.nn.static_rnn(cell, xs, dtype=tf.float32)
    return outs + [st.c, st.h], {"x%d:0" % i: _inputs([2, 3], i) for i in range(3)}, xs


def _static_rnn_sequence_length(tf):
    xs = [tf.placeholder(tf.float32, [3, 2], name="x%d" % i) for i in range(3)]
    cell = tf.nn.rnn_cell.BasicRNNCell(3)
    outs, st = tf.nn.static_rnn(cell, xs, dtype=tf.float32, sequence_length=[3, 1, 2],
                                scope="srnn")
    return outs + [st], {"x%d:0" % i: _inputs([3, 2], i) for i in range(3)}, xs


def _basic_rnn_time_major(tf):
    x = tf.placeholder(tf.float32, [4, 2, 3], name="x")
    h0 = tf.constant(_inputs([2, 5], 7), name="h0")
    cell = tf.nn.rnn_cell.BasicRNNCell(5, activation=tf.nn.relu)
    out, st = tf.nn.dynamic_rnn(cell, x, initial_state=h0, time_major=True, scope="tm",
                                swap_memory=True, parallel_iterations=4)
    return [out, st], {"x:0": _inputs([4, 2, 3])}, [x]


def _lstm_peephole_projection(tf):
    x = tf.placeholder(tf.float32, [2, 3, 2], name="x")
    cell = tf.nn.rnn_cell.LSTMCell(4, use_peepholes=True, num_proj=3, cell_clip=0.5,
                                   proj_clip=0.3)
    out, st = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32, sequence_length=[1, 3])
    return [out, st.c, st.h], {"x:0": 3.0 * _inputs([2, 3, 2])}, [x]


def _wrappers(tf):
    x = tf.placeholder(tf.float32, [2, 3, 3], name="x")
    cell = tf.nn.rnn_cell.ResidualWrapper(tf.nn.rnn_cell.DropoutWrapper(
        tf.nn.rnn_cell.GRUCell(3), input_keep_prob=1.0, output_keep_prob=1.0))
    out, st = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
    return [out, st], {"x:0": _inputs([2, 3, 3])}, [x]


def _dropout_seeded(tf):
    # TF's masks: each dropout's seed is md5(seed + "<input|state|output>_<index>") (the
    # wrapper's _gen_seed) beside the graph seed; an LSTM's c state is never dropped.
    # static_rnn: inside a loop TF's draws follow the iterations' (parallel) run order, which
    # differs between TF's own runs; unrolled, every dropout is its own op and deterministic
    tf.set_random_seed(7)
    x = tf.placeholder(tf.float32, [3, 4, 3], name="x")
    xs = tf.unstack(x, axis=1)
    lstm = tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.LSTMCell(4), input_keep_prob=0.7,
                                         output_keep_prob=0.8, state_keep_prob=0.6, seed=5)
    outs, st = tf.nn.static_rnn(lstm, xs, dtype=tf.float32, scope="lstm_rnn")
    gru = tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.GRUCell(3), state_keep_prob=0.5, seed=11)
    gouts, gst = tf.nn.static_rnn(gru, outs, dtype=tf.float32, scope="gru_rnn")
    plain = tf.nn.dropout(x, rate=0.4, seed=3)
    return [tf.stack(gouts, 1), st.c, st.h, gst, plain], {"x:0": _inputs([3, 4, 3])}, [x]


def _dropout_variational(tf):
    # variational_recurrent: one noise per sequence, drawn once (same mask every step)
    tf.set_random_seed(2)
    x = tf.placeholder(tf.float32, [2, 5, 3], name="x")
    cell = tf.nn.rnn_cell.DropoutWrapper(
        tf.nn.rnn_cell.BasicRNNCell(4), input_keep_prob=0.6, output_keep_prob=0.7,
        state_keep_prob=0.8, variational_recurrent=True, input_size=3, dtype=tf.float32, seed=9)
    out, st = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
    return [out, st], {"x:0": _inputs([2, 5, 3])}, [x]


def _lstm_state_not_tuple(tf):
    x = tf.placeholder(tf.float32, [2, 3, 2], name="x")
    cells = [tf.nn.rnn_cell.BasicLSTMCell(2, state_is_tuple=False, forget_bias=0.5),
             tf.nn.rnn_cell.BasicRNNCell(3)]
    out, st = tf.nn.dynamic_rnn(tf.nn.rnn_cell.MultiRNNCell(cells, state_is_tuple=False), x,
                                dtype=tf.float32)
    return [out, st], {"x:0": _inputs([2, 3, 2])}, [x]


def _static_bidirectional(tf):
    xs = [tf.placeholder(tf.float32, [2, 2], name="x%d" % i) for i in range(3)]
    outs, sfw, sbw = tf.nn.static_bidirectional_rnn(
        tf.nn.rnn_cell.GRUCell(2), tf.nn.rnn_cell.BasicRNNCell(3), xs, dtype=tf.float32)
    return outs + [sfw, sbw], {"x%d:0" % i: _inputs([2, 2], i) for i in range(3)}, xs


def _gru_bidirectional_lengths(tf):
    x = tf.placeholder(tf.float32, [3, 4, 2], name="x")
    (fw, bw), (sfw, sbw) = tf.nn.bidirectional_dynamic_rnn(
        tf.nn.rnn_cell.GRUCell(2), tf.nn.rnn_cell.GRUCell(3), x, sequence_length=[4, 1, 2],
        dtype=tf.float32, scope="birnn")
    return [fw, bw, sfw, sbw], {"x:0": _inputs([3, 4, 2])}, [x]


def _static_bidirectional_lengths(tf):
    xs = [tf.placeholder(tf.float32, [2, 2], name="x%d" % i) for i in range(3)]
    outs, sfw, sbw = tf.nn.static_bidirectional_rnn(
        tf.nn.rnn_cell.BasicRNNCell(2), tf.nn.rnn_cell.BasicRNNCell(2), xs, dtype=tf.float32,
        sequence_length=tf.constant([3, 2], tf.int64))
    return outs + [sfw, sbw], {"x%d:0" % i: _inputs([2, 2], i) for i in range(3)}, xs


def _reverse_sequence(tf):
    x = tf.placeholder(tf.float32, [2, 4, 3], name="x")
    r = tf.reverse_sequence(x, [3, 1], seq_axis=1, batch_axis=0)
    t = tf.reverse_sequence(tf.transpose(x, [1, 0, 2]), tf.constant([4, 2], tf.int64),
                            seq_dim=0, batch_dim=1, name="rs_t")
    return [r, t], {"x:0": _inputs([2, 4, 3])}, [x]


def _compat_v1_cells(tf):
    cell = tf.compat.v1.nn.rnn_cell.LSTMCell(3, num_proj=2)
    st = cell.zero_state(4, tf.float32)
    return [st.c, st.h], {}, []


CASES = {
    "lstm2_dynamic": _lstm2_dynamic, "gru_bidirectional": _gru_bidirectional,
    "static_basic_lstm": _static_basic_lstm,
    "static_rnn_sequence_length": _static_rnn_sequence_length,
    "basic_rnn_time_major": _basic_rnn_time_major,
    "lstm_peephole_projection": _lstm_peephole_projection, "wrappers": _wrappers,
    "dropout_seeded": _dropout_seeded, "dropout_variational": _dropout_variational,
    "lstm_state_not_tuple": _lstm_state_not_tuple,
    "static_bidirectional": _static_bidirectional, "compat_v1_cells": _compat_v1_cells,
    "gru_bidirectional_lengths": _gru_bidirectional_lengths,
    "static_bidirectional_lengths": _static_bidirectional_lengths,
    "reverse_sequence": _reverse_sequence,
}
GRAD_CASES = ("lstm2_dynamic", "gru_bidirectional", "static_basic_lstm",
              "gru_bidirectional_lengths", "reverse_sequence")


def _flat(xs):
    out = []
    for x in xs:
        out.extend(_flat(x) if isinstance(x, (list, tuple)) else [x])
    return out


def run_case(tf, name, grads=False):
    g = tf.Graph()
    with g.as_default():
        fetches, feed, inputs = CASES[name](tf)
        fetches = _flat(fetches)
        ops = [[op.name, op.type] for op in g.get_operations() if "/Initializer/" not in op.name]
        variables = sorted(tf.global_variables(), key=lambda v: v.name)
        result = {"variables": [[v.name, v.shape.as_list()] for v in variables],
                  "trainable": sorted(v.name for v in tf.trainable_variables()),
                  "ops": ops, "shapes": [str(t.shape) for t in fetches]}
        grad_ts = []
        if grads:
            loss = tf.add_n([tf.reduce_sum(t * t) for t in fetches])
            grad_ts = tf.gradients(loss, [v for v in variables] + inputs)
        assigns = [tf.assign(v, fixed_value(v.shape.as_list(), k))
                   for k, v in enumerate(variables)]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(assigns)
            result["values"] = [val(v) for v in sess.run(fetches, feed)]
            if grads:
                result["grads"] = [val(v) for v in sess.run(grad_ts, feed)]
    return result


def _reverse_sequence_errors(tf):
    """[class, message] of ReverseSequence's construction and run-time errors."""
    out = []
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2, 3], name="x")
        n = tf.placeholder(tf.int32, [None], name="n")
        out.append(error_of(lambda: tf.reverse_sequence(x, [1, 1], seq_axis=2)))
        out.append(error_of(lambda: tf.reverse_sequence(x, [1, 1, 1], seq_axis=1)))
        r = tf.reverse_sequence(x, n, seq_axis=1, name="rs")
        with tf.Session() as sess:
            for lens in ([1, 4], [1, -1], [1, 2, 3]):
                out.append(error_of(lambda: sess.run(r, {x: np.ones([2, 3]), n: lens})))
    return out


ERRORS = {"reverse_sequence": _reverse_sequence_errors}
