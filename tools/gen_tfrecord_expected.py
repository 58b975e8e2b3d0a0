"""Writes tests/fixtures/tfrecord/ (developer tool, needs TensorFlow 2.21):

    /opt/tfvenv/bin/python tools/gen_tfrecord_expected.py

- expected.json: for each writer case of tests/python/tfrecord_cases.py, the SHA-256 and
  size of the file TensorFlow's tf.io.TFRecordWriter writes for tfrecord_cases.records()
  (minitf must write the same bytes); TensorFlow's exceptions for corrupted and missing
  files; the Example protos' deterministic serialization.
- small_{none,zlib,gzip}.tfrecord: TensorFlow-written files of SMALL_RECORDS, read back by
  minitf; examples.tfrecord: TensorFlow-written Examples and a SequenceExample.
"""
import hashlib
import os
import tempfile

import tf_fixture
from tf_fixture import tf

import tfrecord_cases as cases

OUT = os.path.join(tf_fixture.HERE, "..", "tests", "fixtures", "tfrecord")


def _options(spec):
    if isinstance(spec, dict):
        return tf.io.TFRecordOptions(**spec)
    return spec


def write_case(path, spec, flush_after):
    with tf.io.TFRecordWriter(path, _options(spec)) as w:
        for i, rec in enumerate(cases.records()):
            w.write(rec)
            if i in flush_after:
                w.flush()


def read_error(path, options=None):
    got = []
    try:
        for rec in tf.io.tf_record_iterator(path, options):
            got.append(len(rec))
    except Exception as e:  # noqa: BLE001 - the class and text are the result
        return {"error": [type(e).__name__, str(e).replace(path, "<PATH>")], "read": got}
    return {"error": None, "read": got}


def corruption_cases(tmp):
    """TensorFlow's errors for a small file with bytes damaged or cut."""
    good = os.path.join(tmp, "good.tfrecord")
    with tf.io.TFRecordWriter(good) as w:
        for rec in cases.SMALL_RECORDS:
            w.write(rec)
    data = open(good, "rb").read()
    damaged = {
        "length_crc_first": data[:8] + bytes([data[8] ^ 1]) + data[9:],
        "length_crc_second": data[:16] + data[16:24] + bytes([data[24] ^ 0x10]) + data[25:],
        "data_crc_second": data[:30] + bytes([data[30] ^ 0x80]) + data[31:],
        "truncated_header": data[:20],
        "truncated_data": data[:16 + 12 + 2],
        "truncated_footer": data[:16 + 12 + 3 + 2],
        "not_a_tfrecord": b"this is not a tfrecord file at all",
    }
    out = {}
    for name, blob in sorted(damaged.items()):
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(blob)
        out[name] = {"bytes": blob.hex(), **read_error(path)}
    out["missing_file"] = read_error(os.path.join(tmp, "no_such_dir", "x.tfrecord"))
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    expected = {"writes": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for name, spec, flush_after in cases.WRITE_CASES:
            path = os.path.join(tmp, name)
            write_case(path, spec, flush_after)
            data = open(path, "rb").read()
            expected["writes"][name] = {"sha256": hashlib.sha256(data).hexdigest(),
                                        "size": len(data)}
        expected["corrupt"] = corruption_cases(tmp)
    for kind in ("", "ZLIB", "GZIP"):
        path = os.path.join(OUT, "small_%s.tfrecord" % (kind.lower() or "none"))
        with tf.io.TFRecordWriter(path, kind) as w:
            for rec in cases.SMALL_RECORDS:
                w.write(rec)
    exs, seq = cases.examples(tf)
    with tf.io.TFRecordWriter(os.path.join(OUT, "examples.tfrecord")) as w:
        for ex in exs:
            w.write(ex.SerializeToString())
        w.write(seq.SerializeToString())
    expected["examples_deterministic"] = [
        m.SerializeToString(deterministic=True).hex() for m in exs + [seq]]
    tf_fixture.write("tfrecord/expected.json", expected)


if __name__ == "__main__":
    main()
