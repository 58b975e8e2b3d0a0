"""TensorShape / Dimension / DType API against TensorFlow 2.21's printed
results: tools/graph_api_reference/p7_tensor_shape_dtype.py ran under real
TensorFlow wrote tests/fixtures/graph_api/tensor_shape_dtype.txt (bfloat16's
line left out: its numpy type needs ml_dtypes). The same script run against
minitf must print the same lines."""
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def test_tensor_shape_and_dtype_api_prints_as_tensorflow():
    src = open(os.path.join(ROOT, "tools", "graph_api_reference",
                            "p7_tensor_shape_dtype.py")).read()
    src = src.replace("import tensorflow as tf1\n", "import minitf as tf1\n").replace(
        "from tensorflow.core.framework import types_pb2",
        "from minitf.core.framework import types_pb2")
    out = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True, check=True)
    got = [line for line in out.stdout.splitlines() if not line.startswith("bfloat16 ")]
    with open(os.path.join(ROOT, "tests", "fixtures", "graph_api", "tensor_shape_dtype.txt")) as f:
        want = f.read().splitlines()
    assert len(want) > 130
    assert got == want
