"""examples/c/serve_saved_model.c, built with minitf.sysconfig's flags (the installed C API
headers and the generated MetaGraphDef codec headers), serves the SavedModel TF 2.21's TF1
builder wrote (tests/fixtures/saved_model_c, tools/gen_saved_model_c_fixture.py) with TF's
outputs."""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "saved_model_c")
EXPORT_DIR = os.path.join(FIXTURE, "mlp")


def _expected():
    with open(os.path.join(FIXTURE, "expected.json")) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    tmp = tmp_path_factory.mktemp("serve")
    flags = subprocess.run([sys.executable, "-m", "minitf.sysconfig", "--cflags", "--libs"],
                           capture_output=True, text=True, check=True).stdout.split()
    exe = tmp / "serve_saved_model"
    subprocess.run([cc, "-std=c99", "-Wall", "-Werror",
                    os.path.join(ROOT, "examples", "c", "serve_saved_model.c"), "-o", str(exe)]
                   + flags, check=True)
    x = tmp / "x.npy"
    np.save(x, np.array(_expected()["x"], np.float32))
    return str(exe), str(x)


def _parse(stdout):
    """{key: (dtype enum, shape, values)} from the example's lines."""
    out = {}
    for line in stdout.splitlines():
        key, dtype, shape, *vals = line.split(" ")
        dims = tuple(int(d) for d in shape.strip("[]").split(",") if d)
        out[key] = (int(dtype), dims, vals)
    return out


def test_serves_the_signature_with_tensorflows_outputs(example):
    exe, x = example
    proc = subprocess.run([exe, EXPORT_DIR, "serving_default", "x=" + x],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    got = _parse(proc.stdout)
    want = _expected()["outputs"]
    assert sorted(got) == sorted(want) == ["logits", "probs"]
    for key, values in want.items():
        dtype, shape, vals = got[key]
        assert dtype == 1 and shape == (2, 3)  # DT_FLOAT
        np.testing.assert_allclose(np.array(vals, np.float32).reshape(shape),
                                   np.array(values, np.float32), rtol=0, atol=1e-6)


def test_asset_path_reaches_the_init_op(example):
    exe, _ = example
    proc = subprocess.run([exe, EXPORT_DIR, "vocab"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    dtype, shape, vals = _parse(proc.stdout)["path"]
    assert (dtype, shape) == (7, ())  # DT_STRING scalar
    assert vals == [os.path.join(EXPORT_DIR, _expected()["vocab_path"])]


def test_reports_loader_errors(example, tmp_path):
    exe, x = example
    proc = subprocess.run([exe, str(tmp_path / "nope")], capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stderr.strip() == (
        "load failed: Could not find SavedModel .pb or .pbtxt at supplied export directory "
        "path: %s. Check that the directory exists and that you have the right permissions "
        "for accessing it." % (tmp_path / "nope"))
    proc = subprocess.run([exe, EXPORT_DIR, "nosuch"], capture_output=True, text=True)
    assert proc.returncode == 1 and "no signature nosuch" in proc.stderr
    proc = subprocess.run([exe, EXPORT_DIR, "serving_default", "y=" + x],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "not an input of the signature" in proc.stderr
