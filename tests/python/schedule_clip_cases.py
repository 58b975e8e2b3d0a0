"""The tf.compat.v1.train learning-rate schedules and the norm-clipping functions on fixed
inputs, written against the TF1 API so the same code runs on TensorFlow 2.21 and on minitf:
each case returns its values (at several global steps for the schedules) and the names of the
tensors it returns. tools/gen_schedule_clip_expected.py records TensorFlow's
(tests/fixtures/schedule_clip_expected.json); tests/python/test_schedules_clipping.py replays
them."""
import numpy as np

STEPS = [0, 1, 3, 5, 10, 25, 99, 100, 101, 1000]

SCHEDULES = {
    "exponential": lambda tf, s: tf.train.exponential_decay(0.1, s, 10, 0.5),
    "exponential_staircase": lambda tf, s: tf.train.exponential_decay(0.1, s, 10, 0.5,
                                                                      staircase=True),
    "natural_exp": lambda tf, s: tf.train.natural_exp_decay(0.1, s, 10, 0.3),
    "inverse_time": lambda tf, s: tf.train.inverse_time_decay(0.1, s, 10, 0.5, staircase=True,
                                                              name="itd"),
    "polynomial": lambda tf, s: tf.train.polynomial_decay(0.1, s, 100, 0.001, power=2.0),
    "polynomial_cycle": lambda tf, s: tf.train.polynomial_decay(0.1, s, 30, 0.001, cycle=True),
    "cosine": lambda tf, s: tf.train.cosine_decay(0.1, s, 100, alpha=0.1),
    "cosine_restarts": lambda tf, s: tf.train.cosine_decay_restarts(0.1, s, 10, t_mul=2.0,
                                                                    m_mul=0.5, alpha=0.01),
    "cosine_restarts_linear": lambda tf, s: tf.train.cosine_decay_restarts(0.1, s, 10,
                                                                           t_mul=1.0),
    "linear_cosine": lambda tf, s: tf.train.linear_cosine_decay(0.1, s, 100, num_periods=2.0,
                                                                alpha=0.1, beta=0.01),
    "noiseless_linear_cosine": lambda tf, s: tf.train.noisy_linear_cosine_decay(
        0.1, s, 100, initial_variance=0.0, num_periods=2.0, alpha=0.1, beta=0.01),
    "piecewise": lambda tf, s: tf.train.piecewise_constant(s, [5, 25, 100],
                                                           [1.0, 0.5, 0.1, 0.01]),
}

T1 = np.array([[3.0, 4.0], [-1.0, 2.0]], np.float32)
T2 = np.array([0.5, -12.0, 1.0], np.float32)


def run_schedules(tf):
    out = {}
    for name, make in SCHEDULES.items():
        g = tf.Graph()
        with g.as_default():
            step = tf.placeholder(tf.int64, [], name="global_step")
            lr = make(tf, step)
            with tf.Session() as sess:
                out[name] = {"name": lr.name,
                             "values": [float(sess.run(lr, {step: s})) for s in STEPS]}
    return out


def run_clipping(tf):
    g = tf.Graph()
    out = {}
    with g.as_default():
        t1, t2 = tf.constant(T1), tf.constant(T2)
        slices = tf.IndexedSlices(tf.constant(T1), tf.constant([0, 3]), tf.constant([4, 2]))
        results = {
            "clip_by_norm": tf.clip_by_norm(t1, 2.0),
            "clip_by_norm_axes": tf.clip_by_norm(t1, 2.0, axes=[1]),
            "clip_by_norm_unchanged": tf.clip_by_norm(t2, 100.0),
            "clip_by_norm_slices": tf.clip_by_norm(slices, 1.0).values,
            "global_norm": tf.global_norm([t1, None, t2]),
            "clip_by_average_norm": tf.clip_by_average_norm(t1, 0.5),
        }
        clipped, norm = tf.clip_by_global_norm([t1, None, t2, slices], 5.0)
        results.update({"clip_by_global_norm_0": clipped[0], "clip_by_global_norm_2": clipped[2],
                        "clip_by_global_norm_3": clipped[3].values,
                        "clip_by_global_norm_norm": norm})
        kept, _ = tf.clip_by_global_norm([t1], 100.0, name="keep")
        results["clip_by_global_norm_kept"] = kept[0]
        assert clipped[1] is None
        with tf.Session() as sess:
            values = sess.run(results)
        for k, t in results.items():
            out[k] = {"name": t.name, "value": np.asarray(values[k]).tolist()}
    return out
