"""Corrupted checkpoints through tf.train.Saver.restore: a bit flipped in turn in every byte
of the `.data` file and of every block of the `.index` of a TensorFlow-written checkpoint
(tests/fixtures/checkpoints/basic) is a DataLossError naming the corrupt file, and the
variables keep the values they had (the restore ops assign nothing when RestoreV2 fails);
truncated files are DataLossErrors too."""
import json
import os
import shutil

import numpy as np
import pytest

import minitf as tf
from minitf import errors

HERE = os.path.dirname(os.path.abspath(__file__))
CK = os.path.join(HERE, "..", "fixtures", "checkpoints")
with open(os.path.join(CK, "checkpoints.json")) as _f:
    TENSORS = json.load(_f)["basic"]["tensors"]
DATA = "model.data-00000-of-00001"
INDEX = "model.index"


def _sentinel(spec):
    """A value of the tensor's dtype and shape that differs from the checkpoint's."""
    if spec["dtype"] == "string":
        return np.full(spec["shape"], b"untouched", dtype=object)
    return np.full(spec["shape"], 7, dtype=spec["dtype"])


def _graph():
    g = tf.Graph()
    with g.as_default():
        vs = {}
        for name, spec in sorted(TENSORS.items()):
            init = _sentinel(spec)
            dt = tf.string if spec["dtype"] == "string" else tf.as_dtype(spec["dtype"])
            vs[name] = tf.Variable(tf.constant(init, dt), name=name)
        saver = tf.train.Saver()
    return g, vs, saver


def _assert_untouched(sess, vs):
    for name, v in vs.items():
        got, want = np.asarray(sess.run(v)), _sentinel(TENSORS[name])
        assert got.shape == want.shape and got.tolist() == want.tolist(), name


def _footer_padding(index):
    """Byte positions no reader looks at: the footer's padding after its two handles."""
    footer = len(index) - 48
    at = footer
    for _ in range(4):
        while index[at] & 0x80:
            at += 1
        at += 1
    return set(range(at, footer + 40))


@pytest.mark.parametrize("which", [DATA, INDEX])
def test_every_bit_flip_is_data_loss_and_changes_nothing(tmp_path, which):
    src = os.path.join(CK, "basic")
    original = open(os.path.join(src, which), "rb").read()
    d = tmp_path / "c"
    shutil.copytree(src, d)
    prefix = str(d / "model")
    target = d / which
    g, vs, saver = _graph()
    harmless = []
    with g.as_default(), tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for pos in range(len(original)):
            data = bytearray(original)
            data[pos] ^= 1 << (pos % 8)
            target.write_bytes(bytes(data))
            try:
                saver.restore(sess, prefix)
            except errors.DataLossError as e:
                assert str(target) in str(e), (pos, str(e))
                _assert_untouched(sess, vs)
                continue
            harmless.append(pos)
            sess.run(tf.global_variables_initializer())  # back to the sentinels
    if which == DATA:
        assert harmless == []  # every data byte is under an entry's crc32c
    else:
        assert set(harmless) <= _footer_padding(original), harmless


@pytest.mark.parametrize("which", [DATA, INDEX])
def test_truncated_file_is_data_loss_and_changes_nothing(tmp_path, which):
    src = os.path.join(CK, "basic")
    original = open(os.path.join(src, which), "rb").read()
    d = tmp_path / "c"
    shutil.copytree(src, d)
    g, vs, saver = _graph()
    with g.as_default(), tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for keep in sorted(set([0, 1, len(original) // 2, len(original) - 1])):
            (d / which).write_bytes(original[:keep])
            with pytest.raises(errors.DataLossError) as e:
                saver.restore(sess, str(d / "model"))
            assert str(d / which) in str(e.value), str(e.value)
            _assert_untouched(sess, vs)
