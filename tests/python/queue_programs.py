"""Queue and reader programs run both by real TensorFlow (tools/gen_queues_expected.py writes
tests/fixtures/queues_expected.json) and by minitf (tests/python/test_queues.py compares).
Each program takes the `tf` module (tf.compat.v1 in graph mode) and a scratch directory and
returns JSON-able results; file paths are written as "<dir>" and the process-wide resource
numbers in queue names ("_3_fifo_queue") as "_N_", so results do not depend on where or
after what they ran."""
import json
import os
import re

import numpy as np

T = 10000  # ms: every blocking run has a deadline, so a bug fails instead of hanging


def _opts(tf):
    return tf.RunOptions(timeout_in_ms=T)


def _val(x):
    if isinstance(x, dict):
        return {k: _val(v) for k, v in sorted(x.items())}
    if isinstance(x, (list, tuple)):
        return [_val(v) for v in x]
    a = np.asarray(x)
    if a.dtype == object or a.dtype.kind == "S":
        return {"dtype": "string", "value": np.vectorize(
            lambda b: b.decode("latin-1"), otypes=[object])(a).tolist() if a.size else []}
    return {"dtype": str(a.dtype), "shape": list(a.shape), "value": a.tolist()}


def _clean(msg, d):
    msg = msg.split("\n")[0] if "Graph execution error" not in msg else msg
    lines = [ln for ln in msg.split("\n") if ln and not ln.startswith(("Detected at", "Graph ex",
                                                                          "Node:", "Original",
                                                                          "  File", "    File",
                                                                          "\t [[", "[["))]
    msg = lines[0] if lines else ""
    msg = re.sub(r"'_\d+_", "'_N_", msg)
    return msg.replace(d, "<dir>")


def _err(tf, sess, fetch, d, timeout_ms=T, **kw):
    try:
        sess.run(fetch, options=tf.RunOptions(timeout_in_ms=timeout_ms), **kw)
        return None
    except tf.errors.OpError as e:
        return [type(e).__name__, _clean(e.message, d)]


def _run(tf, sess, fetch, d="<dir>", **kw):
    out = _val(sess.run(fetch, options=_opts(tf), **kw))
    return json.loads(json.dumps(out).replace(json.dumps(d)[1:-1], "<dir>"))


def fifo(tf, d):
    out = {}
    with tf.Graph().as_default():
        q = tf.FIFOQueue(10, [tf.int32, tf.string], shapes=[[2], []], name="q")
        enq = q.enqueue_many(([[1, 2], [3, 4], [5, 6], [7, 8]], [b"a", b"b", b"c", b"d"]))
        enq1 = q.enqueue(([9, 10], b"e"))
        deq = q.dequeue()
        many = q.dequeue_many(2)
        up_to = q.dequeue_up_to(3)
        out["names"] = [enq.name, enq1.name, deq[0].name, many[0].name, up_to[0].name,
                        q.close().name, q.size().name, q.is_closed().name, q.name]
        out["shapes"] = [str(many[0].shape), str(up_to[0].shape), str(deq[1].shape)]
        close = q.close()
        with tf.Session() as sess:
            sess.run(enq)
            sess.run(enq1)
            out["size"] = _run(tf, sess, q.size())
            out["deq"] = _run(tf, sess, deq)
            out["many"] = _run(tf, sess, many)
            sess.run(close)
            out["closed"] = _run(tf, sess, q.is_closed())
            out["up_to"] = _run(tf, sess, up_to)
            out["err_deq"] = _err(tf, sess, deq, d)
            out["err_many"] = _err(tf, sess, many, d)
            out["err_enq"] = _err(tf, sess, enq1, d)
            out["err_close_again"] = _err(tf, sess, close, d)
        bad = tf.FIFOQueue(5, tf.float32, name="bad")
        with tf.Session() as sess:
            out["err_unspecified_many"] = _err(tf, sess, bad.dequeue_many(1), d)
            out["err_timeout"] = _err(tf, sess, bad.dequeue(), d, timeout_ms=200)
            p = tf.placeholder(tf.int32)
            q2 = tf.FIFOQueue(5, tf.int32, shapes=[[2]], name="q2")
            out["err_shape"] = _err(tf, sess, q2.enqueue(tf.reshape(p, [-1])), d,
                                    feed_dict={p: [1, 2, 3]})
    return out


def shuffle(tf, d):
    out = {}
    with tf.Graph().as_default():
        tf.set_random_seed(42)
        q = tf.RandomShuffleQueue(30, 3, tf.int64, shapes=[[]], seed=7, name="rsq")
        enq = q.enqueue_many([np.arange(20, dtype=np.int64)])
        deq = q.dequeue()
        many = q.dequeue_many(4)
        up_to = q.dequeue_up_to(30)
        with tf.Session() as sess:
            sess.run(enq)
            out["singles"] = [_run(tf, sess, deq) for _ in range(5)]
            out["many"] = _run(tf, sess, many)
            # 11 - 9 < 3 stay: it waits, takes 8 and loses them when the deadline passes
            out["err_wait"] = _err(tf, sess, q.dequeue_many(9), d, timeout_ms=200)
            out["size_after_timeout"] = _run(tf, sess, q.size())
            sess.run(q.close())
            out["rest"] = _run(tf, sess, up_to)
            out["err_empty"] = _err(tf, sess, deq, d)
        q2 = tf.RandomShuffleQueue(10, 0, [tf.int32, tf.string], seed=1, name="rsq2")
        with tf.Session() as sess:
            sess.run(q2.enqueue_many(([1, 2, 3, 4, 5], [b"a", b"b", b"c", b"d", b"e"])))
            out["pairs"] = [_run(tf, sess, q2.dequeue()) for _ in range(5)]
    return out


def padding(tf, d):
    out = {}
    with tf.Graph().as_default():
        q = tf.PaddingFIFOQueue(10, [tf.int32, tf.string], shapes=[[None], [None, 2]],
                                name="pq")
        v = tf.placeholder(tf.int32, [None])
        s = tf.placeholder(tf.string, [None, 2])
        enq = q.enqueue((v, s))
        many = q.dequeue_many(3)
        with tf.Session() as sess:
            for n in (1, 3, 2, 4):
                sess.run(enq, {v: list(range(1, n + 1)),
                               s: [[b"x%d" % i, b"y"] for i in range(n % 3 + 1)]})
            out["many"] = _run(tf, sess, many)
            out["one"] = _run(tf, sess, q.dequeue())
            out["shape"] = str(many[0].shape)
            out["err_shape"] = _err(tf, sess, enq, d, feed_dict={v: [1], s: [[b"a", b"b"]]})
    return out


def priority(tf, d):
    out = {}
    with tf.Graph().as_default():
        q = tf.PriorityQueue(20, [tf.string], shapes=[[]], name="prq")
        enq = q.enqueue_many(([5, 1, 3, 1, 5, 2, 1, 3, 0, 5],
                              [b"a", b"b", b"c", b"d", b"e", b"f", b"g", b"h", b"i", b"j"]))
        with tf.Session() as sess:
            sess.run(enq)
            sess.run(q.enqueue((1, b"k")))
            out["first"] = _run(tf, sess, q.dequeue())
            out["many"] = _run(tf, sess, q.dequeue_many(6))
            sess.run(q.enqueue_many(([4, 4, 0], [b"l", b"m", b"n"])))
            sess.run(q.close())
            out["err_many_short"] = _err(tf, sess, q.dequeue_many(9), d)
            out["size_after_many_short"] = _run(tf, sess, q.size())
            out["rest"] = _run(tf, sess, q.dequeue_many(7))
            out["err_empty"] = _err(tf, sess, q.dequeue_up_to(2), d)
        q2 = tf.PriorityQueue(20, [tf.string], shapes=[[]], name="prq2")
        with tf.Session() as sess:
            sess.run(q2.enqueue_many(([5, 1, 3], [b"a", b"b", b"c"])))
            out["err_wait"] = _err(tf, sess, q2.dequeue_many(5), d, timeout_ms=200)
            out["size_after_wait"] = _run(tf, sess, q2.size())
            sess.run(q2.close())
            # TensorFlow 2.21 fails a short dequeue_up_to of a closed PriorityQueue and
            # drops what it took
            out["err_up_to_short"] = _err(tf, sess, q2.dequeue_up_to(10), d)
            out["size_after_up_to_short"] = _run(tf, sess, q2.size())
    return out


def _write_files(d):
    files = []
    for i in range(3):
        path = os.path.join(d, "part-%d.csv" % i)
        with open(path, "wb") as f:
            f.write(b"header,%d\n" % i)
            for j in range(4 + i):
                f.write(b"%d,%d\r\n" % (i, j) if j == 1 else b"%d,%d\n" % (i, j))
            if i == 2:
                f.write(b"2,last")  # no final newline
        files.append(path)
    binary = os.path.join(d, "records.bin")
    with open(binary, "wb") as f:
        f.write(b"HDR" + bytes(range(20)) + b"FT")
    import gzip
    import zlib
    with open(binary + ".gz", "wb") as f:
        f.write(gzip.compress(b"H" + bytes(range(40, 52)) + b"F", mtime=0))
    with open(binary + ".z", "wb") as f:
        f.write(zlib.compress(b"H" + bytes(range(60, 70)) + b"F"))
    return files, binary


def readers(tf, d):
    files, binary = _write_files(d)
    out = {}
    with tf.Graph().as_default():
        fq = tf.FIFOQueue(10, tf.string, shapes=[[]], name="files")
        with tf.Session() as sess:
            sess.run(fq.enqueue_many([files[:2] + [os.path.join(d, "missing.csv"), files[2]]]))
            sess.run(fq.close())
            r = tf.TextLineReader(skip_header_lines=1)
            key, value = r.read(fq)
            recs = []
            for _ in range(9):
                recs.append(_run(tf, sess, [key, value], d))
            out["err_missing"] = _err(tf, sess, key, d)
            keys, values = r.read_up_to(fq, 4)
            out["up_to"] = _run(tf, sess, [keys, values], d)
            out["up_to_rest"] = _run(tf, sess, [keys, values], d)
            out["err_end"] = _err(tf, sess, key, d)
            out["lines"] = recs
            out["produced"] = _run(tf, sess, r.num_records_produced(), d)
            out["units"] = _run(tf, sess, r.num_work_units_completed(), d)
            out["names"] = [key.name, keys.name, r.reader_ref.name]
            sess.run(r.reset())
            out["produced_after_reset"] = _run(tf, sess, r.num_records_produced(), d)
        fq2 = tf.FIFOQueue(10, tf.string, shapes=[[]], name="files2")
        with tf.Session() as sess:
            sess.run(fq2.enqueue_many([[files[0], binary, binary, b"token"]]))
            sess.run(fq2.close())
            w = tf.WholeFileReader()
            out["whole"] = _run(tf, sess, w.read(fq2), d)
            fl = tf.FixedLengthRecordReader(record_bytes=6, header_bytes=3, footer_bytes=2,
                                            hop_bytes=4)
            out["fixed"] = [_run(tf, sess, fl.read(fq2), d) for _ in range(4)]
            fl2 = tf.FixedLengthRecordReader(record_bytes=7, header_bytes=3, footer_bytes=2)
            out["fixed_nohop"] = _run(tf, sess, fl2.read_up_to(fq2, 5), d)
            ident = tf.IdentityReader()
            out["identity"] = _run(tf, sess, ident.read(fq2), d)
            state = sess.run(ident.serialize_state())
            out["identity_state"] = _val(state)
            out["err_identity_end"] = _err(tf, sess, ident.read(fq2), d)
            sess.run(ident.restore_state(state))
            out["identity_restored"] = _run(tf, sess, [ident.num_records_produced(),
                                                       ident.num_work_units_completed()])
            out["err_restore"] = _err(tf, sess, ident.restore_state(b"\x01junk"), d)
            out["err_text_state"] = _err(tf, sess, r.serialize_state(), d)
            out["err_fixed_restore"] = _err(tf, sess, fl.restore_state(state), d)
            out["err_whole_state"] = _err(tf, sess, w.serialize_state(), d)
        fq3 = tf.FIFOQueue(10, tf.string, shapes=[[]], name="files3")
        with tf.Session() as sess:
            sess.run(fq3.enqueue_many([[binary + ".gz", binary + ".z", binary]]))
            sess.run(fq3.close())
            gz = tf.FixedLengthRecordReader(record_bytes=4, header_bytes=1, footer_bytes=1,
                                            encoding="GZIP")
            out["gzip"] = _run(tf, sess, gz.read_up_to(fq3, 10), d)
            zl = tf.FixedLengthRecordReader(record_bytes=5, header_bytes=1, footer_bytes=1,
                                            encoding="ZLIB")
            out["zlib"] = _run(tf, sess, zl.read_up_to(fq3, 10), d)
            out["err_zlib_plain"] = _err(tf, sess, zl.read(fq3), d)
    return out


def tutorial(tf, d):
    """The TF1 tutorial input pipeline: file names through string_input_producer (shuffled,
    two epochs), lines through a TextLineReader, batches from shuffle_batch (one reader
    thread; min_after_dequeue above the record count, so the draws start once the queue is
    closed and the order is TensorFlow's, not the threads')."""
    files, _ = _write_files(d)
    out = {}
    with tf.Graph().as_default():
        tf.set_random_seed(1234)
        filename_queue = tf.train.string_input_producer(files, num_epochs=2, shuffle=True,
                                                        seed=3)
        reader = tf.TextLineReader(skip_header_lines=1)
        key, value = reader.read(filename_queue)
        keys, values = tf.train.shuffle_batch([key, value], batch_size=4, capacity=100,
                                              min_after_dequeue=60, seed=11,
                                              allow_smaller_final_batch=True)
        out["names"] = [filename_queue.name, keys.name, values.name,
                        sorted(op.name for op in tf.get_default_graph().get_operations()
                               if op.type in ("RandomShuffleQueueV2", "FIFOQueueV2",
                                              "QueueEnqueueManyV2", "QueueEnqueueV2",
                                              "ScalarSummary", "CountUpTo",
                                              "RandomShuffle"))]
        out["runners"] = [qr.name for qr in tf.get_collection(
            tf.GraphKeys.QUEUE_RUNNERS)]
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess=sess, coord=coord)
            batches = []
            try:
                while not coord.should_stop():
                    batches.append(_run(tf, sess, [keys, values], d))
            except tf.errors.OutOfRangeError as e:
                out["end"] = [type(e).__name__, _clean(e.message, d)]
            finally:
                coord.request_stop()
            coord.join(threads, stop_grace_period_secs=10)
            out["batches"] = batches
            out["produced"] = _run(tf, sess, reader.num_records_produced(), d)
    return out


def batching(tf, d):
    """tf.train.batch / batch_join / slice_input_producer / range_input_producer without
    shuffling, read through a MonitoredTrainingSession that starts the queue runners."""
    out = {}
    with tf.Graph().as_default():
        images = np.arange(24, dtype=np.float32).reshape(6, 4)
        labels = np.arange(6, dtype=np.int64) * 10
        image, label = tf.train.slice_input_producer([images, labels], num_epochs=1,
                                                     shuffle=False)
        x, y = tf.train.batch([image, label], batch_size=4, allow_smaller_final_batch=True)
        idx = tf.train.range_input_producer(5, num_epochs=1, shuffle=False).dequeue()
        joined = tf.train.batch_join([[idx], [idx * 100]], batch_size=2,
                                     allow_smaller_final_batch=True)
        out["names"] = [x.name, y.name, joined.name, str(x.shape), str(joined.shape)]
        got = []
        with tf.train.MonitoredTrainingSession() as sess:
            while not sess.should_stop():
                got.append(_val(sess.run([x, y])))
        out["batches"] = got
    return out


PROGRAMS = [fifo, shuffle, padding, priority, readers, tutorial, batching]
