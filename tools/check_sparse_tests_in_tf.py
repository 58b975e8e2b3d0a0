"""Runs tests/python/test_sparse.py against real TensorFlow (developer tool).

Usage: /opt/tfvenv/bin/python tools/check_sparse_tests_in_tf.py

The test file's `import minitf as tf` becomes tensorflow.compat.v1 (graph mode) and
minitf.client.session becomes tensorflow.python.client.session; a tiny stand-in for
pytest.raises/fixture runs each test in a fresh Graph. Every test must pass in both.
"""
import contextlib
import inspect
import os
import re
import sys
import traceback
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

shim = types.ModuleType("pytest")
shim.fixture = lambda f: f


@contextlib.contextmanager
def _raises(exc, match=None):
    try:
        yield
    except exc as e:
        assert match is None or re.search(match, str(e)), (match, str(e))
        return
    raise AssertionError("did not raise %s" % exc)


shim.raises = _raises
sys.modules["pytest"] = shim

src = open(os.path.join(ROOT, "tests", "python", "test_sparse.py")).read()
src = src.replace("import minitf as tf",
                  "import tensorflow.compat.v1 as tf\ntf.disable_eager_execution()")
src = src.replace("from minitf.client.session import", "from tensorflow.python.client.session import")
mod = types.ModuleType("test_sparse_tf")
exec(compile(src, "test_sparse.py", "exec"), mod.__dict__)
tf = mod.tf
failed = 0
for name, fn in list(vars(mod).items()):
    if not name.startswith("test_"):
        continue
    try:
        if "g" in inspect.signature(fn).parameters:
            graph = tf.Graph()
            with graph.as_default():
                fn(graph)
        else:
            fn()
        print("PASS", name)
    except Exception:
        failed += 1
        print("FAIL", name)
        traceback.print_exc()
sys.exit(1 if failed else 0)
