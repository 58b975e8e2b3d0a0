"""TF1 readers: tf.ReaderBase, WholeFileReader, TextLineReader, FixedLengthRecordReader,
IdentityReader (TensorFlow 2.21's io_ops.py, graph mode, over the V2 reader ops of
runtime/kernels/reader_ops.c).

A reader takes work items (file names) from a string queue (a QueueBase or its handle) and
yields (key, value) string records: `read` one (ReaderReadV2), `read_up_to` a batch
(ReaderReadUpToV2). Errors at run time: OutOfRangeError once the queue is closed and empty,
NotFoundError for a missing file ("<path>; No such file or directory"), CancelledError /
DeadlineExceededError for a read blocked on its queue when the session closes or the run's
timeout passes. TFRecordReader is not here yet (it needs the TFRecord format).
"""
from minitf.framework import ops
from minitf.framework.op_def_library import apply_op, outputs_of


def _op(op_type, name=None, **kw):
    return outputs_of(apply_op(op_type, name=name, **kw))


def _queue_ref(queue):
    return queue if isinstance(queue, ops.Tensor) else queue.queue_ref


class ReaderBase:
    """Base class of the readers (tf.ReaderBase): wraps a reader resource handle.

    Args:
      reader_ref: the resource tensor a reader op made.
      supports_serialize: whether serialize_state/restore_state are supported (TF's flag).
    """

    def __init__(self, reader_ref, supports_serialize=False):
        self._reader_ref = reader_ref
        self._supports_serialize = supports_serialize

    @property
    def reader_ref(self):
        """The reader's resource handle tensor."""
        return self._reader_ref

    def read(self, queue, name=None):
        """The next (key, value) record: two scalar string tensors (ReaderReadV2). Takes a new
        work item from `queue` (a queue or its handle) when the current one is done."""
        return _op("ReaderReadV2", name=name, reader_handle=self._reader_ref,
                   queue_handle=_queue_ref(queue))

    def read_up_to(self, queue, num_records, name=None):
        """Up to `num_records` records: (keys, values), 1-D string tensors
        (ReaderReadUpToV2); fewer when the queue closes after at least one."""
        return _op("ReaderReadUpToV2", name=name, reader_handle=self._reader_ref,
                   queue_handle=_queue_ref(queue), num_records=num_records)

    def num_records_produced(self, name=None):
        """Scalar int64: records read so far (ReaderNumRecordsProducedV2)."""
        return _op("ReaderNumRecordsProducedV2", name=name, reader_handle=self._reader_ref)

    def num_work_units_completed(self, name=None):
        """Scalar int64: work items finished so far (ReaderNumWorkUnitsCompletedV2)."""
        return _op("ReaderNumWorkUnitsCompletedV2", name=name, reader_handle=self._reader_ref)

    def serialize_state(self, name=None):
        """Scalar string: the ReaderBaseState proto (ReaderSerializeStateV2); UnimplementedError
        at run time for the text-line and fixed-length readers, as TensorFlow."""
        return _op("ReaderSerializeStateV2", name=name, reader_handle=self._reader_ref)

    def restore_state(self, state, name=None):
        """Restores a serialized state (ReaderRestoreStateV2): InvalidArgumentError for
        bytes that are not a ReaderBaseState, UnimplementedError as serialize_state."""
        return _op("ReaderRestoreStateV2", name=name, reader_handle=self._reader_ref,
                   state=state)

    @property
    def supports_serialize(self):
        """Whether the reader declares serialize_state support (TensorFlow's flag)."""
        return self._supports_serialize

    def reset(self, name=None):
        """Drops the current work item and zeroes the counters (ReaderResetV2)."""
        return _op("ReaderResetV2", name=name, reader_handle=self._reader_ref)


class WholeFileReader(ReaderBase):
    """A reader that outputs a whole file as one record: key = the file name, value = its
    bytes (WholeFileReaderV2)."""

    def __init__(self, name=None):
        super().__init__(_op("WholeFileReaderV2", name=name), supports_serialize=True)


class TextLineReader(ReaderBase):
    """A reader that outputs the lines of a file ("\\n" and a trailing "\\r" removed); key =
    "<file>:<line number>" counted from 1 (TextLineReaderV2).

    Args: skip_header_lines: lines skipped at the start of each file (int >= 0)."""

    def __init__(self, skip_header_lines=None, name=None):
        kw = {} if skip_header_lines is None else {"skip_header_lines": skip_header_lines}
        super().__init__(_op("TextLineReaderV2", name=name, **kw))


class FixedLengthRecordReader(ReaderBase):
    """A reader of fixed-length records: after `header_bytes`, records of `record_bytes`
    every `hop_bytes` (or back to back), stopping before `footer_bytes`; key =
    "<file>:<record number>" counted from 0 (FixedLengthRecordReaderV2). encoding "ZLIB" or
    "GZIP" reads compressed files (the offsets are of the decompressed bytes); corrupt data
    is DataLossError at run time."""

    def __init__(self, record_bytes, header_bytes=None, footer_bytes=None, hop_bytes=None,
                 name=None, encoding=None):
        kw = {k: v for k, v in (("header_bytes", header_bytes), ("footer_bytes", footer_bytes),
                                ("hop_bytes", hop_bytes), ("encoding", encoding))
              if v is not None}
        super().__init__(_op("FixedLengthRecordReaderV2", name=name, record_bytes=record_bytes,
                             **kw))


class IdentityReader(ReaderBase):
    """A reader that outputs each work item as both key and value (IdentityReaderV2)."""

    def __init__(self, name=None):
        super().__init__(_op("IdentityReaderV2", name=name), supports_serialize=True)
