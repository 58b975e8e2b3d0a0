"""tf.train.checkpoints_iterator: yields each new checkpoint of a directory, ends on a timeout
(or when timeout_fn says so), as TensorFlow's (worked by hand: the prefixes a Saver wrote)."""
import os
import threading
import time

import minitf as tf


def _saver_in(graph):
    with graph.as_default():
        v = tf.Variable(1.0, name="v")
        return v, tf.train.Saver()


def test_empty_directory_times_out_without_yielding(tmp_path):
    start = time.time()
    assert list(tf.train.checkpoints_iterator(str(tmp_path), timeout=0.5)) == []
    assert time.time() - start < 5


def test_yields_each_new_checkpoint_then_stops_on_timeout_fn(tmp_path):
    graph = tf.Graph()
    v, saver = _saver_in(graph)
    prefix = os.path.join(str(tmp_path), "model")
    sess = tf.Session(graph=graph)
    sess.run(v.initializer)
    first = saver.save(sess, prefix, global_step=1)
    timeouts = []

    def timeout_fn():
        timeouts.append(time.time())
        return len(timeouts) >= 2

    def save_later():
        time.sleep(0.5)
        saver.save(sess, prefix, global_step=2)

    got = []
    writer = None
    for path in tf.train.checkpoints_iterator(str(tmp_path), timeout=2.5,
                                              timeout_fn=timeout_fn):
        got.append(path)
        if writer is None:
            writer = threading.Thread(target=save_later)
            writer.start()
    writer.join()
    sess.close()
    assert got == [first, prefix + "-2"]
    # timeout_fn runs after every wait, found or not: after step 1 (False, keep waiting),
    # then after step 2 (True: done).
    assert len(timeouts) == 2
