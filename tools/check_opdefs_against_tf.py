"""Compares minitf's registered OpDefs with real TensorFlow's (developer tool).

Usage: /opt/tfvenv/bin/python tools/check_opdefs_against_tf.py [build/libc_api.so] [--write]

With --write, also writes TensorFlow's OpDefs of every op minitf registers (stripped as below)
to tests/fixtures/tf_opdefs.pb, which tests/python/test_op_defs.py compares with minitf's
registry on every test run.

The OpList is read from libc_api.so in a separate interpreter that does not
import TensorFlow (TensorFlow's own TF_* symbols would interpose). Docs,
summaries and full-type annotations are ignored; any other difference (args,
attr order, defaults, allowed values, flags) is printed. Exit status 1 when
an op differs.
"""
import subprocess
import sys

from tensorflow.core.framework import op_def_pb2
from tensorflow.python.framework import op_def_registry

DUMP = r"""
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
class Buf(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t), ("dealloc", ctypes.c_void_p)]
lib.TF_GetAllOpList.restype = ctypes.POINTER(Buf)
b = lib.TF_GetAllOpList().contents
sys.stdout.buffer.write(ctypes.string_at(b.data, b.length))
"""


def strip(op):
    op.ClearField("summary")
    op.ClearField("description")
    op.ClearField("deprecation")
    for a in list(op.input_arg) + list(op.output_arg):
        a.ClearField("description")
        a.ClearField("experimental_full_type")
        a.ClearField("handle_data")
    for a in op.attr:
        a.ClearField("description")
    return op


def main():
    args = [a for a in sys.argv[1:] if a != "--write"]
    lib = args[0] if args else "build/libc_api.so"
    raw = subprocess.run(["python3", "-c", DUMP, lib], check=True, capture_output=True).stdout
    mine = op_def_pb2.OpList()
    mine.ParseFromString(raw)
    bad = 0
    fixture = op_def_pb2.OpList()
    for op in mine.op:
        tf_op = op_def_registry.get(op.name)
        if tf_op is None:
            print(f"{op.name}: not a TensorFlow op")
            continue
        theirs = op_def_pb2.OpDef()
        theirs.CopyFrom(tf_op)
        fixture.op.add().CopyFrom(strip(op_def_pb2.OpDef.FromString(tf_op.SerializeToString())))
        if strip(op).SerializeToString(deterministic=True) != strip(theirs).SerializeToString(
                deterministic=True):
            bad += 1
            print(f"{op.name}: DIFFERS\n  minitf: {op}\n  tf:     {theirs}")
    print(f"{len(mine.op)} ops compared, {bad} differ")
    if "--write" in sys.argv:
        with open("tests/fixtures/tf_opdefs.pb", "wb") as f:
            f.write(fixture.SerializeToString(deterministic=True))
        print("wrote tests/fixtures/tf_opdefs.pb (%d ops)" % len(fixture.op))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
