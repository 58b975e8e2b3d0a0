"""V2 checkpoints (the tensor bundle) through the raw ops SaveV2 / RestoreV2 /
MergeV2Checkpoints / ShardedFilename / ShardedFilespec, against checkpoints written by real
TensorFlow 2.21 (tests/fixtures/checkpoints/, from tools/gen_checkpoint_fixtures.py): minitf
restores TF's files to the exact values, writes files byte-identical to TF's for the same
tensors, gives TF's errors, and never crashes on a corrupted index."""
import base64
import hashlib
import json
import os
import shutil

import numpy as np
import pytest

import minitf as tf
from minitf import errors, raw_ops

HERE = os.path.dirname(os.path.abspath(__file__))
CK = os.path.join(HERE, "..", "fixtures", "checkpoints")
with open(os.path.join(CK, "checkpoints.json")) as f:
    FIX = json.load(f)

DTYPES = {"float32": tf.float32, "float64": tf.float64, "int32": tf.int32, "int64": tf.int64,
          "bool": tf.bool, "string": tf.string, "float16": tf.float16, "int8": tf.int8}


def decode(spec):
    """The numpy value a checkpoints.json tensor entry describes."""
    if spec["dtype"] == "string":
        flat = [base64.b64decode(v) for v in spec["b64"]]
        return np.array(flat, dtype=object).reshape(spec["shape"])
    return np.array(spec["values"], dtype=np.float64 if spec["dtype"].startswith("float")
                    else spec["dtype"]).astype(spec["dtype"]).reshape(spec["shape"])


def large_values():
    big = np.arange(100000, dtype=np.float32).reshape(250, 400) * 0.25 - 1000
    return {"big": big, "strs": decode(FIX["large"]["tensors"]["strs"])}


def fixture_values(case):
    vals = {k: decode(v) for k, v in FIX[case]["tensors"].items()}
    if case == "large":
        vals.update(large_values())
    return vals


def many_key_names():
    return ["blk/%05d/%s" % (i, hashlib.sha256(str(i).encode()).hexdigest()[:80])
            for i in range(FIX["many_keys"]["count"])]


def restore(prefix, names, dtypes, specs=None):
    g = tf.Graph()
    with g.as_default(), tf.Session() as sess:
        out = raw_ops.RestoreV2(prefix=prefix, tensor_names=names,
                                shape_and_slices=specs or [""] * len(names), dtypes=dtypes)
        return sess.run(out)


def save(prefix, names, values, specs=None):
    g = tf.Graph()
    with g.as_default(), tf.Session() as sess:
        consts = [tf.constant(v, dtype=DTYPES[v.dtype.name if v.dtype != object else "string"])
                  for v in values]
        sess.run(raw_ops.SaveV2(prefix=prefix, tensor_names=names,
                                shape_and_slices=specs or [""] * len(names), tensors=consts))


def assert_same(got, want, name):
    want = np.asarray(want)
    if want.dtype == object:
        assert got.dtype == object and got.shape == want.shape, name
        assert list(got.ravel()) == list(want.ravel()), name
        return
    assert got.dtype == want.dtype and got.shape == want.shape, name
    # Bit for bit: -0.0 stays -0.0, every float as TF wrote it.
    assert got.tobytes() == want.tobytes(), name


def files_of(prefix):
    d, base = os.path.split(prefix)
    return sorted(f for f in os.listdir(d) if f.startswith(os.path.basename(base) + "."))


@pytest.mark.parametrize("case", ["basic", "large", "sharded", "merged"])
def test_restores_tf_checkpoints_exactly(case):
    vals = fixture_values(case)
    names = sorted(vals)
    dtypes = [DTYPES[vals[n].dtype.name if vals[n].dtype != object else "string"] for n in names]
    got = restore(os.path.join(CK, FIX[case]["prefix"]), names, dtypes)
    for n, a in zip(names, got):
        assert_same(np.asarray(a), vals[n], n)


def test_restores_many_keys_over_several_index_blocks():
    names = many_key_names()
    assert FIX["many_keys"]["index_bytes"] > 2 * 262144  # TF wrote 3 index blocks
    pick = names[::97] + names[-3:]
    idx = [names.index(n) for n in pick]
    got = restore(os.path.join(CK, "many_keys/model"), pick, [tf.int8] * len(pick))
    for i, a in zip(idx, got):
        assert a == np.int8(i % 256 - 128)


def test_restores_partitioned_variable_from_slices():
    prefix = os.path.join(CK, "partitioned/model")
    emb = decode(FIX["partitioned"]["tensors"]["emb"])
    assert emb.shape == (10, 4)
    full, = restore(prefix, ["emb"], [tf.float32])
    assert_same(full, emb, "emb")
    # Each stored slice, a slice across two stored ones, and one inside a stored one.
    specs = ["10 4 0,4:0,4", "10 4 4,3:0,4", "10 4 7,3:0,4", "10 4 3,5:1,2", "10 4 5,1:-"]
    got = restore(prefix, ["emb"] * len(specs), [tf.float32] * len(specs), specs)
    want = [emb[0:4], emb[4:7], emb[7:10], emb[3:8, 1:3], emb[5:6]]
    for spec, a, w in zip(specs, got, want):
        assert_same(a, w, spec)


def test_restore_slice_of_a_whole_saved_tensor():
    w = decode(FIX["basic"]["tensors"]["w"])
    a, = restore(os.path.join(CK, "basic/model"), ["w"], [tf.float32], ["2 3 1,1:0,2"])
    assert_same(a, w[1:2, 0:2], "w")


@pytest.mark.parametrize("case", ["basic", "large", "sharded"])
def test_saver_files_are_byte_identical(case, tmp_path):
    vals = fixture_values(case)
    (saveop,) = FIX[case]["saves"]
    names = saveop["tensor_names"]
    prefix = str(tmp_path / "model")
    save(prefix, names, [vals[n] for n in names])
    assert files_of(prefix) == ["model.data-00000-of-00001", "model.index"]
    for f in files_of(prefix):
        with open(os.path.join(tmp_path, f), "rb") as a, \
                open(os.path.join(CK, case, f), "rb") as b:
            assert a.read() == b.read(), f


def test_many_keys_index_is_byte_identical(tmp_path):
    names = many_key_names()
    prefix = str(tmp_path / "model")
    save(prefix, names, [np.int8(i % 256 - 128) for i in range(len(names))])
    for f in ["model.index", "model.data-00000-of-00001"]:
        with open(tmp_path / f, "rb") as a, open(os.path.join(CK, "many_keys", f), "rb") as b:
            assert a.read() == b.read(), f


def test_partitioned_save_is_byte_identical(tmp_path):
    emb = decode(FIX["partitioned"]["tensors"]["emb"])
    other = decode(FIX["partitioned"]["tensors"]["other"])
    (saveop,) = FIX["partitioned"]["saves"]
    parts = {"10 4 0,4:0,4": emb[0:4], "10 4 4,3:0,4": emb[4:7], "10 4 7,3:0,4": emb[7:10],
             "": other}
    values = [parts[s] for s in saveop["shape_and_slices"]]
    prefix = str(tmp_path / "model")
    save(prefix, saveop["tensor_names"], values, saveop["shape_and_slices"])
    for f in ["model.index", "model.data-00000-of-00001"]:
        with open(tmp_path / f, "rb") as a, open(os.path.join(CK, "partitioned", f), "rb") as b:
            assert a.read() == b.read(), f


def test_merge_is_byte_identical(tmp_path):
    tmp = tmp_path / "model_temp"
    os.makedirs(tmp)
    parts = [str(tmp / "part-00000-of-00002"), str(tmp / "part-00001-of-00002")]
    save(parts[0], ["c", "a"], [np.array([1.5, 2.5], np.float32), np.int64(9)])
    save(parts[1], ["b"], [np.array([b"x", b"yz"], object)])
    g = tf.Graph()
    with g.as_default(), tf.Session() as sess:
        sess.run(raw_ops.MergeV2Checkpoints(checkpoint_prefixes=parts,
                                            destination_prefix=str(tmp_path / "model")))
    assert not tmp.exists() and FIX["merged"]["temp_dir_deleted"]
    for f in ["model.index", "model.data-00000-of-00002", "model.data-00001-of-00002"]:
        with open(tmp_path / f, "rb") as a, open(os.path.join(CK, "merged", f), "rb") as b:
            assert a.read() == b.read(), f


def test_sharded_filename_and_filespec():
    with tf.Session() as sess:
        a, b = sess.run([raw_ops.ShardedFilename(basename="a/b", shard=3, num_shards=10),
                         raw_ops.ShardedFilespec(basename="a/b", num_shards=10)])
    assert a == b"a/b-00003-of-00010" and b == b"a/b-?????-of-00010"


def test_save_leaves_no_temporary_files_and_overwrites_atomically(tmp_path):
    prefix = str(tmp_path / "m")
    save(prefix, ["x"], [np.float32(1)])
    save(prefix, ["x"], [np.float32(2)])
    assert sorted(os.listdir(tmp_path)) == ["m.data-00000-of-00001", "m.index"]
    assert restore(prefix, ["x"], [tf.float32])[0] == 2


ERRORS = FIX["errors"]


def _message(exc):
    return str(exc.message if hasattr(exc, "message") else exc).split("\n\t [[")[0].split("\n")[-1]


@pytest.mark.parametrize("case", ["missing_key", "dtype_mismatch", "spec_shape_mismatch"])
def test_restore_errors_as_tf(case):
    want = ERRORS[case]
    prefix = os.path.join(CK, "basic/model")
    args = {"missing_key": (["nope"], [tf.float32], [""]),
            "dtype_mismatch": (["w", "i"], [tf.float64, tf.int64], ["", ""]),
            "spec_shape_mismatch": (["w"], [tf.float32], ["3 3 0,1:-"])}[case]
    with pytest.raises(getattr(errors, want["code"])) as e:
        restore(prefix, *args)
    assert _message(e.value) == want["message"]


def test_missing_checkpoint_is_not_found(tmp_path):
    with pytest.raises(errors.NotFoundError) as e:
        restore(str(tmp_path / "none"), ["w"], [tf.float32])
    assert _message(e.value) == ERRORS["missing_prefix"]["message"].replace("<TMP>", str(tmp_path))


def test_save_errors_as_tf(tmp_path):
    with pytest.raises(errors.InvalidArgumentError) as e:
        save(str(tmp_path / "dup"), ["a", "a"], [np.float32(1), np.float32(2)])
    assert _message(e.value) == ERRORS["duplicate_key"]["message"]
    with pytest.raises(errors.InvalidArgumentError) as e:
        save(str(tmp_path / "sl"), ["a"], [np.array([1, 2, 3], np.float32)], ["4 0,2"])
    assert _message(e.value) == ERRORS["save_slice_mismatch"]["message"]
    with pytest.raises(errors.NotFoundError) as e:
        save(str(tmp_path / "a" / "b" / "c"), ["w"], [np.float32(1)])
    assert _message(e.value) == ERRORS["missing_dir"]["message"].replace("<TMP>", str(tmp_path))
    # A failed save leaves nothing behind.
    assert sorted(os.listdir(tmp_path)) == []


def test_bad_slice_specs_fail_at_construction():
    prefix = os.path.join(CK, "basic/model")
    for case, spec in [("bad_slice_spec", "2 3 x"), ("slice_rank_mismatch", "2 3 0,1")]:
        with pytest.raises(Exception) as e:
            raw_ops.RestoreV2(prefix=prefix, tensor_names=["w"], shape_and_slices=[spec],
                              dtypes=[tf.float32])
        assert ERRORS[case]["message"] in str(e.value)


def _corrupt_copy(tmp_path, mutate):
    src = os.path.join(CK, "basic")
    dst = tmp_path / "c"
    shutil.copytree(src, dst, dirs_exist_ok=True)
    for f in os.listdir(dst):
        p = dst / f
        data = bytearray(p.read_bytes())
        data = mutate(f, data)
        if data is not None:
            p.write_bytes(bytes(data))
    return str(dst / "model")


def test_every_index_bit_flip_is_data_loss_or_harmless(tmp_path):
    vals = fixture_values("basic")
    names = sorted(vals)
    dtypes = [DTYPES[vals[n].dtype.name if vals[n].dtype != object else "string"] for n in names]
    index = open(os.path.join(CK, "basic/model.index"), "rb").read()
    harmless = []
    g = tf.Graph()
    with g.as_default():
        prefix_ph = tf.placeholder(tf.string, [])
        out = raw_ops.RestoreV2(prefix=prefix_ph, tensor_names=names,
                                shape_and_slices=[""] * len(names), dtypes=dtypes)
        with tf.Session() as sess:
            for pos in range(len(index)):
                prefix = _corrupt_copy(tmp_path / str(pos), lambda f, d: (
                    d.__setitem__(pos, d[pos] ^ (1 << (pos % 8))) or d) if f.endswith("index")
                    else None)
                try:
                    got = sess.run(out, {prefix_ph: prefix})
                except errors.DataLossError as e:
                    assert "model.index" in str(e) or "TensorBundle at" in str(e), str(e)
                    continue
                for n, a in zip(names, got):
                    assert_same(np.asarray(a), vals[n], n)
                harmless.append(pos)
    # Only what no reader looks at may change unnoticed: the (empty) metaindex block and
    # its handle, and the footer's padding. TF reads none of them either.
    footer = len(index) - 48
    meta_off, at = _varint(index, footer)
    meta_size, at = _varint(index, at)
    _, handle_end = _varint(index, _varint(index, at)[1])  # the index handle is read
    unread = set(range(meta_off, meta_off + meta_size + 5)) | set(range(footer, at)) | \
        set(range(handle_end, footer + 40))
    assert harmless and set(harmless) <= unread, sorted(set(harmless) - unread)


def _varint(b, at):
    v = shift = 0
    while True:
        v |= (b[at] & 0x7f) << shift
        shift += 7
        at += 1
        if not b[at - 1] & 0x80:
            return v, at


def test_truncated_and_corrupt_data_is_data_loss(tmp_path):
    names = ["w", "s"]
    for mutate, what in [(lambda f, d: d[:10] if "data" in f else None, "truncated"),
                         (lambda f, d: bytearray(x ^ 0x55 for x in d) if "data" in f else None,
                          "does not match"),
                         (lambda f, d: d[:40] if f.endswith("index") else None, "too short")]:
        prefix = _corrupt_copy(tmp_path / what.replace(" ", "_"), mutate)
        for n, dt in zip(names, [tf.float32, tf.string]):
            with pytest.raises(errors.DataLossError) as e:
                restore(prefix, [n], [dt])
            assert what in str(e.value) and "/c/model" in str(e.value), str(e.value)


def test_reader_names_a_missing_data_shard(tmp_path):
    # TF 2.21: NewCheckpointReader opens every shard the header counts and fails with the
    # file's path and strerror.
    with tf.Graph().as_default():
        tf.Variable([1.0, 2.0], name="v")
        saver = tf.train.Saver(sharded=True)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            prefix = saver.save(sess, str(tmp_path / "m"))
    shard = prefix + ".data-00000-of-00001"
    os.remove(shard)
    with pytest.raises(errors.NotFoundError) as e:
        tf.train.NewCheckpointReader(prefix)
    assert e.value.message == "%s; No such file or directory" % shard


def test_update_checkpoint_state_in_a_missing_directory():
    # TF 2.21: NotFoundError "<dir>/checkpoint.tmp<suffix>; No such file or directory".
    with pytest.raises(errors.NotFoundError) as e:
        tf.train.update_checkpoint_state("/nonexistent_dir_mt", "/nonexistent_dir_mt/m")
    msg = e.value.message
    assert msg.startswith("/nonexistent_dir_mt/checkpoint.tmp")
    assert msg.endswith("; No such file or directory")
