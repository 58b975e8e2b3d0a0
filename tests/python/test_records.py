"""Byte decoders, file ops and tf.gfile against TensorFlow 2.21 (tests/fixtures/
records_expected.json from tools/gen_records_expected.py, cases in records_cases.py): the
op built, its static shape, the value or TF's error; gfile results and errors."""
import builtins
import json
import os
import shutil
import tempfile

import pytest

import minitf as tf

import records_cases as cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "records_expected.json")) as _f:
    EXPECTED = json.load(_f)


@pytest.fixture
def tmp():
    d = tempfile.mkdtemp()
    cases.make_tree(d)
    yield d
    shutil.rmtree(d)


def _cls(name):
    return getattr(tf.errors, name, None) or getattr(builtins, name)


def _msg(e, tmp):
    msg = getattr(e, "message", None) or str(e)
    if "\nNode: '" in msg:
        msg = msg[msg.rindex("\nNode: '") + 1:]
    return cases.scrub(msg, tmp)


@pytest.mark.parametrize("name", sorted(cases.OP_CASES))
def test_op_case(name, tmp):
    want = EXPECTED["ops"][name]
    with tf.Graph().as_default():
        if "build_error" in want:
            with pytest.raises(_cls(want["build_error"][0])) as info:
                cases.OP_CASES[name](tf, tmp)
            assert [type(info.value).__name__, _msg(info.value, tmp)] == want["build_error"]
            return
        t = cases.OP_CASES[name](tf, tmp)
        assert t.op.type == want["op"]
        shape = None if t.shape.ndims is None else [
            d if d is not None else -1 for d in t.shape.as_list()]
        assert shape == want["static_shape"]
        with tf.Session() as sess:
            if "run_error" in want:
                with pytest.raises(_cls(want["run_error"][0])) as info:
                    sess.run(t)
                assert [type(info.value).__name__, _msg(info.value, tmp)] == want["run_error"]
            else:
                v = sess.run(t)
                if t.op.type == "MatchingFiles":
                    v = [cases.scrub(x.decode(), tmp).encode() for x in v]
                # As JSON text, so that NaN equals NaN.
                assert json.dumps(cases.jsonable(v)) == json.dumps(want["value"])


@pytest.mark.parametrize("name", sorted(cases.GFILE_CASES))
def test_gfile_case(name, tmp):
    want = EXPECTED["gfile"][name]
    if "error" in want:
        with pytest.raises(_cls(want["error"][0])) as info:
            cases.GFILE_CASES[name](tf, tmp)
        assert [type(info.value).__name__, _msg(info.value, tmp)] == want["error"]
    else:
        assert cases.GFILE_CASES[name](tf, tmp) == want["value"]


def test_parse_tensor_truncations_and_bit_flips():
    """Every truncation and single-bit flip of a serialized TensorProto parses to a tensor
    or fails with InvalidArgumentError (never a crash; run under ASan by make asan-pytest)."""
    import numpy as np
    with tf.Graph().as_default(), tf.Session() as sess:
        src = tf.placeholder(tf.float32, [None, None])
        ser = sess.run(tf.io.serialize_tensor(src), {src: np.arange(6, dtype=np.float32)
                                                     .reshape(2, 3)})
        inp = tf.placeholder(tf.string, [])
        parsed = tf.io.parse_tensor(inp, tf.float32)
        assert sess.run(parsed, {inp: ser}).tolist() == [[0, 1, 2], [3, 4, 5]]
        variants = [ser[:n] for n in range(len(ser))]
        variants += [bytes(ser[:i]) + bytes([ser[i] ^ (1 << b)]) + ser[i + 1:]
                     for i in range(len(ser)) for b in range(8)]
        outcomes = set()
        for v in variants:
            try:
                sess.run(parsed, {inp: v})
                outcomes.add("ok")
            except tf.errors.InvalidArgumentError:
                outcomes.add("invalid")
        assert outcomes == {"ok", "invalid"}


def test_base64_roundtrip_all_lengths():
    """encode_base64 / decode_base64 round trip every length 0..40 of random bytes, padded
    or not, and agree with Python's web-safe base64."""
    import base64

    import numpy as np
    rng = np.random.RandomState(0)
    data = [rng.bytes(n) for n in range(41)]
    with tf.Graph().as_default(), tf.Session() as sess:
        enc = sess.run(tf.io.encode_base64(data))
        enc_pad = sess.run(tf.io.encode_base64(data, pad=True))
        assert list(enc_pad) == [base64.urlsafe_b64encode(d) for d in data]
        assert list(enc) == [base64.urlsafe_b64encode(d).rstrip(b"=") for d in data]
        assert list(sess.run(tf.io.decode_base64(enc))) == data
        assert list(sess.run(tf.io.decode_base64(enc_pad))) == data
