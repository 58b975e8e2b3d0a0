"""tf.lookup cases (StaticHashTable, StaticVocabularyTable, the initializers, the table
ops), written against the TF1 API so the same code runs on TensorFlow 2.21 (tf.compat.v1)
and on minitf.

Each case takes `tf` and the fixtures directory and returns what to fetch (a tensor or a
list); the table initializers run first (tf.tables_initializer()).
tools/gen_lookup_expected.py records TF's values (or the error class and message of the
initializer or of the fetch); tests/python/test_lookup.py compares minitf's.
"""
import os

import numpy as np


def _kv(tf, keys, values, **kw):
    return tf.lookup.KeyValueTensorInitializer(keys, values, **kw)


def _vocab(d):
    return os.path.join(d, "lookup_vocab.tsv")


def _words(d):
    return os.path.join(d, "lookup_words.txt")


def _static(tf, keys, values, default, **kw):
    return tf.lookup.StaticHashTable(_kv(tf, keys, values), default, **kw)


CASES = {
    "static_string_to_int64": lambda tf, d: _static(
        tf, ["a", "b", "c"], tf.constant([1, 2, 3], tf.int64), -1).lookup(
            tf.constant([["a", "x"], ["c", "b"]])),
    "static_int64_to_string": lambda tf, d: _static(
        tf, tf.constant([5, 7], tf.int64), ["five", "seven"], "?").lookup(
            tf.constant([7, 1, 5], tf.int64)),
    "static_int32_to_float": lambda tf, d: _static(
        tf, tf.constant([1, 2], tf.int32), [0.5, 1.5], -1.0).lookup(
            tf.constant([2, 3], tf.int32)),
    "static_size": lambda tf, d: _static(tf, ["a", "b", "c"], [1, 2, 3], 0).size(),
    "static_scalar_key": lambda tf, d: _static(tf, ["a"], [1], 0).lookup(tf.constant("a")),
    "static_key_dtype": lambda tf, d: tf.constant(
        [_static(tf, ["a"], [1], 0).key_dtype.name, _static(tf, ["a"], [1], 0).value_dtype.name]),
    "static_duplicate_keys": lambda tf, d: _static(tf, ["a", "a"], [1, 2], 0).lookup(
        tf.constant(["a"])),
    "static_wrong_key_dtype": lambda tf, d: _static(tf, ["a"], [1], 0).lookup(
        tf.constant([1, 2])),
    "static_mismatched_sizes": lambda tf, d: _static(
        tf, tf.placeholder_with_default(["a", "b"], shape=None),
        tf.placeholder_with_default([1], shape=None), 0).lookup(tf.constant(["a"])),
    "static_export": lambda tf, d: list(
        _static(tf, tf.constant([3], tf.int64), tf.constant([30], tf.int64),
                tf.constant(0, tf.int64)).export()),
    "text_file_line_number": lambda tf, d: tf.lookup.StaticHashTable(
        tf.lookup.TextFileInitializer(_vocab(d), tf.string, 0, tf.int64,
                                      tf.lookup.TextFileIndex.LINE_NUMBER, delimiter="\t"),
        -1).lookup(tf.constant(["lake", "\u00e9t\u00e9", "nope", "emerson"])),
    "text_file_columns": lambda tf, d: tf.lookup.StaticHashTable(
        tf.lookup.TextFileInitializer(_vocab(d), tf.string, 0, tf.int64, 1), -1).lookup(
            tf.constant(["palmer", "lake", "x"])),
    "text_file_whole_line": lambda tf, d: tf.lookup.StaticHashTable(
        tf.lookup.TextFileInitializer(_words(d), tf.int64,
                                      tf.lookup.TextFileIndex.LINE_NUMBER, tf.string,
                                      tf.lookup.TextFileIndex.WHOLE_LINE), "UNK").lookup(
            tf.constant([0, 2, 5], tf.int64)),
    "text_file_vocab_size": lambda tf, d: tf.lookup.StaticHashTable(
        tf.lookup.TextFileInitializer(_words(d), tf.string,
                                      tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
                                      tf.lookup.TextFileIndex.LINE_NUMBER, vocab_size=2),
        -1).lookup(tf.constant(["apple", "banana", "cherry"])),
    "text_file_vocab_size_too_big": lambda tf, d: tf.lookup.StaticHashTable(
        tf.lookup.TextFileInitializer(_words(d), tf.string,
                                      tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
                                      tf.lookup.TextFileIndex.LINE_NUMBER, vocab_size=5),
        -1).lookup(tf.constant(["apple"])),
    "text_file_missing": lambda tf, d: tf.lookup.StaticHashTable(
        tf.lookup.TextFileInitializer(os.path.join(d, "no_such_vocab.txt"), tf.string,
                                      tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
                                      tf.lookup.TextFileIndex.LINE_NUMBER), -1).lookup(
            tf.constant(["a"])),
    "text_file_bad_column": lambda tf, d: tf.lookup.StaticHashTable(
        tf.lookup.TextFileInitializer(_vocab(d), tf.string, 0, tf.int64, 5), -1).lookup(
            tf.constant(["a"])),
    "text_file_bad_number": lambda tf, d: tf.lookup.StaticHashTable(
        tf.lookup.TextFileInitializer(_vocab(d), tf.string, 1, tf.int64, 0), -1).lookup(
            tf.constant(["a"])),
    "vocab_table_oov": lambda tf, d: tf.lookup.StaticVocabularyTable(
        _kv(tf, ["emerson", "lake", "palmer"], tf.constant([0, 1, 2], tf.int64)), 5).lookup(
            tf.constant(["lake", "palmer", "king", "crimson", "", "emerson"])),
    "vocab_table_file": lambda tf, d: tf.lookup.StaticVocabularyTable(
        tf.lookup.TextFileInitializer(_words(d), tf.string,
                                      tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
                                      tf.lookup.TextFileIndex.LINE_NUMBER), 3).lookup(
            tf.constant([["banana", "durian"], ["apple", "fig"]])),
    "vocab_table_size": lambda tf, d: tf.lookup.StaticVocabularyTable(
        _kv(tf, ["a", "b"], tf.constant([0, 1], tf.int64)), 4).size(),
    "raw_ops_mutable": lambda tf, d: _mutable(tf),
    "initialize_all_tables": lambda tf, d: _legacy_init(tf),
}


def _mutable(tf):
    t = tf.raw_ops.MutableHashTableV2(key_dtype=tf.string, value_dtype=tf.int64)
    ins = tf.raw_ops.LookupTableInsertV2(table_handle=t, keys=["x", "y"],
                                         values=tf.constant([1, 2], tf.int64))
    with tf.control_dependencies([ins]):
        ins2 = tf.raw_ops.LookupTableInsertV2(table_handle=t, keys=["y", "z"],
                                              values=tf.constant([5, 6], tf.int64))
    with tf.control_dependencies([ins2]):
        rm = tf.raw_ops.LookupTableRemoveV2(table_handle=t, keys=["x", "w"])
    with tf.control_dependencies([rm]):
        found = tf.raw_ops.LookupTableFindV2(table_handle=t, keys=["x", "y", "z"],
                                             default_value=tf.constant(-1, tf.int64))
        size = tf.raw_ops.LookupTableSizeV2(table_handle=t)
    return [found, size]


def _legacy_init(tf):
    table = tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(np.array([b"p", b"q"]), np.array([7, 8])), 0)
    init = tf.initialize_all_tables()
    with tf.control_dependencies([init]):
        return table.lookup(tf.constant(["q", "r"]))


def jsonable(val):
    val = np.asarray(val)
    if val.dtype.kind in "SO":
        return {"shape": list(val.shape),
                "values": [x.decode("utf-8", "backslashreplace") if isinstance(x, bytes) else x
                           for x in val.reshape(-1).tolist()]}
    if val.dtype.kind == "U":
        return {"shape": list(val.shape), "values": val.reshape(-1).tolist()}
    return {"shape": list(val.shape), "dtype": str(val.dtype),
            "values": val.reshape(-1).tolist()}
