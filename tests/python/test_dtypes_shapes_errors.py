"""dtypes, TensorShape/Dimension, the errors module, protos, sysconfig."""
import os
import subprocess
import sys

import numpy as np
import pytest

import minitf as tf


def test_dtypes():
    assert tf.float32.as_datatype_enum == 1 and tf.string.as_datatype_enum == 7
    assert tf.float32.name == "float32" and repr(tf.float32) == "tf.float32"
    assert str(tf.int64) == "<dtype: 'int64'>"
    assert tf.float32.as_numpy_dtype is np.float32 and tf.bool.as_numpy_dtype is np.bool_
    assert tf.as_dtype(np.float64) is tf.float64 and tf.as_dtype("float") is tf.float32
    assert tf.as_dtype(9) is tf.int64 and tf.float32 == np.float32 and tf.float32 != tf.float64
    assert tf.int32.is_integer and tf.float16.is_floating and not tf.bool.is_floating
    assert tf.uint8.max == 255 and tf.int8.min == -128 and tf.float32.size == 4
    with pytest.raises(TypeError):
        tf.as_dtype("no_such_type")


def test_tensor_shape_and_dimension():
    s = tf.TensorShape([None, 3])
    assert str(s) == "(None, 3)" and repr(s) == "TensorShape([None, 3])"
    assert s.rank == 2 and s[1] == 3 and s[0] is None and s.as_list() == [None, 3]
    assert not s.is_fully_defined() and s.num_elements() is None
    assert s.is_compatible_with([5, 3]) and not s.is_compatible_with([5, 4])
    assert s.merge_with([5, None]).as_list() == [5, 3]
    assert str(tf.TensorShape(None)) == "<unknown>" and str(tf.TensorShape([2])) == "(2,)"
    with pytest.raises(ValueError):
        tf.TensorShape(None).as_list()
    assert tf.TensorShape(s.as_proto()) == s
    d = tf.Dimension(4)
    assert d.value == 4 and str(tf.Dimension(None)) == "?" and (d + 1).value == 5
    assert (tf.Dimension(None) == 4) is None


def test_error_classes():
    e = tf.errors.InvalidArgumentError(None, None, "bad")
    assert isinstance(e, tf.errors.OpError) and e.error_code == 3 and str(e) == "bad"
    assert tf.errors.exception_type_from_error_code(5) is tf.errors.NotFoundError
    assert tf.errors.error_code_from_exception_type(tf.errors.FailedPreconditionError) == 9
    for code in range(1, 17):
        cls = tf.errors.exception_type_from_error_code(code)
        assert cls(None, None, "m").error_code == code
    c = tf.errors._status_to_exception(12, "not here")
    assert type(c) is tf.errors.UnimplementedError and c.message == "not here"


def test_protos_use_tensorflow_names_and_field_numbers():
    assert tf.GraphDef.DESCRIPTOR.full_name == "tensorflow.GraphDef"
    nodes = tf.GraphDef.DESCRIPTOR.fields_by_name
    assert (nodes["node"].number, nodes["versions"].number, nodes["library"].number) == (1, 4, 2)
    attr = tf.AttrValue.DESCRIPTOR.fields_by_name
    assert (attr["list"].number, attr["s"].number, attr["tensor"].number) == (1, 2, 8)
    # Hand-encoded bytes: GraphDef{node{name:"a" op:"NoOp"}} (field 1 / fields 1, 2).
    gd = tf.GraphDef.FromString(b"\x0a\x09\x0a\x01a\x12\x04NoOp")
    assert gd.node[0].name == "a" and gd.node[0].op == "NoOp"
    cfg = tf.ConfigProto(intra_op_parallelism_threads=2, inter_op_parallelism_threads=1)
    assert cfg.SerializeToString() == b"\x10\x02\x28\x01"
    with tf.Session(config=cfg) as sess:
        assert sess.run(tf.constant(1.0) + 1.0) == 2.0


def test_sysconfig_flags_build_a_c_program(tmp_path):
    out = subprocess.check_output([sys.executable, "-m", "minitf.sysconfig", "--cflags",
                                   "--libs"], text=True).split()
    assert "-I" + tf.sysconfig.get_include() in out and "-lc_api" in out
    assert os.path.exists(os.path.join(tf.sysconfig.get_include(), "tensorflow", "c", "c_api.h"))
    assert os.path.exists(os.path.join(tf.sysconfig.get_lib(), "libc_api.so"))
    src = tmp_path / "v.c"
    src.write_text('#include <stdio.h>\n#include "tensorflow/c/c_api.h"\n'
                   "int main(void) { TF_Status* s = TF_NewStatus();\n"
                   "  printf(\"%s %d\\n\", TF_Version(), (int)TF_GetCode(s));\n"
                   "  TF_DeleteStatus(s); return 0; }\n")
    exe = tmp_path / "v"
    subprocess.check_call(["gcc", "-std=c99", str(src), "-o", str(exe)] +
                          tf.sysconfig.get_compile_flags() + tf.sysconfig.get_link_flags())
    assert subprocess.check_output([str(exe)], text=True).split() == [
        tf.pywrap_tensorflow_internal.TF_Version(), "0"]
