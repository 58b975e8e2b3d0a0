"""TFRecord files from Python: tf.io.TFRecordWriter, tf_record_iterator, TFRecordOptions,
TFRecordCompressionType (TensorFlow's python/lib/io/tf_record.py, tf.compat.v1.io and
tf.compat.v1.python_io).

The format and the compression are C (runtime/record_io.c, through the SWIG module's
MT_RecordWriter / MT_RecordReader): files are byte for byte TensorFlow's, ZLIB and GZIP
streams included, and corruption is a DataLossError naming the file and offset.
"""
from minitf import pywrap_tensorflow_internal as _c

_DEFAULT = _c.MT_RECORD_OPTION_DEFAULT


def _as_bytes(value):
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError("Expected binary or unicode string, got %r" % (value,))


def _as_str(path):
    if hasattr(path, "__fspath__"):
        path = path.__fspath__()
    return path.decode("utf-8") if isinstance(path, bytes) else str(path)


class TFRecordCompressionType(object):
    """The type of compression for the record (tf.compat.v1.io.TFRecordCompressionType)."""
    NONE = 0
    ZLIB = 1
    GZIP = 2


class TFRecordOptions(object):
    """Options for TFRecord files (tf.io.TFRecordOptions): the compression type and
    zlib's settings (TensorFlow's ZlibCompressionOptions). An option left None keeps
    TensorFlow's default (buffers of 256 KiB, Z_NO_FLUSH, window bits 15, or 31 for GZIP,
    Z_DEFAULT_COMPRESSION, Z_DEFLATED, mem_level 9, Z_DEFAULT_STRATEGY); options only
    affect writers that compress.

    Args:
      compression_type: "GZIP", "ZLIB", "" / None, or a TFRecordCompressionType value.
    Raises:
      ValueError: for an unknown compression_type.
    """
    compression_type_map = {
        TFRecordCompressionType.ZLIB: "ZLIB",
        TFRecordCompressionType.GZIP: "GZIP",
        TFRecordCompressionType.NONE: "",
    }

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None,
                 output_buffer_size=None, window_bits=None, compression_level=None,
                 compression_method=None, mem_level=None, compression_strategy=None):
        self.get_compression_type_string(compression_type)
        self.compression_type = compression_type
        self.flush_mode = flush_mode
        self.input_buffer_size = input_buffer_size
        self.output_buffer_size = output_buffer_size
        self.window_bits = window_bits
        self.compression_level = compression_level
        self.compression_method = compression_method
        self.mem_level = mem_level
        self.compression_strategy = compression_strategy

    @classmethod
    def get_compression_type_string(cls, options):
        """'ZLIB', 'GZIP' or '' for a TFRecordOptions, a TFRecordCompressionType value or
        a string (ValueError otherwise)."""
        if not options:
            return ""
        if isinstance(options, TFRecordOptions):
            return cls.get_compression_type_string(options.compression_type)
        if isinstance(options, TFRecordCompressionType):
            return cls.compression_type_map[options]
        if options in TFRecordOptions.compression_type_map:
            return cls.compression_type_map[options]
        if options in TFRecordOptions.compression_type_map.values():
            return options
        raise ValueError('Not a valid compression_type: "{}"'.format(options))

    def _zlib_values(self):
        """The zlib options in the C API's order, None as the C default marker."""
        fields = (self.flush_mode, self.input_buffer_size, self.output_buffer_size,
                  self.window_bits, self.compression_level, self.compression_method,
                  self.mem_level, self.compression_strategy)
        return [_DEFAULT if v is None else int(v) for v in fields]


class _RecordIterator(object):
    """Iterates over the records of one file (bytes each); closes the file at the end."""

    def __init__(self, path, compression_type):
        self._reader = None
        self._reader = _c.MT_NewRecordReader(_as_str(path), compression_type, 0)

    def __iter__(self):
        return self

    def __next__(self):
        if self._reader is None:
            raise StopIteration
        record = _c.MT_RecordReaderNextPy(self._reader)
        if record is None:
            self.close()
            raise StopIteration
        return record

    next = __next__

    def close(self):
        """Closes the file (iteration then ends)."""
        if self._reader is not None:
            _c.MT_DeleteRecordReader(self._reader)
            self._reader = None

    def __del__(self):
        if getattr(self, "_reader", None) is not None:
            self.close()


def tf_record_iterator(path, options=None):
    """An iterator over the serialized records of a TFRecord file
    (tf.compat.v1.io.tf_record_iterator / tf.compat.v1.python_io.tf_record_iterator).

    Args:
      path: the file's path (str, bytes or os.PathLike).
      options: None, a TFRecordOptions, a TFRecordCompressionType value or a string
        ("", "ZLIB", "GZIP").
    Returns:
      An iterator yielding each record as bytes.
    Raises:
      NotFoundError (or another OpError subclass) when `path` cannot be opened;
      DataLossError while iterating over a truncated or corrupted record (the message
      names the file and the record's offset); ValueError for a bad compression type.
    """
    compression_type = TFRecordOptions.get_compression_type_string(options)
    return _RecordIterator(path, compression_type)


class TFRecordWriter(object):
    """Writes records to a TFRecord file (tf.io.TFRecordWriter /
    tf.compat.v1.python_io.TFRecordWriter); a context manager that closes the file.

    Args:
      path: the file to create (truncated when it exists).
      options: None, a compression type string / TFRecordCompressionType value, or a
        TFRecordOptions.
    Raises:
      NotFoundError / PermissionDeniedError ... when the file cannot be created;
      ValueError for a bad compression type; InvalidArgumentError for zlib options zlib
      refuses.
    """

    def __init__(self, path, options=None):
        if not isinstance(options, TFRecordOptions):
            options = TFRecordOptions(compression_type=options)
        kind = TFRecordOptions.get_compression_type_string(options)
        self._writer = _c.MT_NewRecordWriter(_as_str(path), kind, options._zlib_values())

    def write(self, record):
        """Appends one record (bytes or str). FailedPreconditionError once closed."""
        if self._writer is None:
            from minitf.framework import errors
            raise errors.FailedPreconditionError(None, None, "Writer is closed.")
        _c.MT_RecordWriterWrite(self._writer, _as_bytes(record))

    def flush(self):
        """Writes buffered records to the file (a partial flush of a compressed stream)."""
        if self._writer is not None:
            _c.MT_RecordWriterFlush(self._writer)

    def close(self):
        """Finishes and closes the file; later closes do nothing."""
        if self._writer is not None:
            writer, self._writer = self._writer, None
            try:
                _c.MT_RecordWriterClose(writer)
            finally:
                _c.MT_DeleteRecordWriter(writer)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_writer", None) is not None:
            _c.MT_DeleteRecordWriter(self._writer)
            self._writer = None
