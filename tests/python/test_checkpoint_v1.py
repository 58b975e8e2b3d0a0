"""V1 checkpoints (TensorFlow's TensorSliceWriter tables) against real TensorFlow 2.21
(tests/fixtures/checkpoint_v1_expected.json and the files TF wrote under
tests/fixtures/checkpoints/v1/, both from tools/gen_checkpoint_v1_fixtures.py): the Save /
SaveSlices / Restore / RestoreSlice ops and RestoreV2's V1 path, tf.train.Saver with
write_version=V1 (TF's nodes, SaverDef, files and values), and the checkpoint readers."""
import base64
import json
import os
import shutil

import numpy as np
import pytest

import minitf as tf
from minitf import errors, raw_ops

import saver_cases

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "fixtures", "checkpoints", "v1")
RAW = os.path.join(ROOT, "raw")
with open(os.path.join(HERE, "..", "fixtures", "checkpoint_v1_expected.json")) as _f:
    EXPECTED = json.load(_f)
ERRORS = EXPECTED["errors"]
V1 = tf.train.SaverDef.V1


def decode(spec):
    if spec["dtype"] == "string":
        return np.array([base64.b64decode(v) for v in spec["b64"]],
                        dtype=object).reshape(spec["shape"])
    if spec["dtype"].startswith("complex"):
        vals = [complex(re, im) for re, im in spec["values"]]
        return np.array(vals, dtype=spec["dtype"]).reshape(spec["shape"])
    wide = np.float64 if spec["dtype"].startswith("float") else object
    return np.array(spec["values"], dtype=wide).astype(spec["dtype"]).reshape(spec["shape"])


def assert_same(got, want, name=""):
    got = np.asarray(got)
    if want.dtype == object:
        assert got.shape == want.shape and list(got.ravel()) == list(want.ravel()), name
        return
    assert got.shape == want.shape, name
    # Bit for bit (-0.0, NaN payloads, denormals): as TF wrote them.
    assert got.astype(want.dtype).tobytes() == want.tobytes(), name


def run(fn):
    g = tf.Graph()
    with g.as_default(), tf.Session() as sess:
        return sess.run(fn())


def const(dtype, value):
    dt = tf.as_dtype(dtype)
    if dt.is_quantized:
        base = {"qint8": tf.int8, "quint8": tf.uint8, "qint32": tf.int32}[dtype]
        return tf.bitcast(tf.constant(value, base), dt)
    return tf.constant(value, dt)


def _message(exc):
    return str(exc.message).split("\n\t [[")[0].split("\n")[-1]


def _want(case, **paths):
    cls, msg = ERRORS[case]
    return getattr(errors, cls), msg.replace("<ROOT>", ROOT)


# ---- the ops ----

def test_save_writes_tfs_bytes_for_every_dtype(tmp_path):
    case = EXPECTED["raw"]["dtypes"]
    names = case["tensor_names"]
    tens = case["tensors"]
    run(lambda: raw_ops.Save(filename=str(tmp_path / "dtypes"), tensor_names=names,
                             data=[const(tens[n]["tf_dtype"], decode(tens[n])) for n in names]))
    with open(os.path.join(RAW, "dtypes"), "rb") as f:
        assert (tmp_path / "dtypes").read_bytes() == f.read()
    assert os.listdir(tmp_path) == ["dtypes"]  # the temporary file was renamed


@pytest.mark.parametrize("op", ["Restore", "RestoreV2"])
def test_restores_tfs_file_for_every_dtype(op):
    tens = EXPECTED["raw"]["dtypes"]["tensors"]
    path = os.path.join(RAW, "dtypes")
    for name, spec in sorted(tens.items()):
        dt = tf.as_dtype(spec["tf_dtype"])
        if op == "Restore":
            got = run(lambda: raw_ops.Restore(file_pattern=path, tensor_name=name, dt=dt))
        else:
            got = run(lambda: raw_ops.RestoreV2(prefix=path, tensor_names=[name],
                                                shape_and_slices=[""], dtypes=[dt]))[0]
        assert_same(got, decode(spec), name)


def test_save_slices_writes_tfs_bytes_and_restores_slices(tmp_path):
    case = EXPECTED["raw"]["slices"]
    w = decode(case["tensors"]["w"])
    run(lambda: raw_ops.SaveSlices(
        filename=str(tmp_path / "slices"), tensor_names=case["tensor_names"],
        shapes_and_slices=case["shapes_and_slices"],
        data=[tf.constant(w[2:]), tf.constant(w[:2]), tf.constant(7)]))
    with open(os.path.join(RAW, "slices"), "rb") as f:
        assert (tmp_path / "slices").read_bytes() == f.read()
    path = os.path.join(RAW, "slices")
    assert_same(run(lambda: raw_ops.Restore(file_pattern=path, tensor_name="w",
                                            dt=tf.float32)), w)
    for spec, want in case["restore_slice"].items():
        got = run(lambda: raw_ops.RestoreSlice(file_pattern=path, tensor_name="w",
                                               shape_and_slice=spec, dt=tf.float32))
        assert_same(got, decode(want), spec)
        got = run(lambda: raw_ops.RestoreV2(prefix=path, tensor_names=["w"],
                                            shape_and_slices=[spec], dtypes=[tf.float32]))
        assert_same(got[0], decode(want), spec)


def test_restores_a_pattern_of_shards():
    case = EXPECTED["raw"]["shards"]
    pattern = os.path.join(RAW, case["pattern"])
    a, b = run(lambda: raw_ops.RestoreV2(prefix=pattern, tensor_names=["a", "b"],
                                         shape_and_slices=["", ""],
                                         dtypes=[tf.float32, tf.int64]))
    assert_same(a, decode(case["tensors"]["a"]))
    assert_same(b, decode(case["tensors"]["b"]))
    got = run(lambda: raw_ops.Restore(file_pattern=pattern, tensor_name="b", dt=tf.int64,
                                      preferred_shard=1))
    assert_same(got, decode(case["tensors"]["b"]))


def test_shard_files_are_tfs(tmp_path):
    case = EXPECTED["raw"]["shards"]
    a, b = decode(case["tensors"]["a"]), decode(case["tensors"]["b"])
    run(lambda: [raw_ops.Save(filename=str(tmp_path / "shard-00000-of-00002"),
                              tensor_names=["a"], data=[tf.constant(a)]),
                 raw_ops.Save(filename=str(tmp_path / "shard-00001-of-00002"),
                              tensor_names=["b"], data=[tf.constant(b)])])
    for f in ["shard-00000-of-00002", "shard-00001-of-00002"]:
        with open(os.path.join(RAW, f), "rb") as fh:
            assert (tmp_path / f).read_bytes() == fh.read(), f


SL = os.path.join(RAW, "slices")
RESTORE_ERRORS = {
    "missing_name": lambda: raw_ops.Restore(file_pattern=SL, tensor_name="nope", dt=tf.float32),
    "dtype": lambda: raw_ops.Restore(file_pattern=SL, tensor_name="i", dt=tf.float32),
    "v2_dtype": lambda: raw_ops.RestoreV2(prefix=SL, tensor_names=["w", "i"],
                                          shape_and_slices=["", ""],
                                          dtypes=[tf.float32, tf.int64]),
    "spec_shape": lambda: raw_ops.RestoreSlice(file_pattern=SL, tensor_name="w",
                                               shape_and_slice="5 3 1,2:0,2", dt=tf.float32),
    "no_files": lambda: raw_ops.Restore(file_pattern=os.path.join(RAW, "none"),
                                        tensor_name="w", dt=tf.float32),
    "bfloat16": lambda: raw_ops.Save(filename="/nonexistent/x", tensor_names=["x"],
                                     data=[tf.constant([1.0], tf.bfloat16)]),
    "uint32": lambda: raw_ops.Save(filename="/nonexistent/x", tensor_names=["x"],
                                   data=[tf.constant([1], tf.uint32)]),
    "slice_mismatch": lambda: raw_ops.SaveSlices(filename="/nonexistent/x", tensor_names=["x"],
                                                 shapes_and_slices=["4 0,2"],
                                                 data=[tf.constant([1.0, 2.0, 3.0])]),
}


@pytest.mark.parametrize("case", sorted(RESTORE_ERRORS))
def test_op_errors_are_tfs(case):
    cls, msg = _want(case)
    with pytest.raises(cls) as e:
        run(RESTORE_ERRORS[case])
    assert _message(e.value) == msg


def test_file_errors_are_tfs(tmp_path):
    junk = tmp_path / "not_a_table"
    junk.write_text("this file is not a table, " * 4)
    cls, msg = _want("not_a_table")
    with pytest.raises(cls) as e:
        run(lambda: raw_ops.Restore(file_pattern=str(junk), tensor_name="w", dt=tf.float32))
    assert _message(e.value) == msg.replace(os.path.join(ROOT, "raw"), str(tmp_path))
    part = str(tmp_path / "partial")
    run(lambda: raw_ops.SaveSlices(filename=part, tensor_names=["w"],
                                   shapes_and_slices=["4 3 0,2:-"], data=[tf.zeros([2, 3])]))
    cls, msg = _want("not_covered")
    with pytest.raises(cls) as e:
        run(lambda: raw_ops.Restore(file_pattern=part, tensor_name="w", dt=tf.float32))
    assert _message(e.value) == msg
    dup = str(tmp_path / "dup")
    run(lambda: raw_ops.Save(filename=dup, tensor_names=["x", "x"],
                             data=[tf.constant([1.0]), tf.constant([2.0])]))
    cls, msg = _want("overlap")
    with pytest.raises(cls) as e:
        run(lambda: raw_ops.Restore(file_pattern=dup, tensor_name="x", dt=tf.float32))
    assert _message(e.value) == msg


def test_corrupt_v1_file_is_data_loss_never_a_crash(tmp_path):
    """Every byte of a TF-written V1 file flipped in turn: DataLoss naming the file (or, where
    nothing reads the byte, the right values), never a crash or a wrong value."""
    src = open(SL, "rb").read()
    w = decode(EXPECTED["raw"]["slices"]["tensors"]["w"])
    g = tf.Graph()
    with g.as_default():
        ph = tf.placeholder(tf.string, [])
        out = raw_ops.RestoreV2(prefix=ph, tensor_names=["w", "i"], shape_and_slices=["", ""],
                                dtypes=[tf.float32, tf.int32])
        with tf.Session() as sess:
            harmless = []
            for pos in range(len(src)):
                p = str(tmp_path / ("f%d" % pos))
                data = bytearray(src)
                data[pos] ^= 1 << (pos % 8)
                with open(p, "wb") as f:
                    f.write(bytes(data))
                try:
                    got_w, got_i = sess.run(out, {ph: p})
                except errors.DataLossError as e:
                    assert p in str(e), str(e)
                    continue
                assert_same(got_w, w)
                assert got_i == 7
                harmless.append(pos)
                os.remove(p)
    # Only the footer's padding after the two block handles goes unread.
    footer = len(src) - 48
    at = footer
    for _ in range(4):  # metaindex offset, size; index offset, size
        while src[at] & 0x80:
            at += 1
        at += 1
    assert harmless and set(harmless) <= set(range(at, footer + 40)), harmless


# ---- tf.train.Saver(write_version=V1) ----

SAVER_CASES = sorted(EXPECTED["saver"])


def _build(name):
    g = tf.Graph()
    with g.as_default():
        var_list, kwargs = saver_cases.CASES[name](tf)
        saver = tf.train.Saver(var_list, save_relative_paths=True, write_version=V1, **kwargs)
        if var_list is None:
            var_list = tf.global_variables()
    return g, saver, var_list


def _values(sess, var_list):
    return {k: saver_cases.jsonable(v) for k, v in saver_cases.values_of(sess, var_list).items()}


@pytest.mark.parametrize("name", SAVER_CASES)
def test_saver_v1_nodes_and_saver_def_are_tfs(name):
    from google.protobuf import text_format
    g, saver, _ = _build(name)
    want = EXPECTED["saver"][name]
    assert saver_cases.save_nodes(g, saver.saver_def.restore_op_name.split("/")[0]) == \
        want["nodes"]
    assert text_format.MessageToString(saver.as_saver_def()) == want["saver_def"]


@pytest.mark.parametrize("name", SAVER_CASES)
def test_tf_v1_checkpoint_restores_with_tfs_values(name, tmp_path):
    d = tmp_path / name
    shutil.copytree(os.path.join(ROOT, "saver", name), d)
    g, saver, var_list = _build(name)
    config = saver_cases.session_config(tf)
    with g.as_default(), tf.Session(config=config) as sess:
        saver.restore(sess, tf.train.latest_checkpoint(str(d)))
        assert _values(sess, var_list) == EXPECTED["saver"][name]["values"]


@pytest.mark.parametrize("name", SAVER_CASES)
def test_saver_v1_writes_what_tf_wrote(name, tmp_path):
    """Same files (byte for byte), state file, returned path and list_variables as TF's
    save of the same values; a fresh graph restores them."""
    want = EXPECTED["saver"][name]
    g, saver, var_list = _build(name)
    d = str(tmp_path)
    config = saver_cases.session_config(tf)
    with g.as_default(), tf.Session(config=config) as sess:
        saver.restore(sess, tf.train.latest_checkpoint(os.path.join(ROOT, "saver", name)))
        path = saver.save(sess, os.path.join(d, "model"), global_step=3,
                          write_meta_graph=False)
    assert os.path.relpath(path, d) == want["returned_path"]
    assert sorted(os.listdir(d)) == want["files"]
    for f in want["files"]:
        with open(os.path.join(ROOT, "saver", name, f), "rb") as fh:
            assert open(os.path.join(d, f), "rb").read() == fh.read(), f
    assert [[k, list(s)] for k, s in tf.train.list_variables(path)] == want["list_variables"]
    g2, saver2, var_list2 = _build(name)
    with g2.as_default(), tf.Session(config=config) as sess:
        saver2.restore(sess, path)
        assert _values(sess, var_list2) == want["values"]


def test_saver_v1_max_to_keep_removes_old_files(tmp_path):
    g = tf.Graph()
    with g.as_default():
        tf.Variable(1.0, name="x")
        saver = tf.train.Saver(max_to_keep=2, write_version=V1)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for step in (1, 2, 3):
                saver.save(sess, str(tmp_path / "m"), global_step=step, write_meta_graph=False)
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "m-2", "m-3"]
    assert tf.train.latest_checkpoint(str(tmp_path)) == str(tmp_path / "m-3")


# ---- readers ----

def test_reader_of_a_v1_file_is_tfs():
    r = tf.train.NewCheckpointReader(SL)
    assert r.get_variable_to_shape_map() == ERRORS["reader_shapes"]
    assert {k: v.name for k, v in r.get_variable_to_dtype_map().items()} == \
        ERRORS["reader_dtypes"]
    # TF lists its hash map in no fixed order: compare the lines.
    assert sorted(r.debug_string().decode().splitlines()) == \
        sorted(ERRORS["reader_debug_string"].splitlines())
    assert_same(r.get_tensor("i"), decode(ERRORS["reader_get_i"]))
    assert r.has_tensor("w") and not r.has_tensor("nope")
    for case, name in [("reader_get_sliced", "w"), ("reader_get_missing", "nope")]:
        cls, msg = _want(case)
        with pytest.raises(cls) as e:
            r.get_tensor(name)
        assert str(e.value.message) == msg
    assert [[k, list(s)] for k, s in tf.train.list_variables(SL)] == ERRORS["list_variables"]


def test_reader_get_tensor_dtypes_as_tf():
    r = tf.train.NewCheckpointReader(os.path.join(RAW, "dtypes"))
    for name, want in sorted(ERRORS["reader_dtypes_get"].items()):
        if isinstance(want, list):
            with pytest.raises(getattr(errors, want[0])) as e:
                r.get_tensor(name)
            assert str(e.value.message) == want[1], name
        else:
            assert_same(r.get_tensor(name), decode(want), name)


def test_reader_of_shards_and_bad_files(tmp_path):
    pattern = os.path.join(RAW, "shard-?????-of-00002")
    assert [[k, list(s)] for k, s in tf.train.list_variables(pattern)] == \
        ERRORS["shards_list_variables"]
    assert_same(tf.train.load_variable(pattern, "b"), decode(ERRORS["shards_load_b"]))
    junk = tmp_path / "not_a_table"
    junk.write_text("this file is not a table, " * 4)
    cls, msg = _want("reader_not_a_table")
    with pytest.raises(cls) as e:
        tf.train.NewCheckpointReader(str(junk))
    assert str(e.value.message) == msg.replace(os.path.join(ROOT, "raw"), str(tmp_path))
