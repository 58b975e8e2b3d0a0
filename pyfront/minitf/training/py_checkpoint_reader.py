"""tf.compat.v1.train.NewCheckpointReader: reads a V2 checkpoint's variables
(TensorFlow's training/py_checkpoint_reader.py over its C++ CheckpointReader), or a V1
checkpoint's when the prefix has no `.index` (then it is a file pattern of V1 tables, as
TensorFlow's TensorSliceReader reads them).

Names, dtypes and shapes come from the checkpoint's `.index` file, TensorFlow's sorted
string table of BundleEntryProtos, read here in Python (footer, index block, data blocks
with their masked CRC32C trailers; blocks stored plain or snappy-compressed). Tensor values
are read by the C RestoreV2 kernel, run in a private graph and session, so checksums,
slices and strings are handled in one place and Python never reaches around the SWIG
module.
"""
import glob
import os
import struct

import numpy as np

from minitf.core.protobuf import tensor_bundle_pb2
from minitf.core.util import saved_tensor_slice_pb2
from minitf.framework import dtypes, errors
from minitf.summary.writer import masked_crc32c

_MAGIC = 0xdb4775248b80fb57
_FOOTER_LEN = 48
_TRAILER_LEN = 5  # compression type byte + masked crc32c


def _varint(buf, pos, what):
    result = shift = 0
    while True:
        if pos >= len(buf) or shift > 63:
            raise ValueError(what)
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def _snappy_decompress(data):
    """Snappy's raw format: a varint length, then literals and back-references."""
    n, pos = _varint(data, 0, "bad snappy length")
    out = bytearray()
    while pos < len(data):
        tag = data[pos]
        pos += 1
        kind = tag & 3
        if kind == 0:
            ln = tag >> 2
            if ln >= 60:
                nb = ln - 59
                ln = int.from_bytes(data[pos:pos + nb], "little")
                pos += nb
            ln += 1
            if pos + ln > len(data):
                raise ValueError("bad snappy literal")
            out += data[pos:pos + ln]
            pos += ln
            continue
        if kind == 1:
            ln = ((tag >> 2) & 7) + 4
            off = ((tag >> 5) << 8) | data[pos]
            pos += 1
        elif kind == 2:
            ln = (tag >> 2) + 1
            off = int.from_bytes(data[pos:pos + 2], "little")
            pos += 2
        else:
            ln = (tag >> 2) + 1
            off = int.from_bytes(data[pos:pos + 4], "little")
            pos += 4
        if off == 0 or off > len(out):
            raise ValueError("bad snappy offset")
        for _ in range(ln):
            out.append(out[-off])
    if len(out) != n:
        raise ValueError("bad snappy length")
    return bytes(out)


class _Table:
    """The (key, value) pairs of a TensorFlow/LevelDB sorted string table file, in key
    order. Raises DataLossError naming the file for anything malformed."""

    def __init__(self, path):
        self._path = path
        with open(path, "rb") as f:
            self._data = f.read()
        try:
            self.entries = self._read()
        except (ValueError, IndexError, struct.error) as e:
            raise errors.DataLossError(None, None, "%s: %s (file %s)" % (
                "Corrupted checkpoint index", e, path)) from None

    def _block(self, offset, size):
        end = offset + size
        if end + _TRAILER_LEN > len(self._data):
            raise ValueError("truncated block read")
        contents = self._data[offset:end]
        kind = self._data[end]
        (crc,) = struct.unpack("<I", self._data[end + 1:end + 5])
        if crc != masked_crc32c(self._data[offset:end + 1]):
            raise ValueError("block checksum mismatch")
        if kind == 0:
            return contents
        if kind == 1:
            return _snappy_decompress(contents)
        raise ValueError("bad block type")

    @staticmethod
    def _block_entries(block):
        if len(block) < 4:
            raise ValueError("bad block contents")
        (nrestarts,) = struct.unpack("<I", block[-4:])
        limit = len(block) - 4 * (nrestarts + 1)
        if limit < 0:
            raise ValueError("bad block contents")
        pos, key, out = 0, b"", []
        while pos < limit:
            shared, pos = _varint(block, pos, "bad entry in block")
            non_shared, pos = _varint(block, pos, "bad entry in block")
            vlen, pos = _varint(block, pos, "bad entry in block")
            if shared > len(key) or pos + non_shared + vlen > limit:
                raise ValueError("bad entry in block")
            key = key[:shared] + block[pos:pos + non_shared]
            pos += non_shared
            out.append((key, block[pos:pos + vlen]))
            pos += vlen
        return out

    def _read(self):
        d = self._data
        if len(d) < _FOOTER_LEN:
            raise ValueError("file is too short to be an sstable")
        footer = d[-_FOOTER_LEN:]
        (magic,) = struct.unpack("<Q", footer[-8:])
        if magic != _MAGIC:
            raise ValueError("not an sstable (bad magic number)")
        pos = 0
        _, pos = _varint(footer, pos, "bad footer")  # metaindex offset
        _, pos = _varint(footer, pos, "bad footer")  # metaindex size
        ioff, pos = _varint(footer, pos, "bad footer")
        isize, pos = _varint(footer, pos, "bad footer")
        entries = []
        for _, handle in self._block_entries(self._block(ioff, isize)):
            off, p = _varint(handle, 0, "bad block handle")
            size, _ = _varint(handle, p, "bad block handle")
            entries.extend(self._block_entries(self._block(off, size)))
        return entries


def _index_name(prefix):
    return prefix + ".index"


# The dtypes TensorFlow's TensorSliceReader::GetTensor reads from V1 files.
_V1_GET_DTYPES = frozenset([1, 2, 3, 4, 5, 6, 7, 9, 10])  # float ... string, int64, bool


class _V1Meta:
    """The tensors of the V1 files matching a pattern: {name: (shape, dtype enum, number of
    slices)}, merged over the files as TensorSliceReader registers them."""

    def __init__(self, pattern):
        files = sorted(glob.glob(pattern))
        if not files:
            raise errors.NotFoundError(
                None, None, "Unsuccessful TensorSliceReader constructor: Failed to find any "
                "matching files for %s" % pattern)
        self.entries = {}
        for path in files:
            for meta in self._metas(path):
                self._register(meta)

    @staticmethod
    def _metas(path):
        try:
            table = _Table(path)
        except errors.DataLossError as e:
            reason = e.message.split(": ", 1)[-1].rsplit(" (file ", 1)[0]
            raise errors.DataLossError(None, None, (
                "Unable to open table file %s: DATA_LOSS: %s: perhaps your file is in a "
                "different file format and you need to use a different restore operator?")
                % (path, reason)) from None
        sts = saved_tensor_slice_pb2.SavedTensorSlices()
        head = table.entries[0] if table.entries else (None, None)
        try:
            if head[0] != b"":
                raise ValueError("no meta")
            sts.ParseFromString(head[1])
        except Exception:  # noqa: BLE001 - protobuf's DecodeError
            raise errors.InternalError(
                None, None, "Failed to find the saved tensor slices at the beginning of the "
                "checkpoint file: %s" % path) from None
        return sts.meta.tensor

    def _register(self, meta):
        shape = [d.size for d in meta.shape.dim]
        old = self.entries.get(meta.name)
        if old is None:
            self.entries[meta.name] = (shape, meta.type, len(meta.slice))
            return
        if old[0] != shape:
            raise errors.InternalError(
                None, None, "Incompatible tensor shapes detected for tensor %s: existing = "
                "[%s], new = [%s]" % (meta.name, ",".join(map(str, old[0])),
                                      ",".join(map(str, shape))))
        if old[1] != meta.type:
            raise errors.InternalError(
                None, None, "Incompatible tensor types detected for tensor %s: existing = %s, "
                "new = %s" % (meta.name, dtypes.as_dtype(old[1]).name,
                              dtypes.as_dtype(meta.type).name))
        self.entries[meta.name] = (shape, old[1], old[2] + len(meta.slice))


class CheckpointReader:
    """The variables of one V2 checkpoint, or of the V1 files matching a pattern
    (TensorFlow's CheckpointReader).

    Raises NotFoundError "Unsuccessful TensorSliceReader constructor: Failed to find any
    matching files for <prefix>" when `<prefix>.index` is missing, DataLossError for a
    corrupt index.
    """

    def __init__(self, prefix):
        if isinstance(prefix, bytes):
            prefix = prefix.decode()
        self._prefix = prefix
        self._session = None
        self._reads = {}
        self._v1 = None
        if not glob.glob(_index_name(prefix)):
            self._v1 = _V1Meta(prefix)
            self._entries = {k: tensor_bundle_pb2.BundleEntryProto(dtype=v[1])
                             for k, v in self._v1.entries.items()}
            for k, v in self._v1.entries.items():
                for d in v[0]:
                    self._entries[k].shape.dim.add(size=d)
            return
        table = _Table(_index_name(prefix))
        self._entries = {}
        self._check_shards(table)
        for key, value in table.entries:
            # "" holds the BundleHeaderProto; keys of stored slices start with OrderedCode's
            # byte 0 and are listed in their tensor's entry instead.
            if not key or key[:1] == b"\x00":
                continue
            entry = tensor_bundle_pb2.BundleEntryProto()
            try:
                entry.ParseFromString(value)
            except Exception:  # noqa: BLE001 - protobuf's DecodeError
                raise errors.DataLossError(None, None, "Entry for key %s not parseable."
                                           % key.decode(errors="replace")) from None
            self._entries[key.decode()] = entry

    def _check_shards(self, table):
        """TensorFlow's BundleReader opens every data shard the header counts: a missing one
        is NotFoundError "<shard path>; No such file or directory"."""
        header = tensor_bundle_pb2.BundleHeaderProto()
        for key, value in table.entries:
            if not key:
                try:
                    header.ParseFromString(value)
                except Exception:  # noqa: BLE001 - protobuf's DecodeError
                    raise errors.DataLossError(None, None, "Unable to parse header") from None
                break
        for shard in range(header.num_shards):
            path = "%s.data-%05d-of-%05d" % (self._prefix, shard, header.num_shards)
            if not os.path.exists(path):
                raise errors.NotFoundError(None, None, "%s; No such file or directory" % path)

    def has_tensor(self, name):
        """True when the checkpoint holds a tensor named `name`."""
        return name in self._entries

    def get_variable_to_shape_map(self):
        """{name: shape as a list of ints} for every tensor (a sliced one's full shape)."""
        return {k: [d.size for d in e.shape.dim] for k, e in self._entries.items()}

    def get_variable_to_dtype_map(self):
        """{name: tf.DType} for every tensor."""
        return {k: dtypes.as_dtype(e.dtype) for k, e in self._entries.items()}

    def debug_string(self):
        """One line per tensor, "name (DT_FLOAT) [2,3]", in key order (bytes)."""
        lines = []
        for k in sorted(self._entries):
            e = self._entries[k]
            dt = dtypes.as_dtype(e.dtype)
            nslices = self._v1.entries[k][2] if self._v1 else 0
            lines.append("%s (DT_%s) [%s]%s\n" % (
                k, _dt_enum_name(dt), ",".join(str(d.size) for d in e.shape.dim),
                ", %d slices" % nslices if nslices > 1 else ""))
        return "".join(lines).encode()

    def get_tensor(self, tensor_str):
        """The value of tensor `tensor_str` as a NumPy array (a NumPy scalar for a 0-d
        tensor; bytes objects for strings). NotFoundError "Key <name> not found in
        checkpoint" for a missing name; DataLossError for corrupt data."""
        if isinstance(tensor_str, bytes):
            tensor_str = tensor_str.decode()
        if self._v1 is not None:
            self._check_v1_get(tensor_str)
        if tensor_str not in self._entries:
            raise errors.NotFoundError(None, None,
                                       "Key %s not found in checkpoint" % tensor_str)
        dt = dtypes.as_dtype(self._entries[tensor_str].dtype)
        sess, name_ph, read = self._reader_for(dt)
        try:
            value = sess.run(read, {name_ph: np.array([tensor_str], dtype=object)})
        except errors.OpError as e:
            # The runtime's own message is the last line of Session.run's "Graph execution
            # error" text.
            lines = [ln for ln in e.message.splitlines() if ln.strip()]
            raise type(e)(None, None, lines[-1] if lines else e.message) from None
        return value

    def _check_v1_get(self, name):
        """What TensorSliceReader::GetTensor refuses: a missing name, several slices, a
        dtype it does not read."""
        if name not in self._v1.entries:
            raise errors.NotFoundError(None, None, "%s not found in checkpoint file" % name)
        _, dt, nslices = self._v1.entries[name]
        if nslices > 1:
            raise errors.UnimplementedError(None, None, "Sliced checkpoints are not supported")
        if dt not in _V1_GET_DTYPES:
            raise errors.UnimplementedError(None, None, "Data type not supported")

    def _reader_for(self, dt):
        from minitf.client.session import Session
        from minitf.framework import ops
        from minitf.framework.op_def_library import apply_op, outputs_of
        from minitf.ops import array_ops
        if self._session is None:
            self._graph = ops.Graph()
            self._session = Session(graph=self._graph)
        if dt not in self._reads:
            with self._graph.as_default():
                names = array_ops.placeholder(dtypes.string, [1])
                read = outputs_of(apply_op("RestoreV2", prefix=self._prefix,
                                           tensor_names=names, shape_and_slices=[""],
                                           dtypes=[dt]))
                read = read[0] if isinstance(read, (list, tuple)) else read
            self._reads[dt] = (names, read)
        return (self._session,) + self._reads[dt]

    def __del__(self):
        s = getattr(self, "_session", None)
        if s is not None:
            try:
                s.close()
            except Exception:  # noqa: BLE001 - interpreter shutdown
                pass


def _dt_enum_name(dt):
    from minitf.core.framework import types_pb2
    return types_pb2.DataType.Name(dt.as_datatype_enum)[3:]


def NewCheckpointReader(filepattern):
    """A CheckpointReader for the checkpoint prefix `filepattern`
    (tf.compat.v1.train.NewCheckpointReader)."""
    return CheckpointReader(filepattern)
