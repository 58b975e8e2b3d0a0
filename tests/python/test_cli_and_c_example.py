"""The main job (python -m minitf demo/run/inspect) and the plain C example built with
minitf.sysconfig's flags, checked against the outputs real TensorFlow 2.21 wrote."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import minitf
from minitf import cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "digits_mlp")


def _io():
    return np.load(os.path.join(FIXTURE, "io.npz"))


def test_demo_prints_seed_results_and_matches_tensorflow(capsys):
    result = cli.demo(train=False)
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[1:4] == [
        'Tensor("Const:0", shape=(), dtype=float32)',
        'Tensor("Const_1:0", shape=(), dtype=float32)',
        'Tensor("add:0", shape=(), dtype=float32)',
    ]
    assert lines[4].startswith("7.0 <class 'numpy.float32'>")
    assert lines[5] == "3.75"
    assert result["max_diff"] <= 1e-5
    labels = np.load(os.path.join(FIXTURE, "labels.npy"))
    assert result["accuracy"] == result["tf_accuracy"] == float(np.mean(_io()["fetch:pred:0"] == labels))
    assert "accuracy: minitf 0.9824, TensorFlow 0.9824" in out


def test_demo_module_entry_point_exit_code():
    proc = subprocess.run([sys.executable, "-m", "minitf", "demo", "--no-train"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "predictions identical to TensorFlow's: True" in proc.stdout


def test_run_any_graph_def_with_feed_file(tmp_path, capsys):
    x = _io()["feed:x:0"][:5]
    path = tmp_path / "x.npy"
    np.save(path, x)
    values = cli.run(os.path.join(FIXTURE, "graph.pb"), [cli._parse_feed("x:0=%s" % path)], ["pred:0"])
    np.testing.assert_array_equal(values[0], _io()["fetch:pred:0"][:5])
    assert "pred:0: shape=(5,) dtype=int64" in capsys.readouterr().out


def test_run_without_graph_uses_embedded_default(capsys):
    assert cli.main(["run", "--fetch", "pred:0"]) == 0
    assert "pred:0: shape=(397,) dtype=int64" in capsys.readouterr().out


def test_inspect_lists_ops_placeholders_outputs(capsys):
    cli.inspect(os.path.join(FIXTURE, "graph.pb"))
    out = capsys.readouterr().out
    assert "18 ops" in out
    assert "MatMul" in out and "  x:0  dtype=float32 shape=(None, 64)" in out
    # pred (ArgMax) and probs (Softmax) are consumed by nothing: the likely fetches
    likely = out.split("likely outputs:")[1]
    assert "pred:0" in likely and "probs:0" in likely and "x:0" not in likely


def test_malformed_graph_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.pb"
    bad.write_bytes(b"\x0a\xff\xff\xff\xff\x0f garbage")
    with pytest.raises(minitf.errors.InvalidArgumentError):
        cli.inspect(str(bad))


def _build_example(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    flags = subprocess.run([sys.executable, "-m", "minitf.sysconfig", "--cflags", "--libs"],
                           capture_output=True, text=True, check=True).stdout.split()
    exe = tmp_path / "run_graphdef"
    subprocess.run([cc, "-std=c99", "-Wall", "-Werror", os.path.join(ROOT, "examples", "c", "run_graphdef.c"),
                    "-o", str(exe)] + flags, check=True)
    x = tmp_path / "x.npy"
    np.save(x, _io()["feed:x:0"])
    return str(exe), str(x)


def test_c_example_predicts_like_tensorflow(tmp_path):
    exe, x = _build_example(tmp_path)
    proc = subprocess.run([exe, os.path.join(FIXTURE, "graph.pb"), x, "x", "probs"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    preds = np.array([int(l) for l in proc.stdout.split()])
    np.testing.assert_array_equal(preds, _io()["fetch:pred:0"])


def test_c_example_reports_bad_graph(tmp_path):
    exe, x = _build_example(tmp_path)
    bad = tmp_path / "bad.pb"
    bad.write_bytes(b"\x0a\x05\x0a\x01")  # truncated NodeDef
    proc = subprocess.run([exe, str(bad), x], capture_output=True, text=True)
    assert proc.returncode == 1
    assert "import failed" in proc.stderr


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind not installed")
def test_c_example_is_clean_under_valgrind(tmp_path):
    exe, x = _build_example(tmp_path)
    proc = subprocess.run(["valgrind", "--leak-check=full", "--errors-for-leak-kinds=definite,indirect",
                           "--error-exitcode=3", exe, os.path.join(FIXTURE, "graph.pb"), x],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "ERROR SUMMARY: 0 errors" in proc.stderr


def test_cli_reports_user_mistakes_in_one_line(tmp_path, capsys):
    bad = tmp_path / "x.npy"
    np.save(bad, np.zeros((2, 3), np.float32))
    graph = os.path.join(FIXTURE, "graph.pb")
    assert cli.main(["run", str(tmp_path / "nope.pb"), "--fetch", "probs:0"]) == 2
    assert cli.main(["run", graph, "--feed", "x:0=%s" % bad, "--fetch", "probs:0"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["minitf run: error: no such file: %s" % (tmp_path / "nope.pb"),
                   "minitf run: error: Cannot feed value of shape (2, 3) for Tensor x:0, which "
                   "has shape (None, 64)"]
