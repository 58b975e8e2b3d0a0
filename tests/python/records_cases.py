"""Cases for the byte decoders, file ops and gfile (tf.io.decode_raw, serialize_tensor,
parse_tensor, encode/decode_base64, read_file, write_file, matching_files, tf.gfile),
written against the TF1 API so the same code runs on TensorFlow 2.21 (tf.compat.v1) and on
minitf.

OP_CASES take (tf, tmp) and return a tensor (or an op to run, then a tensor to fetch);
GFILE_CASES take (tf, tmp) and return a JSON-able Python value. `tmp` is a fresh directory
made by make_tree(); paths in results and messages are written with <TMP> in its place.
tools/gen_records_expected.py records TensorFlow's results, tests/python/test_records.py
compares minitf's.
"""
import os

import numpy as np

RAW = np.array([b"\x01\x00\x00\x00\xff\xff\xff\xff", b"\x00\x00\x80\x3f\x00\x00\x00\xc0"])


def make_tree(tmp):
    """tmp/a.txt, tmp/b.txt, tmp/c.bin, tmp/sub/d.txt, tmp/sub/deeper/e.txt."""
    os.makedirs(os.path.join(tmp, "sub", "deeper"))
    for rel, data in [("a.txt", b"alpha\nbeta\n"), ("b.txt", b"b"), ("c.bin", b"\x00\x01\x02"),
                      ("sub/d.txt", b"dd"), ("sub/deeper/e.txt", b"")]:
        with open(os.path.join(tmp, rel), "wb") as f:
            f.write(data)


def _write_then_read(tf, tmp, rel, contents):
    path = os.path.join(tmp, rel)
    w = tf.io.write_file(path, contents)
    with tf.control_dependencies([w]):
        return tf.io.read_file(path)


OP_CASES = {
    "decode_raw_int32": lambda tf, tmp: tf.io.decode_raw(RAW, tf.int32),
    "decode_raw_float": lambda tf, tmp: tf.decode_raw(RAW, tf.float32),
    "decode_raw_uint8": lambda tf, tmp: tf.io.decode_raw(RAW, tf.uint8),
    "decode_raw_int16_big": lambda tf, tmp: tf.io.decode_raw(RAW, tf.int16, little_endian=False),
    "decode_raw_float64_big": lambda tf, tmp: tf.io.decode_raw(RAW, tf.float64,
                                                             little_endian=False),
    "decode_raw_complex64_big": lambda tf, tmp: tf.io.decode_raw(RAW, tf.complex64,
                                                               little_endian=False),
    "decode_raw_half": lambda tf, tmp: tf.io.decode_raw(RAW, tf.float16),
    "decode_raw_bool": lambda tf, tmp: tf.io.decode_raw([b"\x00\x01\x00"], tf.bool),
    "decode_raw_int64_scalar": lambda tf, tmp: tf.io.decode_raw(RAW[0], tf.int64),
    "decode_raw_bytes_kwarg": lambda tf, tmp: tf.decode_raw(bytes=RAW, out_type=tf.int8),
    "decode_raw_empty_strings": lambda tf, tmp: tf.io.decode_raw([b"", b""], tf.int32),
    "decode_raw_empty_input": lambda tf, tmp: tf.io.decode_raw(
        tf.zeros([0, 3], tf.string), tf.int32),
    "decode_raw_2d": lambda tf, tmp: tf.io.decode_raw(RAW.reshape(2, 1), tf.int32),
    "decode_raw_bad_length": lambda tf, tmp: tf.io.decode_raw([b"abc"], tf.int32),
    "decode_raw_ragged": lambda tf, tmp: tf.io.decode_raw([b"abcd", b"abcdefgh"], tf.int32),
    "decode_raw_bad_type": lambda tf, tmp: tf.io.decode_raw(RAW, tf.string),
    "serialize_float": lambda tf, tmp: tf.io.serialize_tensor(
        tf.constant([[1.5, -2.0], [0.0, 3.25]])),
    "serialize_int_scalar": lambda tf, tmp: tf.io.serialize_tensor(tf.constant(7)),
    "serialize_strings": lambda tf, tmp: tf.serialize_tensor(tf.constant([b"ab", b"", b"\xff"])),
    "serialize_bool": lambda tf, tmp: tf.io.serialize_tensor(tf.constant([True, False, True])),
    "serialize_empty": lambda tf, tmp: tf.io.serialize_tensor(tf.zeros([0, 2], tf.int64)),
    "roundtrip_float": lambda tf, tmp: tf.io.parse_tensor(tf.io.serialize_tensor(
        tf.constant([[1.5, -2.0], [0.0, 3.25]])), tf.float32),
    "roundtrip_strings": lambda tf, tmp: tf.parse_tensor(tf.io.serialize_tensor(
        tf.constant([[b"ab"], [b"\x00z"]])), tf.string),
    "parse_tensor_wrong_type": lambda tf, tmp: tf.io.parse_tensor(
        tf.io.serialize_tensor(tf.constant([1.0])), tf.int32),
    "parse_tensor_garbage": lambda tf, tmp: tf.io.parse_tensor(b"\xff\xff\xff", tf.float32),
    "parse_tensor_not_scalar": lambda tf, tmp: tf.io.parse_tensor([b"", b""], tf.float32),
    "encode_base64": lambda tf, tmp: tf.io.encode_base64(
        [b"", b"f", b"fo", b"foo", b"foob", b"\xfb\xff\xfe", b"hello world"]),
    "encode_base64_pad": lambda tf, tmp: tf.encode_base64(
        [[b"f", b"fo"], [b"foo", b"\xfb\xff"]], pad=True),
    "decode_base64": lambda tf, tmp: tf.io.decode_base64(
        [b"", b"Zg", b"Zm8", b"Zm9v", b"Zm9vYg==", b"Zm8=", b"-_-_", b"aGVsbG8gd29ybGQ"]),
    "decode_base64_roundtrip": lambda tf, tmp: tf.decode_base64(tf.io.encode_base64(
        RAW, pad=True)),
    "decode_base64_bad_char": lambda tf, tmp: tf.io.decode_base64([b"Zm9v", b"Zm+v"]),
    "decode_base64_bad_length": lambda tf, tmp: tf.io.decode_base64([b"Zm9vY"]),
    "decode_base64_bad_pad": lambda tf, tmp: tf.io.decode_base64([b"Zg=a"]),
    "decode_base64_one_pad_of_two": lambda tf, tmp: tf.io.decode_base64([b"Zm9vYg="]),
    "read_file": lambda tf, tmp: tf.io.read_file(os.path.join(tmp, "a.txt")),
    "read_file_empty": lambda tf, tmp: tf.read_file(os.path.join(tmp, "sub/deeper/e.txt")),
    "read_file_missing": lambda tf, tmp: tf.io.read_file(os.path.join(tmp, "nope.txt")),
    "read_file_directory": lambda tf, tmp: tf.io.read_file(os.path.join(tmp, "sub")),
    "read_file_not_scalar": lambda tf, tmp: tf.io.read_file([os.path.join(tmp, "a.txt")]),
    "read_file_dynamic_not_scalar": lambda tf, tmp: tf.io.read_file(
        tf.placeholder_with_default([os.path.join(tmp, "a.txt")], shape=None)),
    "write_then_read": lambda tf, tmp: _write_then_read(tf, tmp, "w.txt", b"\x00written\n"),
    "write_makes_dirs": lambda tf, tmp: _write_then_read(tf, tmp, "new/dir/x.bin", "xyz"),
    "write_file_not_scalar": lambda tf, tmp: tf.write_file([os.path.join(tmp, "q")], "a"),
    "matching_files_star": lambda tf, tmp: tf.io.matching_files(os.path.join(tmp, "*.txt")),
    "matching_files_list": lambda tf, tmp: tf.matching_files(
        [os.path.join(tmp, "sub/*"), os.path.join(tmp, "?.*")]),
    "matching_files_class": lambda tf, tmp: tf.io.matching_files(os.path.join(tmp, "[ab].txt")),
    "matching_files_none": lambda tf, tmp: tf.io.matching_files(os.path.join(tmp, "*.png")),
    "matching_files_nested": lambda tf, tmp: tf.io.matching_files(os.path.join(tmp, "*/*.txt")),
    "matching_files_2d": lambda tf, tmp: tf.io.matching_files([["a"]]),
}


def _read_modes(tf, tmp):
    out = []
    with tf.gfile.GFile(os.path.join(tmp, "a.txt")) as f:
        out.append(f.read())
    with tf.gfile.GFile(os.path.join(tmp, "a.txt"), "rb") as f:
        out += [repr(f.read(3)), f.tell(), repr(f.readline()), repr(f.read()), f.size()]
    with tf.io.gfile.GFile(os.path.join(tmp, "a.txt")) as f:
        out.append(f.readlines())
    with tf.gfile.Open(os.path.join(tmp, "a.txt")) as f:
        out.append([line for line in f])
    with tf.gfile.FastGFile(os.path.join(tmp, "a.txt"), "rb") as f:
        f.seek(6)
        out += [repr(f.read()), f.tell()]
        f.seek(offset=-3, whence=2)
        out.append(repr(f.read(2)))
        f.seek(position=1)
        out.append(repr(f.read(1)))
    return out


def _write_modes(tf, tmp):
    path = os.path.join(tmp, "out.txt")
    with tf.gfile.GFile(path, "w") as f:
        f.write("one\n")
        f.write(b"two\n")
        out = [f.tell()]
    with tf.gfile.GFile(path, "a") as f:
        f.write("three")
    with tf.gfile.GFile(path, "rb") as f:
        out.append(repr(f.read()))
    return out


def _walk(tf, tmp, **kw):
    return sorted([os.path.relpath(d, tmp), sorted(s), sorted(f)]
                  for d, s, f in tf.gfile.Walk(tmp, **kw))


def _walk_order(tf, tmp, in_order):
    return [os.path.relpath(d, tmp) for d, _, _ in tf.gfile.Walk(tmp, in_order=in_order)]


def _walk_v2_order(tf, tmp, topdown):
    return [os.path.relpath(d, tmp) for d, _, _ in tf.io.gfile.walk(tmp, topdown=topdown)]


def _stat(tf, tmp, rel):
    st = tf.gfile.Stat(os.path.join(tmp, rel))
    return [st.length, st.is_directory, st.mtime_nsec > 0]


def _after(tf, tmp, action):
    action()
    return sorted(os.path.relpath(os.path.join(d, x), tmp)
                  for d, s, f in os.walk(tmp) for x in s + f)


def _p(tmp, rel):
    return os.path.join(tmp, rel)


def _read_missing(tf, tmp):
    f = tf.gfile.GFile(_p(tmp, "missing.txt"))  # TF opens lazily: no error yet
    return f.read()


def _read_in_write_mode(tf, tmp):
    with tf.gfile.GFile(_p(tmp, "x.txt"), "w") as f:
        return f.read()


def _write_in_read_mode(tf, tmp):
    with tf.gfile.GFile(_p(tmp, "a.txt")) as f:
        f.write("x")


GFILE_CASES = {
    "read_modes": _read_modes,
    "write_modes": _write_modes,
    "read_missing": _read_missing,
    "read_in_write_mode": _read_in_write_mode,
    "write_in_read_mode": _write_in_read_mode,
    "exists": lambda tf, tmp: [tf.gfile.Exists(_p(tmp, "a.txt")), tf.gfile.Exists(_p(tmp, "sub")),
                               tf.io.gfile.exists(_p(tmp, "zz"))],
    "isdir": lambda tf, tmp: [tf.gfile.IsDirectory(_p(tmp, "a.txt")),
                              tf.gfile.IsDirectory(_p(tmp, "sub")),
                              tf.io.gfile.isdir(_p(tmp, "zz"))],
    "glob": lambda tf, tmp: sorted(os.path.relpath(x, tmp)
                                   for x in tf.gfile.Glob(_p(tmp, "*.txt"))),
    # One pattern's matches come in directory order (not sorted), the patterns in turn.
    "glob_list": lambda tf, tmp: [sorted(os.path.relpath(x, tmp) for x in tf.io.gfile.glob(
        [_p(tmp, "sub/*"), _p(tmp, "c.*")])[:2]), os.path.relpath(tf.io.gfile.glob(
            [_p(tmp, "sub/*"), _p(tmp, "c.*")])[2], tmp)],
    "glob_none": lambda tf, tmp: tf.gfile.Glob(_p(tmp, "*.png")),
    "listdir": lambda tf, tmp: sorted(tf.gfile.ListDirectory(tmp)),
    "listdir_v2": lambda tf, tmp: sorted(tf.io.gfile.listdir(_p(tmp, "sub"))),
    "listdir_missing": lambda tf, tmp: tf.gfile.ListDirectory(_p(tmp, "zz")),
    "listdir_file": lambda tf, tmp: tf.gfile.ListDirectory(_p(tmp, "a.txt")),
    "makedirs": lambda tf, tmp: _after(tf, tmp, lambda: (tf.gfile.MakeDirs(_p(tmp, "m/n/o")),
                                                         tf.gfile.MakeDirs(_p(tmp, "sub")))),
    "makedirs_over_file": lambda tf, tmp: tf.gfile.MakeDirs(_p(tmp, "a.txt/x")),
    "mkdir": lambda tf, tmp: _after(tf, tmp, lambda: tf.gfile.MkDir(_p(tmp, "m"))),
    "mkdir_exists": lambda tf, tmp: tf.gfile.MkDir(_p(tmp, "sub")),
    "mkdir_no_parent": lambda tf, tmp: tf.io.gfile.mkdir(_p(tmp, "p/q")),
    "remove": lambda tf, tmp: _after(tf, tmp, lambda: tf.gfile.Remove(_p(tmp, "b.txt"))),
    "remove_missing": lambda tf, tmp: tf.gfile.Remove(_p(tmp, "zz")),
    "rename": lambda tf, tmp: _after(tf, tmp, lambda: tf.gfile.Rename(_p(tmp, "b.txt"),
                                                                      _p(tmp, "bb.txt"))),
    "rename_exists": lambda tf, tmp: tf.gfile.Rename(_p(tmp, "b.txt"), _p(tmp, "a.txt")),
    "rename_overwrite": lambda tf, tmp: _after(tf, tmp, lambda: tf.io.gfile.rename(
        _p(tmp, "b.txt"), _p(tmp, "a.txt"), overwrite=True)),
    "rename_missing": lambda tf, tmp: tf.gfile.Rename(_p(tmp, "zz"), _p(tmp, "yy")),
    "copy": lambda tf, tmp: _after(tf, tmp, lambda: tf.gfile.Copy(_p(tmp, "a.txt"),
                                                                  _p(tmp, "sub/a2.txt"))),
    "copy_exists": lambda tf, tmp: tf.gfile.Copy(_p(tmp, "a.txt"), _p(tmp, "b.txt")),
    "copy_overwrite": lambda tf, tmp: (tf.io.gfile.copy(_p(tmp, "a.txt"), _p(tmp, "b.txt"),
                                                        overwrite=True),
                                       open(_p(tmp, "b.txt")).read())[1],
    "copy_missing": lambda tf, tmp: tf.gfile.Copy(_p(tmp, "zz"), _p(tmp, "yy")),
    "stat_file": lambda tf, tmp: _stat(tf, tmp, "a.txt"),
    "stat_dir": lambda tf, tmp: _stat(tf, tmp, "sub")[1:],
    "stat_missing": lambda tf, tmp: _stat(tf, tmp, "zz"),
    "walk": lambda tf, tmp: _walk(tf, tmp),
    "walk_order": lambda tf, tmp: [_walk_order(tf, tmp, True)[0],
                                   _walk_order(tf, tmp, False)[-1]],
    "walk_v2_order": lambda tf, tmp: [_walk_v2_order(tf, tmp, True)[0],
                                      _walk_v2_order(tf, tmp, False)[-1]],
    "walk_missing": lambda tf, tmp: list(tf.gfile.Walk(_p(tmp, "zz"))),
    "delete_recursively": lambda tf, tmp: _after(
        tf, tmp, lambda: tf.gfile.DeleteRecursively(_p(tmp, "sub"))),
    "rmtree_missing": lambda tf, tmp: tf.io.gfile.rmtree(_p(tmp, "zz")),
    "delete_recursively_file": lambda tf, tmp: _after(
        tf, tmp, lambda: tf.gfile.DeleteRecursively(_p(tmp, "b.txt"))),
    "mkdir_over_file": lambda tf, tmp: tf.gfile.MkDir(_p(tmp, "a.txt")),
    "makedirs_v2_exists": lambda tf, tmp: tf.io.gfile.makedirs(_p(tmp, "sub/deeper")),
    "stat_v2": lambda tf, tmp: tf.io.gfile.stat(_p(tmp, "c.bin")).length,
    "gfile_size_missing": lambda tf, tmp: tf.gfile.GFile(_p(tmp, "zz")).size(),
    "join": lambda tf, tmp: [tf.io.gfile.join("a", "b", "c.txt"), tf.io.gfile.join("/x/", "y"),
                             tf.io.gfile.join("a")],
}


def jsonable(v):
    """A fetched value as JSON: [dtype, shape, values] with bytes as latin-1 text."""
    a = np.asarray(v)
    if a.dtype.kind in "SO":
        vals = [x.decode("latin-1") for x in a.reshape(-1)]
    elif a.dtype.kind == "c":
        vals = [[float(x.real), float(x.imag)] for x in a.reshape(-1)]
    else:
        vals = a.reshape(-1).tolist()
    return [str(a.dtype), list(a.shape), vals]


def scrub(text, tmp):
    """`text` with the temporary directory written as <TMP>."""
    return text.replace(tmp, "<TMP>") if isinstance(text, str) else text
