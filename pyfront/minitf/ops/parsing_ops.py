"""Byte-level decoders and file ops: tf.io.decode_raw, serialize_tensor / parse_tensor,
encode_base64 / decode_base64, read_file / write_file, matching_files (TensorFlow's
ops/parsing_ops.py, io_ops.py and the generated gen_string_ops / gen_io_ops wrappers).
Kernels are C (runtime/kernels/parsing_ops.c, runtime/kernels/io_ops.c)."""
from minitf.framework import dtypes
from minitf.framework.op_def_library import apply_op


def _out(op):
    return op.outputs[0]


def decode_raw(input_bytes=None, out_type=None, little_endian=True, name=None, bytes=None):  # noqa: A002
    """Reinterprets the bytes of each string of `input_bytes` as a vector of `out_type`
    (tf.compat.v1.decode_raw / tf.compat.v1.io.decode_raw; op DecodeRaw).

    Output shape: input shape + [length / size of out_type] (+ [0] when the input is empty
    or its strings are). `bytes` is the deprecated name of `input_bytes` (give one).
    little_endian: the byte order of the data (each element, or each half of a complex, is
    reversed when False). InvalidArgumentError at run time when the strings' lengths differ
    or are not a multiple of the element size.
    """
    if input_bytes is None:
        input_bytes = bytes
    elif bytes is not None:
        raise ValueError("Cannot specify both 'input_bytes' and 'bytes'.")
    return _out(apply_op("DecodeRaw", bytes=input_bytes, out_type=dtypes.as_dtype(out_type),
                         little_endian=little_endian, name=name))


def serialize_tensor(tensor, name=None):
    """A scalar string: `tensor` as a serialized TensorProto (tf.io.serialize_tensor; op
    SerializeTensor), values in tensor_content (string_val for strings) as TensorFlow."""
    return _out(apply_op("SerializeTensor", tensor=tensor, name=name))


def parse_tensor(serialized, out_type, name=None):
    """The tensor a serialized TensorProto (scalar string) holds (tf.io.parse_tensor; op
    ParseTensor); shape unknown until run time. InvalidArgumentError at run time when the
    bytes are not a TensorProto or its dtype is not `out_type`."""
    return _out(apply_op("ParseTensor", serialized=serialized,
                         out_type=dtypes.as_dtype(out_type), name=name))


def encode_base64(input, pad=False, name=None):  # noqa: A002 - TensorFlow's name
    """Web-safe base64 ('-', '_') of each string, '=' padded when `pad`
    (tf.io.encode_base64; op EncodeBase64). Same shape as `input`."""
    return _out(apply_op("EncodeBase64", input=input, pad=pad, name=name))


def decode_base64(input, name=None):  # noqa: A002 - TensorFlow's name
    """Decodes web-safe base64 strings, padded or not (tf.io.decode_base64; op
    DecodeBase64). InvalidArgumentError at run time for a character outside the web-safe
    alphabet ("Invalid character found in base64.") or a length of 1 modulo 4."""
    return _out(apply_op("DecodeBase64", input=input, name=name))


def read_file(filename, name=None):
    """The bytes of the file named by the scalar string `filename` (tf.io.read_file; op
    ReadFile). NotFoundError at run time for a missing file ("<path>; No such file or
    directory"), FailedPreconditionError for a directory."""
    return _out(apply_op("ReadFile", filename=filename, name=name))


def write_file(filename, contents, name=None):
    """Writes the scalar string `contents` to the file `filename`, creating its directory
    (tf.io.write_file; op WriteFile). Returns the Operation."""
    return apply_op("WriteFile", filename=filename, contents=contents, name=name)


def matching_files(pattern, name=None):
    """A 1-D string tensor of the files matching the glob `pattern` (a scalar or a vector
    of patterns), sorted (tf.io.matching_files; op MatchingFiles). No match gives an empty
    vector."""
    return _out(apply_op("MatchingFiles", pattern=pattern, name=name))
