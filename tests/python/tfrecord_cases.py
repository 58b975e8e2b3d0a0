"""TFRecord and tf.train.Example cases shared by tools/gen_tfrecord_expected.py (real
TensorFlow writes the fixture) and test_tfrecord.py (minitf compares with it)."""
import hashlib


def _pseudo_random(n, seed):
    """n bytes from SHA-256 in counter mode (the same on every machine)."""
    out = bytearray()
    i = 0
    while len(out) < n:
        out += hashlib.sha256(b"%d:%d" % (seed, i)).digest()
        i += 1
    return bytes(out[:n])


def records():
    """Records covering the framing and zlib's buffering: empty, tiny, text, binary, a
    compressible record larger than the 256 KiB zlib buffers, an incompressible one."""
    text = b"".join(b"line %d of a tfrecord file\n" % i for i in range(2000))
    return [b"", b"a", b"hello tfrecord", bytes(range(256)) * 3, text,
            (b"abcdefgh" * 40000), _pseudo_random(70000, 1), b"last"]


# Writer cases: (name, options as TFRecordOptions kwargs or a compression string,
# flush after these record indices).
WRITE_CASES = [
    ("none", None, []),
    ("zlib", "ZLIB", []),
    ("gzip", "GZIP", []),
    ("gzip_flushed", "GZIP", [1, 4]),
    ("zlib_level9", {"compression_type": "ZLIB", "compression_level": 9}, []),
    ("gzip_small_buffers", {"compression_type": "GZIP", "input_buffer_size": 1000,
                            "output_buffer_size": 500}, [2]),
    ("zlib_sync_flush", {"compression_type": "ZLIB", "flush_mode": 2,
                         "input_buffer_size": 4096}, []),
    ("none_flushed", "", [0, 3]),
]

# Small files TensorFlow writes that are committed whole (minitf reads them back).
SMALL_RECORDS = [b"", b"one", b"two two", bytes(range(40))]


def examples(tf):
    """tf.train.Example / SequenceExample messages built with `tf`'s proto classes."""
    train = tf.train
    ex1 = train.Example(features=train.Features(feature={
        "label": train.Feature(int64_list=train.Int64List(value=[7])),
        "weights": train.Feature(float_list=train.FloatList(value=[0.5, -1.25, 3.0])),
        "name": train.Feature(bytes_list=train.BytesList(value=[b"cat", b"\x00\xff"])),
        "empty": train.Feature(),
    }))
    ex2 = train.Example(features=train.Features(feature={
        "label": train.Feature(int64_list=train.Int64List(value=[-3])),
        "weights": train.Feature(float_list=train.FloatList(value=[1.0, 2.0, 4.0])),
        "name": train.Feature(bytes_list=train.BytesList(value=[])),
    }))
    seq = train.SequenceExample(
        context=train.Features(feature={
            "length": train.Feature(int64_list=train.Int64List(value=[2]))}),
        feature_lists=train.FeatureLists(feature_list={
            "tokens": train.FeatureList(feature=[
                train.Feature(int64_list=train.Int64List(value=[1, 2])),
                train.Feature(int64_list=train.Int64List(value=[3]))]),
            "scores": train.FeatureList(feature=[
                train.Feature(float_list=train.FloatList(value=[0.25])),
                train.Feature(float_list=train.FloatList(value=[0.75]))]),
        }))
    return [ex1, ex2], seq
