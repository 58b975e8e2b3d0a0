"""tf.summary ops (C kernels) against Summary protos written by real
TensorFlow 2.21 (tests/fixtures/summary, tools/gen_summary_fixtures.py), and
FileWriter event files read back by the tensorboard package."""
import os
import time

import numpy as np
import pytest

import minitf as tf
from minitf.summary import writer

DIR = os.path.join(os.path.dirname(__file__), "..", "fixtures", "summary")


def _fixture(name):
    with open(os.path.join(DIR, name + ".pb"), "rb") as f:
        return f.read()


def test_summaries_byte_identical_to_tensorflow():
    with tf.Graph().as_default():
        vals = np.load(os.path.join(DIR, "values.npy"))
        h = tf.summary.histogram("h", tf.constant(vals))
        s = tf.summary.scalar("loss", tf.constant(0.25))
        t = tf.summary.text("note", tf.constant("hello"))
        m = tf.summary.merge([s, h])
        assert tf.get_collection(tf.GraphKeys.SUMMARIES) == [h, s, t]
        with tf.Session() as sess:
            out = sess.run({"histogram": h, "scalar": s, "text": t, "merged": m})
    for k, v in out.items():
        assert v == _fixture(k), k
    histo = tf.summary.Summary.FromString(out["histogram"]).value[0].histo
    assert histo.num == 11 and histo.min == -3.5 and histo.max == 1000.0


def test_scoped_tags_and_merge_all():
    with tf.Graph().as_default():
        with tf.name_scope("train"):
            a = tf.summary.scalar("loss", tf.constant(1.5))
        b = tf.summary.scalar("acc", tf.constant(0.5, tf.float64))
        merged = tf.summary.merge_all()
        with tf.Session() as sess:
            s = tf.summary.Summary.FromString(sess.run(merged))
    assert a.op.name == "train/loss" and b.op.name == "acc"
    assert [(v.tag, v.simple_value) for v in s.value] == [("train/loss", 1.5), ("acc", 0.5)]


def test_summary_errors():
    with tf.Graph().as_default():
        h = tf.summary.histogram("bad", tf.constant([1.0, np.nan]))
        s1 = tf.summary.scalar("x", tf.constant(1.0))
        s2 = tf.summary.scalar("y", tf.constant(2.0))
        dup = tf.summary.merge([s1, s1])
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="Nan in summary histogram for: bad"):
                sess.run(h)
            with pytest.raises(tf.errors.InvalidArgumentError, match="Duplicate tag x"):
                sess.run(dup)
            assert sess.run(s2)
        with pytest.raises(TypeError):
            tf.summary.text("t", tf.constant(1.0))
        assert tf.summary.merge_all(key="nothing") is None


def test_crc32c_and_record_framing():
    assert writer.crc32c(b"123456789") == 0xE3069283  # the standard check value
    rec = writer.tfrecord(b"abc")
    assert len(rec) == 8 + 4 + 3 + 4 and rec[12:15] == b"abc"


def test_event_file_read_by_tensorboard(tmp_path):
    ea_mod = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")
    with tf.Graph().as_default() as g:
        x = tf.compat.v1.placeholder(tf.float32, [], name="x")
        loss = tf.summary.scalar("loss", x * 2.0)
        hist = tf.summary.histogram("w", tf.constant([1.0, 2.0, 3.0]))
        with tf.compat.v1.summary.FileWriter(str(tmp_path), g) as w:
            with tf.Session() as sess:
                for step in range(5):
                    w.add_summary(sess.run(loss, {x: float(step)}), step)
                w.add_summary(sess.run(hist), 5)
                md = tf.RunMetadata()
                w.add_run_metadata(md, "step5", 5)
    files = os.listdir(tmp_path)
    assert len(files) == 1 and files[0].startswith("events.out.tfevents.")
    acc = ea_mod.EventAccumulator(str(tmp_path), size_guidance={"scalars": 0})
    acc.Reload()
    assert [(e.step, e.value) for e in acc.Scalars("loss")] == [(s, 2.0 * s) for s in range(5)]
    gd = acc.Graph()
    assert {n.name for n in gd.node} >= {"x", "loss", "w"}
    assert acc.Histograms("w")[0].histogram_value.num == 3
    assert "step5" in acc.Tags()["run_metadata"]


def test_unwritable_logdir_raises_oserror_with_path(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    bad = str(blocker / "logs")
    with pytest.raises(OSError, match="Cannot write TensorBoard events to .*file/logs"):
        tf.summary.FileWriter(bad)


def _events(path):
    from minitf.core.util import event_pb2
    import struct
    data = open(path, "rb").read()
    out, pos = [], 0
    while pos < len(data):
        (n,) = struct.unpack("<Q", data[pos:pos + 8])
        out.append(event_pb2.Event.FromString(data[pos + 12:pos + 12 + n]))
        pos += 12 + n + 4
    return out


def test_file_writer_with_graph_writes_graph_and_meta_graph(tmp_path):
    # TF 2.21's FileWriter(logdir, graph): events file_version, graph_def, meta_graph_def
    # (stripped op list, version fields, the graph's collections; no saver).
    from minitf.core.protobuf import meta_graph_pb2
    with tf.Graph().as_default() as g:
        tf.Variable(1.0, name="v")
        tf.compat.v1.placeholder(tf.float32, [], name="x")
        tf.summary.FileWriter(str(tmp_path), g).close()
    (name,) = os.listdir(tmp_path)
    events = _events(os.path.join(tmp_path, name))
    assert [e.WhichOneof("what") for e in events] == ["file_version", "graph_def",
                                                      "meta_graph_def"]
    mg = meta_graph_pb2.MetaGraphDef.FromString(events[2].meta_graph_def)
    assert [o.name for o in mg.meta_info_def.stripped_op_list.op] == [
        "AssignVariableOp", "Const", "Placeholder", "ReadVariableOp", "VarHandleOp",
        "VarIsInitializedOp"]
    assert sorted(mg.collection_def) == ["trainable_variables", "variables"]
    assert len(mg.graph_def.node) == 6 and not mg.HasField("saver_def")


def test_reopen_starts_a_new_event_file(tmp_path):
    w = tf.summary.FileWriter(str(tmp_path / "a"), filename_suffix=".one")
    w.close()
    with pytest.raises(RuntimeError):
        w.add_session_log(_session_log_start())
    time.sleep(1.1)  # file names carry the time in seconds
    w.reopen()
    w.add_session_log(_session_log_start(), 7)
    w.close()
    names = sorted(os.listdir(tmp_path / "a"))
    assert len(names) == 2 and all(n.endswith(".one") for n in names)
    events = _events(os.path.join(tmp_path, "a", names[1]))
    assert [(e.WhichOneof("what"), e.step) for e in events] == [("file_version", 0),
                                                                ("session_log", 7)]


def _session_log_start():
    from minitf.core.util.event_pb2 import SessionLog
    return SessionLog(status=SessionLog.START)
