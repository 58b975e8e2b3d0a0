"""Malformed V1 checkpoints that pass the table's checksums (crafted here: a one-block sorted
string table with valid CRCs around hand-made SavedTensorSlices records) give clean errors
from Restore / RestoreV2, never a crash, a hang or a wrong value: records with too few or
too many values, unparseable bytes, wrong wire types, a bad meta, negative or huge shapes,
slices out of bounds, a missing record, versions from the future."""
import struct

import numpy as np
import pytest

import minitf as tf
from minitf import errors, raw_ops
from minitf.core.util import saved_tensor_slice_pb2 as stsp
from minitf.summary.writer import masked_crc32c

_MAGIC = 0xdb4775248b80fb57


def _varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def _block(entries):
    """A table block with a restart point at every entry (no shared prefixes)."""
    body, restarts = bytearray(), []
    for k, v in entries:
        restarts.append(len(body))
        body += _varint(0) + _varint(len(k)) + _varint(len(v)) + k + v
    body += b"".join(struct.pack("<I", r) for r in restarts or [0])
    body += struct.pack("<I", len(restarts) or 1)
    return bytes(body)


def _with_trailer(block):
    return block + b"\x00" + struct.pack("<I", masked_crc32c(block + b"\x00"))


def table(entries):
    """The bytes of a sorted string table holding `entries` (sorted by key)."""
    data = _block(entries)
    out = bytearray(_with_trailer(data))
    meta_off = len(out)
    meta = _block([])
    out += _with_trailer(meta)
    last = entries[-1][0] if entries else b""
    index = _block([(last, _varint(0) + _varint(len(data)))])
    index_off = len(out)
    out += _with_trailer(index)
    handles = (_varint(meta_off) + _varint(len(meta)) + _varint(index_off) +
               _varint(len(index)))
    out += handles + b"\x00" * (40 - len(handles)) + struct.pack("<Q", _MAGIC)
    return bytes(out)


def key(name, starts_lengths):
    """EncodeTensorNameSlice for a name without 0x00/0xff bytes and small extents."""
    def num(v):
        raw = v.to_bytes(8, "big").lstrip(b"\x00")
        return bytes([len(raw)]) + raw

    def signed(v):
        assert -64 <= v < 64
        return bytes([(0x80 ^ v) & 0xFF])

    out = num(0) + name.encode() + b"\x00\x01" + num(len(starts_lengths))
    for s, n in starts_lengths:
        out += signed(s) + signed(n)
    return out


def meta_record(tensors, min_consumer=0):
    """tensors: [(name, shape, dtype enum, [slices as [(start, length or -1)]])]."""
    sts = stsp.SavedTensorSlices()
    sts.meta.versions.producer = 1
    sts.meta.versions.min_consumer = min_consumer
    for name, shape, dt, slices in tensors:
        t = sts.meta.tensor.add(name=name, type=dt)
        for d in shape:
            t.shape.dim.add(size=d)
        for sl in slices:
            p = t.slice.add()
            for s, n in sl:
                e = p.extent.add()
                if n >= 0:
                    e.start, e.length = s, n
    return sts.SerializeToString()


def data_record(name, sl, fill):
    sts = stsp.SavedTensorSlices()
    sts.data.name = name
    for s, n in sl:
        e = sts.data.slice.extent.add()
        if n >= 0:
            e.start, e.length = s, n
    fill(sts.data.data)
    return sts.SerializeToString()


def write(path, meta, records):
    entries = [(b"", meta)] + sorted(records)
    with open(path, "wb") as f:
        f.write(table(entries))


def restore(path, name, dt, op="Restore"):
    g = tf.Graph()
    with g.as_default(), tf.Session() as sess:
        if op == "Restore":
            return sess.run(raw_ops.Restore(file_pattern=path, tensor_name=name, dt=dt))
        return sess.run(raw_ops.RestoreV2(prefix=path, tensor_names=[name],
                                          shape_and_slices=[""], dtypes=[dt]))[0]


FULL2 = [(0, -1)]


def test_crafted_table_reads_back(tmp_path):
    """The crafting itself is right: a well-formed record restores."""
    p = str(tmp_path / "ok")
    write(p, meta_record([("x", [3], 1, [FULL2])]),
          [(key("x", [(0, -1)]), data_record("x", FULL2, lambda t: t.float_val.extend(
              [1.5, -2.0, 3.0])))])
    np.testing.assert_array_equal(restore(p, "x", tf.float32), [1.5, -2.0, 3.0])
    np.testing.assert_array_equal(restore(p, "x", tf.float32, "RestoreV2"), [1.5, -2.0, 3.0])


RECORD_CASES = {
    "too_few": (1, lambda t: t.float_val.extend([1.0, 2.0])),
    "too_many": (1, lambda t: t.float_val.extend([1.0, 2.0, 3.0, 4.0])),
    "wrong_field": (1, lambda t: t.double_val.extend([1.0, 2.0, 3.0])),
    "ints_short": (3, lambda t: t.int_val.extend([1])),
    "strings_short": (7, lambda t: t.string_val.extend([b"a", b"b"])),
    "strings_long": (7, lambda t: t.string_val.extend([b"a", b"b", b"c", b"d"])),
    "bools_long": (10, lambda t: t.bool_val.extend([True] * 9)),
}


@pytest.mark.parametrize("case", sorted(RECORD_CASES))
def test_record_not_matching_its_slice_is_data_loss(tmp_path, case):
    dt, fill = RECORD_CASES[case]
    p = str(tmp_path / case)
    write(p, meta_record([("x", [3], dt, [FULL2])]),
          [(key("x", [(0, -1)]), data_record("x", FULL2, fill))])
    for op in ["Restore", "RestoreV2"]:
        with pytest.raises(errors.DataLossError) as e:
            restore(p, "x", tf.as_dtype(dt), op)
        assert p in str(e.value) and "does not hold" in str(e.value)


@pytest.mark.parametrize("junk", [b"\xff" * 7, b"\x12\x80", b"\x1a\x05\x0a\x03", b"\x0a"])
def test_unparseable_record_is_data_loss(tmp_path, junk):
    p = str(tmp_path / "junk")
    write(p, meta_record([("x", [3], 1, [FULL2])]), [(key("x", [(0, -1)]), junk)])
    with pytest.raises(errors.DataLossError) as e:
        restore(p, "x", tf.float32)
    assert p in str(e.value)


def test_missing_record_is_tfs_error_copying(tmp_path):
    p = str(tmp_path / "norecord")
    write(p, meta_record([("x", [3], 1, [FULL2])]), [])
    with pytest.raises(errors.InvalidArgumentError) as e:
        restore(p, "x", tf.float32)
    assert "Error copying slice data" in str(e.value)


@pytest.mark.parametrize("meta, code, words", [
    (b"\xff\xff\xff", errors.InternalError, "Failed to find the saved tensor slices"),
    (meta_record([("x", [3], 1, [FULL2])], min_consumer=7), errors.InvalidArgumentError,
     "min consumer version 7"),
    (meta_record([("x", [3], 1, [[(2, 5)]])]), errors.InvalidArgumentError,
     "Extent in dimension 0 out of bounds"),
    (meta_record([("x", [3, 2], 1, [FULL2])]), errors.InternalError, "Mismatching ranks"),
    (meta_record([("x", [-1], 1, [FULL2])]), errors.DataLossError, "Invalid shape"),
    (meta_record([("x", [-4], 1, [FULL2])]), errors.InternalError,
     "Failed to find the saved tensor slices"),
    (meta_record([("x", [3], 1, [FULL2]), ("x", [4], 1, [FULL2])]), errors.InternalError,
     "Incompatible tensor shapes detected for tensor x"),
    (meta_record([("x", [3], 1, [FULL2]), ("x", [3], 3, [FULL2])]), errors.InternalError,
     "Incompatible tensor types detected for tensor x"),
])
def test_bad_meta_is_a_clean_error(tmp_path, meta, code, words):
    p = str(tmp_path / "meta")
    write(p, meta, [])
    with pytest.raises(code) as e:
        restore(p, "x", tf.float32)
    assert words in str(e.value), str(e.value)


def test_huge_shape_fails_cleanly(tmp_path):
    """A meta claiming 2^62 elements: the restore fails to allocate, it does not crash or
    read past the record."""
    p = str(tmp_path / "huge")
    write(p, meta_record([("x", [1 << 31, 1 << 31], 1, [[(0, -1), (0, -1)]])]),
          [(key("x", [(0, -1), (0, -1)]), data_record("x", [(0, -1), (0, -1)],
                                                       lambda t: t.float_val.extend([1.0])))])
    with pytest.raises(errors.OpError):
        restore(p, "x", tf.float32)
