"""Cases for the rest of tf.strings (split, reduce_join, substr, strip, lower/upper, length,
to_number, as_string, the hash buckets, fingerprint, ngrams, unsorted_segment_join) and the
TF1 top-level names, written against the TF1 API so the same code runs on TensorFlow 2.21
(tf.compat.v1) and on minitf.

Each case takes `tf` and returns a tensor, a SparseTensor or a list of them;
tools/gen_string_more_expected.py records TF's values (or its error class and message) and
the node types it built, tests/python/test_string_more.py compares minitf's.
"""
import numpy as np

WORDS = np.array([[b"hello world", b"  padded\t\n", b""],
                  [b"a,b,,c", b"\xc3\xa9t\xc3\xa9 \xe2\x82\xac!", b"MiXeD Case 123"]])

# Strings of every length 0..130 and a few longer ones, random bytes (all 256 values):
# they cross each length branch of FarmHash's Fingerprint64, SipHash and Hash64.
_rng = np.random.RandomState(1234)
HASH_STRINGS = [bytes(_rng.randint(0, 256, size=n).astype(np.uint8))
                for n in list(range(131)) + [191, 192, 193, 255, 256, 257, 1000, 4097]]
HASH_STRINGS += [b"", b"a", b"hello", b"The quick brown fox jumps over the lazy dog"]
BIG = 2 ** 63 - 1

CASES = {
    # split
    "split_v1_default": lambda tf: tf.string_split(["a b  c", "", " d "]),
    "split_v1_delimiter_chars": lambda tf: tf.string_split(["a,b;c", "x;;y"], delimiter=",;"),
    "split_v1_keep_empty": lambda tf: tf.string_split(["a,,b", ","], delimiter=",",
                                                      skip_empty=False),
    "split_v1_empty_delimiter": lambda tf: tf.string_split(["abc", "\xe9x"], delimiter=""),
    "split_v1_sep_v2": lambda tf: tf.string_split(["a<>b<><>c"], sep="<>"),
    "split_v2_none": lambda tf: tf.strings.split(["  a b\t c\n", "", "x"]),
    "split_v2_sep": lambda tf: tf.strings.split(["a,b,,c", ",", ""], sep=","),
    "split_v2_multichar": lambda tf: tf.strings.split(["a--b---c"], sep="--"),
    "split_v2_maxsplit": lambda tf: tf.strings.split(["a b c d", "e,f,g"], maxsplit=1),
    "split_v2_maxsplit_sep": lambda tf: tf.strings.split(["a,b,c,d"], sep=",", maxsplit=2),
    "split_v2_raw": lambda tf: tf.raw_ops.StringSplitV2(input=["a b", " c"], sep="",
                                                        maxsplit=-1),
    "split_v1_not_vector": lambda tf: tf.raw_ops.StringSplit(
        input=tf.placeholder_with_default([["a"]], shape=None), delimiter=" "),
    "split_v1_delim_not_scalar": lambda tf: tf.raw_ops.StringSplit(
        input=["a"], delimiter=tf.placeholder_with_default([" "], shape=None)),
    # reduce_join
    "reduce_join_all": lambda tf: tf.reduce_join(WORDS),
    "reduce_join_axis0": lambda tf: tf.strings.reduce_join(WORDS, axis=0, separator="|"),
    "reduce_join_axis1_keep": lambda tf: tf.strings.reduce_join(WORDS, axis=1, keepdims=True,
                                                               separator=" "),
    "reduce_join_neg_axis": lambda tf: tf.strings.reduce_join(WORDS, axis=-1),
    "reduce_join_two_axes": lambda tf: tf.strings.reduce_join(WORDS, axis=[1, 0], separator="."),
    "reduce_join_3d": lambda tf: tf.strings.reduce_join(
        np.array([[[b"a", b"b"], [b"c", b"d"]], [[b"e", b"f"], [b"g", b"h"]]]), axis=[0, 2],
        separator="+"),
    "reduce_join_v1_keep_dims": lambda tf: tf.reduce_join(WORDS, 0, keep_dims=True),
    "reduce_join_bad_axis": lambda tf: tf.raw_ops.ReduceJoin(
        inputs=WORDS, reduction_indices=tf.placeholder_with_default([2], shape=None)),
    "reduce_join_dup_axis": lambda tf: tf.raw_ops.ReduceJoin(
        inputs=WORDS, reduction_indices=tf.placeholder_with_default([1, -1], shape=None)),
    "reduce_join_empty_axes": lambda tf: tf.raw_ops.ReduceJoin(
        inputs=WORDS, reduction_indices=tf.constant([], tf.int32)),
    # substr
    "substr_scalar": lambda tf: tf.strings.substr(WORDS, 1, 3),
    "substr_neg_pos": lambda tf: tf.strings.substr(["hello", "ab"], -2, 5),
    "substr_elementwise": lambda tf: tf.strings.substr(["hello", "world"], [0, 2], [2, 10]),
    "substr_broadcast": lambda tf: tf.strings.substr([["abc", "defg"], ["hi", "jklm"]],
                                                     [1, 0], [1, 3]),
    "substr_utf8": lambda tf: tf.strings.substr(["\xe9t\xe9 \u20ac!", "abc"], 1, 2,
                                                unit="UTF8_CHAR"),
    "substr_utf8_neg": lambda tf: tf.strings.substr(["\xe9t\xe9 \u20ac!"], -3, 2,
                                                    unit="UTF8_CHAR"),
    "substr_out_of_range": lambda tf: tf.strings.substr(["abc"], 4, 1),
    "substr_out_of_range_elem": lambda tf: tf.strings.substr(["abc", "de"], [1, 3], [1, 1]),
    "substr_int64": lambda tf: tf.substr(["abcdef"], tf.constant(2, tf.int64),
                                         tf.constant(-1, tf.int64) + 3),
    "substr_neg_len": lambda tf: tf.strings.substr(["abcdef"], 1, -1),
    # strip, case, length
    "strip": lambda tf: tf.strings.strip(WORDS),
    "string_strip_v1": lambda tf: tf.string_strip([" \t\va b\r\f\n ", "   ", ""]),
    "lower": lambda tf: tf.strings.lower(WORDS),
    "upper": lambda tf: tf.strings.upper(WORDS),
    "length_bytes": lambda tf: tf.strings.length(WORDS),
    "length_utf8": lambda tf: tf.strings.length(WORDS, unit="UTF8_CHAR"),
    "length_scalar": lambda tf: tf.strings.length("abc"),
    # to_number
    "to_number_float": lambda tf: tf.strings.to_number(
        ["1.5", "-2", "1e3", " 7 ", "inf", "-nan", "0x10", "3.4e39"]),
    "to_number_double": lambda tf: tf.strings.to_number(
        ["1.5", "1e-320", "0.1", "1e308"], tf.float64),
    "to_number_int32": lambda tf: tf.strings.to_number(["12", "-7", " 3", "+4"], tf.int32),
    "to_number_int64": lambda tf: tf.string_to_number(["9223372036854775807", "-5"],
                                                      out_type=tf.int64),
    "to_number_bad_float": lambda tf: tf.strings.to_number(["1.0", "abc"]),
    "to_number_bad_int": lambda tf: tf.strings.to_number(["1.5"], tf.int32),
    "to_number_int32_overflow": lambda tf: tf.strings.to_number(["3000000000"], tf.int32),
    "to_number_empty": lambda tf: tf.strings.to_number([""], tf.int64),
    "to_number_float_overflow_name": lambda tf: tf.strings.to_number(["1e999"], tf.float64),
    # as_string
    "as_string_float": lambda tf: tf.strings.as_string([1.5, -0.25, 1e10, 3.0, np.inf, np.nan]),
    "as_string_precision": lambda tf: tf.as_string([3.14159, 2.0], precision=2),
    "as_string_scientific": lambda tf: tf.as_string([31415.9, 0.001], scientific=True),
    "as_string_shortest": lambda tf: tf.as_string([0.1, 100000000.0, 1e-5], shortest=True),
    "as_string_width_fill": lambda tf: tf.as_string([7, -3, 12345], width=5, fill="0"),
    "as_string_width_space": lambda tf: tf.as_string([7, -3], width=4),
    "as_string_int64": lambda tf: tf.as_string(tf.constant([2 ** 40, -1], tf.int64)),
    "as_string_bool": lambda tf: tf.as_string([True, False]),
    "as_string_double": lambda tf: tf.as_string(tf.constant([1.0 / 3, 1e-7], tf.float64)),
    "as_string_uint8": lambda tf: tf.as_string(tf.constant([0, 255], tf.uint8)),
    "as_string_string": lambda tf: tf.as_string(["a", "bc"], width=3),
    "as_string_complex": lambda tf: tf.as_string(tf.constant([1 + 2j, -0.5j], tf.complex64)),
    "as_string_bad_fill": lambda tf: tf.as_string([1], width=3, fill="ab"),
    "as_string_bad_sci": lambda tf: tf.as_string([1], width=3, scientific=True, shortest=True),
    "as_string_int_precision": lambda tf: tf.as_string([1], precision=2),
    # hash buckets and fingerprints
    "hash_fast_full": lambda tf: tf.strings.to_hash_bucket_fast(HASH_STRINGS, BIG),
    "hash_fast_small": lambda tf: tf.string_to_hash_bucket_fast(WORDS, 10),
    "hash_strong_full": lambda tf: tf.strings.to_hash_bucket_strong(HASH_STRINGS, BIG, [1, 2]),
    "hash_strong_key": lambda tf: tf.string_to_hash_bucket_strong(
        HASH_STRINGS, 1000, [0xDECAF, 2 ** 62 + 12345]),
    "hash_strong_bad_key": lambda tf: tf.strings.to_hash_bucket_strong(["a"], 10, [1]),
    "hash_legacy_full": lambda tf: tf.strings.to_hash_bucket(HASH_STRINGS, BIG),
    "hash_legacy_v1": lambda tf: tf.string_to_hash_bucket(WORDS, 7),
    "fingerprint_uint8_rows": lambda tf: tf.fingerprint(
        tf.constant(np.frombuffer(b"".join(s[:64].ljust(64, b"x") for s in HASH_STRINGS[:70]),
                                  np.uint8).reshape(70, 64))),
    "fingerprint_int32": lambda tf: tf.fingerprint(tf.constant([[1, 2], [3, 4], [5, 6]])),
    "fingerprint_float_3d": lambda tf: tf.fingerprint(tf.ones([2, 3, 2])),
    "fingerprint_strings": lambda tf: tf.fingerprint(WORDS),
    "fingerprint_strings_1d": lambda tf: tf.fingerprint(HASH_STRINGS),
    "fingerprint_bad_method": lambda tf: tf.fingerprint([1, 2], method="md5"),
    "fingerprint_scalar": lambda tf: tf.raw_ops.Fingerprint(
        data=tf.placeholder_with_default(3, shape=None), method="farmhash64"),
    # ngrams, unsorted_segment_join
    "ngrams_raw": lambda tf: tf.raw_ops.StringNGrams(
        data=["a", "b", "c", "d", "e"], data_splits=tf.constant([0, 3, 5], tf.int64),
        separator=" ", ngram_widths=[2, 3], left_pad="", right_pad="", pad_width=0,
        preserve_short_sequences=False),
    "ngrams_pad": lambda tf: tf.raw_ops.StringNGrams(
        data=["a", "b", "c"], data_splits=tf.constant([0, 1, 3], tf.int32),
        separator="_", ngram_widths=[3], left_pad="<", right_pad=">", pad_width=2,
        preserve_short_sequences=False),
    "ngrams_short": lambda tf: tf.raw_ops.StringNGrams(
        data=["a", "b", "c"], data_splits=tf.constant([0, 1, 3], tf.int64),
        separator="+", ngram_widths=[3], left_pad="", right_pad="", pad_width=0,
        preserve_short_sequences=True),
    "ngrams_dense": lambda tf: tf.strings.ngrams([["a", "b", "c"], ["d", "e", "f"]], 2),
    "ngrams_dense_pad": lambda tf: tf.strings.ngrams(["a", "b", "c"], [1, 2],
                                                     separator="-", pad_values="#"),
    "segment_join": lambda tf: tf.strings.unsorted_segment_join(
        ["a", "b", "c", "d"], [1, 0, 1, 1], 3, separator=","),
    "segment_join_2d": lambda tf: tf.strings.unsorted_segment_join(
        [["a", "b"], ["c", "d"], ["e", "f"]], [0, 1, 0], 2),
    "segment_join_bad_id": lambda tf: tf.strings.unsorted_segment_join(
        ["a", "b"], tf.placeholder_with_default([0, 5], shape=None), 2),
    "bytes_split": lambda tf: tf.strings.bytes_split("abc"),
    # empty inputs
    "split_empty_vector": lambda tf: tf.string_split(tf.constant([], tf.string)),
    "reduce_join_empty_axis": lambda tf: tf.strings.reduce_join(
        tf.zeros([2, 0], tf.string), axis=1, separator=","),
    "fingerprint_empty_rows": lambda tf: tf.fingerprint(tf.zeros([3, 0], tf.int32)),
    "fingerprint_no_rows": lambda tf: tf.fingerprint(tf.zeros([0, 4], tf.float32)),
    "length_empty": lambda tf: tf.strings.length(tf.constant([], tf.string)),
    "hash_fast_empty": lambda tf: tf.strings.to_hash_bucket_fast(tf.constant([], tf.string), 5),
    "substr_utf8_out_of_range": lambda tf: tf.strings.substr(["\xe9t\xe9"], 4, 1,
                                                             unit="UTF8_CHAR"),
    "substr_utf8_whole": lambda tf: tf.strings.substr(["\xe9t\xe9"], 3, 1, unit="UTF8_CHAR"),
    "to_number_uint": lambda tf: tf.strings.to_number(["4294967295", "0"], tf.uint32),
    "to_number_uint64_neg": lambda tf: tf.strings.to_number(["-1"], tf.uint64),
    "ngrams_empty_row": lambda tf: tf.raw_ops.StringNGrams(
        data=["a", "b"], data_splits=tf.constant([0, 0, 2], tf.int64), separator=" ",
        ngram_widths=[1, 2], left_pad="", right_pad="", pad_width=0,
        preserve_short_sequences=True),
    "segment_join_empty_segments": lambda tf: tf.strings.unsorted_segment_join(
        tf.constant([], tf.string), tf.constant([], tf.int32), 2),
}


def outputs_of(r):
    """The tensors of a case's result, in order (a SparseTensor: indices, values, shape)."""
    if isinstance(r, (list, tuple)):
        return [t for x in r for t in outputs_of(x)]
    if hasattr(r, "dense_shape"):
        return [r.indices, r.values, r.dense_shape]
    return [r]


def jsonable(val):
    val = np.asarray(val)
    if val.dtype.kind in "SO":
        return {"shape": list(val.shape),
                "values": [x.decode("utf-8", "backslashreplace") if isinstance(x, bytes) else x
                           for x in val.reshape(-1).tolist()]}
    if val.dtype.kind == "f":
        return {"shape": list(val.shape), "dtype": str(val.dtype),
                "values": [repr(float(x)) for x in val.reshape(-1)]}
    return {"shape": list(val.shape), "dtype": str(val.dtype),
            "values": val.reshape(-1).tolist()}
