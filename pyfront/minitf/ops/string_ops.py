"""String ops: tf.strings.join, tf.strings.regex_full_match, tf.strings.regex_replace and
their v1 names (TensorFlow's ops/string_ops.py). Kernels are C (runtime/kernels/string_ops.c);
patterns are RE2's syntax, as in TensorFlow."""
from minitf.framework import ops
from minitf.framework.op_def_library import apply_op


def _out(op):
    return op.outputs[0]


def string_join(inputs, separator="", name=None):
    """Joins the strings of `inputs` element by element with `separator`
    (tf.strings.join / tf.compat.v1.string_join; op StringJoin).

    inputs: a list of string tensors, each a scalar or of one common shape (scalars are
    repeated). Returns a string tensor of that shape (a scalar when all are scalars).
    InvalidArgumentError at run time when two non-scalar shapes differ ("Input shapes do
    not match: [2] vs. [3]"); ValueError when it is known at construction.
    """
    if isinstance(inputs, ops.Tensor):
        inputs = [inputs]
    return _out(apply_op("StringJoin", inputs=list(inputs), separator=separator, name=name))


def regex_full_match(input, pattern, name=None):  # noqa: A002 - TensorFlow's name
    """A bool tensor of `input`'s shape: whether each string matches `pattern` whole
    (tf.strings.regex_full_match). A Python string pattern becomes op StaticRegexFullMatch
    (the pattern an attr), a tensor (scalar string) op RegexFullMatch. A bad pattern is an
    InvalidArgumentError at run time ("Invalid pattern: a(b, error: missing ): a(b")."""
    if isinstance(pattern, (str, bytes)):
        return _out(apply_op("StaticRegexFullMatch", input=input, pattern=pattern, name=name))
    return _out(apply_op("RegexFullMatch", input=input, pattern=pattern, name=name))


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    """`input` (string tensor) with the matches of `pattern` replaced by `rewrite` (\\0 the
    match, \\1..\\9 its groups), every match or only the first (replace_global=False)
    (tf.strings.regex_replace / tf.compat.v1.regex_replace). Python strings for both
    pattern and rewrite give op StaticRegexReplace, else op RegexReplace (scalar string
    tensors). Errors: InvalidArgumentError for a bad pattern or a non-scalar pattern or
    rewrite tensor."""
    if isinstance(pattern, (str, bytes)) and isinstance(rewrite, (str, bytes)):
        return _out(apply_op("StaticRegexReplace", input=input, pattern=pattern,
                             rewrite=rewrite, replace_global=replace_global, name=name))
    return _out(apply_op("RegexReplace", input=input, pattern=pattern, rewrite=rewrite,
                         replace_global=replace_global, name=name))


join = string_join


# ---- the rest of tf.strings (kernels in runtime/kernels/string/) ----

import numpy as _np  # noqa: E402

from minitf.framework import constant_op as _constant_op  # noqa: E402
from minitf.framework import dtypes as _dtypes  # noqa: E402
from minitf.framework import sparse_tensor as _sparse_tensor  # noqa: E402


def _lookup(new_name, new_value, old_name, old_value):
    """TF's deprecation.deprecated_argument_lookup: the one of two aliases given."""
    if old_value is not None:
        if new_value is not None:
            raise ValueError("Cannot specify both '%s' and '%s'" % (old_name, new_name))
        return old_value
    return new_value


def _sparse(op):
    indices, values, shape = op.outputs
    indices.set_shape([None, 2])
    values.set_shape([None])
    shape.set_shape([2])
    return _sparse_tensor.SparseTensor(indices, values, shape)


def string_split(source, sep=None, skip_empty=True, delimiter=None,
                 result_type="SparseTensor", name=None):
    """Splits each string of the 1-D string tensor `source` at any byte of `sep` (each byte
    on its own when `sep` is ''; default ' '), dropping empty tokens when skip_empty
    (tf.compat.v1.string_split; op StringSplit). `delimiter` is the deprecated alias of sep.

    Returns a SparseTensor: indices int64 [n, 2] (row, token), values string [n],
    dense_shape int64 [2] = [rows, most tokens]. result_type 'RaggedTensor' is not
    available (minitf has no RaggedTensor): NotImplementedError. Errors: ValueError for an
    unknown result_type; InvalidArgumentError at run time when source is not a vector or
    sep not a scalar.
    """
    delimiter = _lookup("sep", sep, "delimiter", delimiter)
    with ops.name_scope(name, "StringSplit", [source]):
        if delimiter is None:
            delimiter = " "
        delimiter = ops.convert_to_tensor(delimiter, dtype=_dtypes.string)
        source = ops.convert_to_tensor(source, dtype=_dtypes.string)
        result = _sparse(apply_op("StringSplit", input=source, delimiter=delimiter,
                                  skip_empty=skip_empty))
        return _result_of(result, result_type)


def _result_of(sparse, result_type):
    if result_type == "SparseTensor":
        return sparse
    if result_type == "RaggedTensor":
        raise NotImplementedError("minitf has no RaggedTensor; use result_type='SparseTensor'")
    raise ValueError("result_type must be 'RaggedTensor' or 'SparseTensor'.")


def strings_split_v1(input=None, sep=None, maxsplit=-1,  # noqa: A002 - TensorFlow's name
                     result_type="SparseTensor", source=None, name=None):
    """Splits each string of `input` (a scalar or 1-D string tensor; `source` the
    deprecated alias) at `sep`, as Python's str.split: sep None or '' splits at runs of
    whitespace, else at each occurrence of sep (empty tokens kept); at most `maxsplit`
    splits when >= 0 (tf.compat.v1.strings.split; op StringSplitV2).

    Returns a SparseTensor (indices int64 [n, 2], values string [n], dense_shape int64 [2]).
    Inputs of rank > 1 and result_type 'RaggedTensor' need RaggedTensor, which minitf lacks:
    NotImplementedError.
    """
    input = _lookup("input", input, "source", source)  # noqa: A001
    with ops.name_scope(name, "StringSplit", [input]):
        input = ops.convert_to_tensor(input, dtype=_dtypes.string, name="input")  # noqa: A001
        if input.shape.rank == 0:
            from minitf.ops import array_ops
            input = array_ops.expand_dims(input, 0)  # noqa: A001
        if input.shape.rank not in (None, 1):
            raise NotImplementedError("minitf's strings.split takes scalars and vectors only")
        if result_type not in ("SparseTensor", "RaggedTensor"):
            raise ValueError("result_type must be 'RaggedTensor' or 'SparseTensor'.")
        if sep is None:
            sep = ""
        sep = ops.convert_to_tensor(sep, dtype=_dtypes.string)
        result = _sparse(apply_op("StringSplitV2", input=input, sep=sep, maxsplit=maxsplit))
        return _result_of(result, result_type)


def _reduce_join_reduction_dims(x, axis):
    if axis is not None:
        return axis
    if x.shape.rank is not None:
        return _constant_op.constant(_np.arange(x.shape.rank - 1, -1, -1), dtype=_dtypes.int32)
    from minitf.ops import array_ops
    return array_ops.range(array_ops.rank(x) - 1, -1, -1)


def reduce_join(inputs, axis=None, keep_dims=None, separator="", name=None,
                reduction_indices=None, keepdims=None):
    """Joins the strings of `inputs` along `axis` (int or list of ints, negative from the
    end; None: all axes) with `separator`, in row-major order (tf.compat.v1.reduce_join /
    tf.compat.v1.strings.reduce_join; op ReduceJoin). keep_dims / reduction_indices are
    the deprecated aliases of keepdims / axis.

    Returns a string tensor of the input's shape without the reduced axes (size 1 with
    keepdims). Errors at run time: OutOfRangeError for an axis outside [-rank, rank)
    ("Invalid reduction dimension 2 for input with 2 dimension(s)"),
    InvalidArgumentError for a repeated one ("Duplicate reduction dimension -1").
    """
    keepdims = _lookup("keepdims", keepdims, "keep_dims", keep_dims)
    if keepdims is None:
        keepdims = False
    axis = _lookup("axis", axis, "reduction_indices", reduction_indices)
    with ops.name_scope(None, "ReduceJoin", [inputs, axis]):
        inputs_t = ops.convert_to_tensor(inputs)
        axis = _reduce_join_reduction_dims(inputs_t, axis)
        return _out(apply_op("ReduceJoin", inputs=inputs_t, reduction_indices=axis,
                             keep_dims=keepdims, separator=separator, name=name))


def string_length(input, name=None, unit="BYTE"):  # noqa: A002 - TensorFlow's name
    """int32 tensor of `input`'s shape: the length of each string in bytes (unit 'BYTE') or
    in UTF-8 characters ('UTF8_CHAR') (tf.compat.v1.strings.length; op StringLength)."""
    return _out(apply_op("StringLength", input=input, unit=unit, name=name))


def substr(input, pos, len, name=None, unit="BYTE"):  # noqa: A002 - TensorFlow's names
    """Substrings of `input`: `len` units from `pos` (negative pos counts from the end; a
    negative len runs to the end), units bytes or UTF-8 characters (unit 'UTF8_CHAR')
    (tf.compat.v1.substr / tf.compat.v1.strings.substr; op Substr).

    pos and len: int32 or int64 of one shape, which broadcasts with input's; the result
    has the broadcast shape. InvalidArgumentError at run time when a pos lies outside its
    string ("pos 4 out of range for string b'abc' at index 0").
    """
    return _out(apply_op("Substr", input=input, pos=pos, len=len, unit=unit, name=name))


def string_strip(input, name=None):  # noqa: A002 - TensorFlow's name
    """`input` (string tensor) with leading and trailing ASCII whitespace removed
    (tf.compat.v1.string_strip / tf.strings.strip; op StringStrip)."""
    return _out(apply_op("StringStrip", input=input, name=name))


def string_lower(input, encoding="", name=None):  # noqa: A002 - TensorFlow's name
    """`input` with ASCII letters lower-cased (tf.strings.lower; op StringLower). minitf
    maps ASCII only: encoding 'utf-8' (ICU case mapping in TF) is an UnimplementedError
    at run time."""
    return _out(apply_op("StringLower", input=input, encoding=encoding, name=name))


def string_upper(input, encoding="", name=None):  # noqa: A002 - TensorFlow's name
    """`input` with ASCII letters upper-cased (tf.strings.upper; op StringUpper); see
    string_lower for `encoding`."""
    return _out(apply_op("StringUpper", input=input, encoding=encoding, name=name))


def string_to_number(string_tensor=None, out_type=_dtypes.float32, name=None,
                     input=None):  # noqa: A002 - TensorFlow's name
    """Parses each string of `string_tensor` (`input` its alias) as a number of `out_type`
    (float32, float64, int32, int64, uint32, uint64), surrounding whitespace allowed
    (tf.compat.v1.string_to_number / tf.compat.v1.strings.to_number; op StringToNumber).
    InvalidArgumentError at run time for a string that is not one ("StringToNumberOp could
    not correctly convert string: abc"), or out of an integer type's range."""
    string_tensor = _lookup("input", input, "string_tensor", string_tensor)
    return _out(apply_op("StringToNumber", string_tensor=string_tensor, out_type=out_type,
                         name=name))


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1,  # noqa: A002
              fill="", name=None):
    """Each element of `input` (numbers, bool, complex or string) as a string, printf-style:
    `precision` digits, scientific (%e) or shortest (%g) notation for floats, padded to
    `width` with `fill` (one of ' +-0#') (tf.as_string / tf.strings.as_string; op
    AsString). InvalidArgumentError at run time for attrs that do not fit the dtype
    ("precision not supported for datatype int32") or a fill longer than one character."""
    return _out(apply_op("AsString", input=input, precision=precision, scientific=scientific,
                         shortest=shortest, width=width, fill=fill, name=name))


def string_to_hash_bucket(string_tensor=None, num_buckets=None, name=None,
                          input=None):  # noqa: A002 - TensorFlow's name
    """int64 tensor: each string's legacy Hash64 modulo num_buckets
    (tf.compat.v1.string_to_hash_bucket; op StringToHashBucket). TF prefers the _fast
    form; the values equal TensorFlow's bit for bit."""
    string_tensor = _lookup("input", input, "string_tensor", string_tensor)
    return _out(apply_op("StringToHashBucket", string_tensor=string_tensor,
                         num_buckets=num_buckets, name=name))


def string_to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002
    """int64 tensor: each string's FarmHash Fingerprint64 modulo num_buckets (>= 1)
    (tf.strings.to_hash_bucket_fast; op StringToHashBucketFast)."""
    return _out(apply_op("StringToHashBucketFast", input=input, num_buckets=num_buckets,
                         name=name))


def string_to_hash_bucket_strong(input, num_buckets, key, name=None):  # noqa: A002
    """int64 tensor: each string's SipHash-2-4 under the 128-bit `key` (two ints) modulo
    num_buckets (tf.strings.to_hash_bucket_strong; op StringToHashBucketStrong).
    InvalidArgumentError at run time unless key has 2 elements."""
    return _out(apply_op("StringToHashBucketStrong", input=input, num_buckets=num_buckets,
                         key=list(key), name=name))


def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None):
    """Joins the rows of `inputs` that share a segment id with `separator`, in order
    (tf.strings.unsorted_segment_join; op UnsortedSegmentJoin). segment_ids (int32/int64)
    must be a prefix of inputs' shape; the result is [num_segments] + the rest of it, ''
    for segments no row names. InvalidArgumentError at run time for an id outside
    [0, num_segments)."""
    return _out(apply_op("UnsortedSegmentJoin", inputs=inputs, segment_ids=segment_ids,
                         num_segments=num_segments, separator=separator, name=name))


def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None,
           preserve_short_sequences=False, name=None):
    """The n-grams of the last axis of the dense string tensor `data` (rank >= 1, known
    rank): for each width of `ngram_width` (int or list), the runs of that many strings
    joined with `separator`, the sequence padded with pad_values (a string or a
    (left, right) pair) padding_width times (None: width - 1; no padding without
    pad_values) (tf.strings.ngrams; op StringNGrams). Rank 1 gives a 1-D tensor; rank > 1
    gives data's shape with the last axis the n-gram count, the dense form TF returns for
    a tensor. Ragged inputs are not available (minitf has no RaggedTensor). TypeError for
    a bad pad_values; ValueError for a bad padding_width, or data of rank 0 or unknown
    rank."""
    from minitf.ops import array_ops
    with ops.name_scope(name, "StringNGrams", [data]):
        if pad_values is None:
            left_pad = right_pad = ""
        elif isinstance(pad_values, (list, tuple)):
            if (not isinstance(pad_values[0], (str, bytes))
                    or not isinstance(pad_values[1], (str, bytes))):
                raise TypeError("pad_values must be a string, tuple of strings, or None.")
            left_pad, right_pad = pad_values
        else:
            if not isinstance(pad_values, (str, bytes)):
                raise TypeError("pad_values must be a string, tuple of strings, or None.")
            left_pad = right_pad = pad_values
        if padding_width is not None and padding_width < 1:
            raise ValueError("padding_width must be greater than 0.")
        if padding_width is not None and pad_values is None:
            raise ValueError("pad_values must be provided if padding_width is set.")
        data = ops.convert_to_tensor(data, name="data", dtype=_dtypes.string)
        widths = [ngram_width] if isinstance(ngram_width, int) else list(ngram_width)
        rank = data.shape.rank
        if rank is None:
            raise ValueError("Rank of data must be known.")
        if rank == 0:
            raise ValueError("Data must have rank>0")
        row = data.shape[-1] if rank > 1 else None
        if rank > 1 and row is None:
            raise NotImplementedError("minitf's ngrams needs the last axis' size")
        flat = array_ops.reshape(data, [-1])
        n = data.shape.num_elements()
        if rank == 1:
            splits = array_ops.stack([_constant_op.constant(0, _dtypes.int64),
                                      array_ops.size(flat, out_type=_dtypes.int64)])
        elif n is not None:
            splits = _constant_op.constant(_np.arange(0, n + 1, max(row, 1)), _dtypes.int64)
        else:
            splits = array_ops.range(_constant_op.constant(0, _dtypes.int64),
                                    array_ops.size(flat, out_type=_dtypes.int64) + 1,
                                    _constant_op.constant(max(row, 1), _dtypes.int64))
        op = apply_op("StringNGrams", data=flat, data_splits=splits, separator=separator,
                      ngram_widths=widths, left_pad=left_pad, right_pad=right_pad,
                      pad_width=(0 if pad_values is None else
                                 -1 if padding_width is None else padding_width),
                      preserve_short_sequences=preserve_short_sequences)
        values = op.outputs[0]
        if rank == 1:
            return values
        return array_ops.reshape(values, data.shape.as_list()[:-1] + [-1]
                                 if data.shape[:-1].is_fully_defined()
                                 else array_ops.concat([array_ops.shape(data)[:-1], [-1]], 0))


def string_bytes_split(input, name=None):  # noqa: A002 - TensorFlow's name
    """The bytes of the scalar string `input` as a 1-D string tensor
    (tf.strings.bytes_split; op StringSplit with an empty delimiter). TF returns a
    RaggedTensor for inputs of rank >= 1, which minitf lacks: NotImplementedError."""
    with ops.name_scope(name, "StringsByteSplit", [input]):
        input = ops.convert_to_tensor(input, dtype=_dtypes.string, name="input")  # noqa: A001
        if input.shape.rank != 0:
            raise NotImplementedError("minitf's bytes_split takes a scalar (RaggedTensor "
                                      "results are not available)")
        from minitf.ops import array_ops
        return string_split(array_ops.expand_dims(input, 0), sep="").values


def fingerprint(data, method="farmhash64", name=None):
    """uint8 [rows, 8]: the FarmHash Fingerprint64 of each row (first axis) of `data`, as 8
    little-endian bytes; a row of strings hashes its strings' fingerprints
    (tf.fingerprint; op Fingerprint). ValueError at construction for a method other than
    'farmhash64'; InvalidArgumentError at run time for a scalar `data`."""
    return _out(apply_op("Fingerprint", data=data, method=method, name=name))
