"""Graph pictures: DOT text (always), PNG/SVG through graphviz when both the
package and the `dot` program are present."""
import shutil
import subprocess
import sys

import pytest

import minitf as tf
from minitf.framework import graph_viz


def _graph():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 3], name="x")
        with tf.name_scope("layer"):
            w = tf.constant([[1.0], [2.0], [3.0]], name="w")
            y = tf.matmul(x, w, name="mm")
        with tf.control_dependencies([y]):
            tf.no_op(name="done")
    return g


def test_dot_has_clusters_types_dtypes_shapes():
    dot = graph_viz.to_dot(_graph())
    assert 'subgraph "cluster_layer" {' in dot
    assert '"layer/mm" [label="mm\\nMatMul"];' in dot
    assert '"x" -> "layer/mm" [label="float32 [?,3]"];' in dot
    assert '"layer/w" -> "layer/mm" [label="float32 [3,1]"];' in dot
    assert '"layer/mm" -> "done" [style=dashed];' in dot


def _has_dot():
    try:
        import graphviz  # noqa: F401
    except ImportError:
        return False
    return shutil.which("dot") is not None


def test_cli_dot_and_png(tmp_path):
    g = _graph()
    pb = tmp_path / "g.pb"
    pb.write_bytes(g.as_graph_def().SerializeToString())
    out_dot, out_png = tmp_path / "g.dot", tmp_path / "g.png"
    r = subprocess.run([sys.executable, "-m", "minitf", "inspect", str(pb), "--dot", str(out_dot),
                        "--png", str(out_png)], capture_output=True, text=True)
    assert "cluster_layer" in out_dot.read_text()
    if _has_dot():
        assert r.returncode == 0 and out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    else:
        assert r.returncode == 2 and not out_png.exists()
        assert "cannot write %s" % out_png in r.stderr and "--dot" in r.stderr


def test_repr_svg():
    svg = _graph()._repr_svg_()
    if _has_dot():
        assert "<svg" in svg and "layer" in svg
    else:
        assert svg is None
