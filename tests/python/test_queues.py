"""Queues, readers, queue runners and the TF1 input pipelines against TensorFlow 2.21
(tests/fixtures/queues_expected.json, written by tools/gen_queues_expected.py from the
programs in queue_programs.py), plus the blocking behaviour: deadlines, session close and
coordinator stops end blocked steps and threads (every wait here is bounded)."""
import json
import os
import threading
import time

import numpy as np
import pytest

import minitf as tf
import queue_programs

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "queues_expected.json")) as f:
    EXPECTED = json.load(f)


@pytest.mark.parametrize("prog", queue_programs.PROGRAMS, ids=lambda p: p.__name__)
def test_program_matches_tensorflow(prog, tmp_path):
    got = prog(tf, str(tmp_path))
    assert json.loads(json.dumps(got, sort_keys=True)) == EXPECTED[prog.__name__]


def _in_thread(fn, timeout=20):
    box = {}

    def run():
        try:
            box["value"] = fn()
        except Exception as e:  # noqa: BLE001
            box["error"] = e
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t, box, timeout


def test_blocked_dequeue_wakes_on_enqueue():
    q = tf.FIFOQueue(3, tf.int32, shapes=[[]])
    x = tf.placeholder(tf.int32, [])
    many = q.dequeue_many(2)
    with tf.Session() as sess:
        t, box, timeout = _in_thread(lambda: sess.run(many))
        time.sleep(0.1)
        assert t.is_alive()
        sess.run(q.enqueue(x), {x: 4})
        sess.run(q.enqueue(x), {x: 5})
        t.join(timeout)
        assert not t.is_alive()
        np.testing.assert_array_equal(box["value"], [4, 5])


def test_enqueue_many_larger_than_capacity_makes_progress():
    q = tf.FIFOQueue(2, tf.int32, shapes=[[]])
    enq = q.enqueue_many([list(range(5))])
    with tf.Session() as sess:
        t, box, timeout = _in_thread(lambda: sess.run(enq))
        got = [sess.run(q.dequeue(), options=tf.RunOptions(timeout_in_ms=10000))
               for _ in range(5)]
        t.join(timeout)
        assert got == [0, 1, 2, 3, 4] and "error" not in box


def test_close_cancels_pending_enqueues():
    q = tf.FIFOQueue(1, tf.int32, shapes=[[]])
    with tf.Session() as sess:
        sess.run(q.enqueue(1))
        enq2 = q.enqueue(2)
        t, box, timeout = _in_thread(lambda: sess.run(enq2))
        time.sleep(0.1)
        sess.run(q.close(cancel_pending_enqueues=True))
        t.join(timeout)
        assert isinstance(box["error"], tf.errors.CancelledError)
        assert "Enqueue operation was cancelled" in str(box["error"])
        assert sess.run(q.dequeue()) == 1


def test_session_close_ends_blocked_dequeue():
    q = tf.FIFOQueue(1, tf.int32, shapes=[[]])
    deq = q.dequeue()
    sess = tf.Session()
    t, box, timeout = _in_thread(lambda: sess.run(deq))
    time.sleep(0.1)
    start = time.time()
    sess.close()
    t.join(timeout)
    assert not t.is_alive() and time.time() - start < 5
    assert isinstance(box["error"], tf.errors.CancelledError)
    assert "Dequeue operation was cancelled" in str(box["error"])


def test_shared_queue_between_nodes_and_mismatch():
    a = tf.FIFOQueue(5, tf.int32, shapes=[[]], shared_name="shared")
    b = tf.FIFOQueue(5, tf.int32, shapes=[[]], shared_name="shared")
    c = tf.FIFOQueue(6, tf.int32, shapes=[[]], shared_name="shared")
    with tf.Session() as sess:
        sess.run(a.enqueue(7))
        assert sess.run(b.dequeue()) == 7
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Shared queue 'shared' has capacity 5 but requested capacity "
                                 "was 6"):
            sess.run(c.size())


@pytest.fixture(autouse=True)
def _own_graph():
    with tf.Graph().as_default():
        yield


def test_coordinator_stop_ends_endless_runners_without_hang():
    q = tf.FIFOQueue(4, tf.float32, shapes=[[]])
    enq = q.enqueue(tf.random_uniform([]))
    tf.train.add_queue_runner(tf.train.QueueRunner(q, [enq] * 3))
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)
        assert len(threads) == 4  # three enqueue threads + the cancel thread
        vals = [sess.run(q.dequeue()) for _ in range(10)]
        assert all(0.0 <= v < 1.0 for v in vals)
        coord.request_stop()
        coord.join(threads, stop_grace_period_secs=10)
        assert not any(t.is_alive() for t in threads)
        assert sess.run(q.is_closed())


def test_runner_error_is_raised_by_join():
    q = tf.FIFOQueue(4, tf.float32, shapes=[[]])
    bad = tf.placeholder(tf.float32, [])
    tf.train.add_queue_runner(tf.train.QueueRunner(q, [q.enqueue(bad)]))
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)
        with pytest.raises(tf.errors.InvalidArgumentError, match="placeholder"):
            coord.join(threads, stop_grace_period_secs=10)


def test_queue_construction_errors_as_tensorflow():
    with pytest.raises(ValueError, match="All shapes must be fully defined"):
        tf.FIFOQueue(3, tf.int32, shapes=[[None]])
    with pytest.raises(ValueError, match="a list of shapes must be provided"):
        tf.PaddingFIFOQueue(3, tf.int32, shapes=None)
    with pytest.raises(ValueError, match="capacity 5 must be bigger than min_after_dequeue 5"):
        tf.train.shuffle_batch([tf.constant(1)], 2, 5, 5)
    with pytest.raises(ValueError, match="num_epochs must be > 0 not 0"):
        tf.train.limit_epochs(tf.constant(1), 0)


def test_session_close_ends_running_queue_runners():
    q = tf.FIFOQueue(4, tf.float32, shapes=[[]])
    tf.train.add_queue_runner(tf.train.QueueRunner(q, [q.enqueue(tf.random_uniform([]))] * 2))
    sess = tf.Session()
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess, coord)
    assert sess.run(q.dequeue_many(3)).shape == (3,)
    sess.close()  # the enqueue threads blocked on the full queue are cancelled
    # the first thread to notice reports either its cancelled enqueue or the closed session
    with pytest.raises((RuntimeError, tf.errors.CancelledError),
                       match="Attempted to use a closed Session.|Enqueue operation was "
                             "cancelled"):
        coord.join(threads, stop_grace_period_secs=10)
    assert not any(t.is_alive() for t in threads)
