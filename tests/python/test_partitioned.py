"""Partitioned variables against TensorFlow 2.21 (tests/fixtures/partitioned_expected.json
and the TF checkpoints under tests/fixtures/checkpoints/partitioned/, both from
tools/gen_partitioned_expected.py; cases in partitioned_cases.py): the parts, their slice
specs, as_tensor's nodes, the Saver's nodes, checkpoints both ways, the partitioners."""
import json
import os
import shutil

import numpy as np
import pytest

import minitf as tf

import partitioned_cases
import saver_cases

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "fixtures")
CKPTS = os.path.join(FIX, "checkpoints", "partitioned")
with open(os.path.join(FIX, "partitioned_expected.json")) as _f:
    EXPECTED = json.load(_f)
CASES = EXPECTED["cases"]
NAMES = sorted(partitioned_cases.CASES)


def _build(name):
    g = tf.Graph()
    with g.as_default():
        pv = partitioned_cases.CASES[name](tf)
    return g, pv


@pytest.mark.parametrize("name", NAMES)
def test_parts_and_as_tensor_are_tensorflows(name):
    g, pv = _build(name)
    with g.as_default():
        got = partitioned_cases.describe(tf, g, pv)
    want = dict(CASES[name])
    for k in ("value", "save_nodes", "list_variables"):
        want.pop(k)
    assert got == want


@pytest.mark.parametrize("name", NAMES)
def test_save_nodes_are_tensorflows(name):
    g, pv = _build(name)
    with g.as_default():
        pv.as_tensor()
        tf.train.Saver(save_relative_paths=True)
    assert saver_cases.save_nodes(g, "save") == CASES[name]["save_nodes"]


@pytest.mark.parametrize("name", NAMES)
def test_tf_checkpoint_restores_into_parts(name, tmp_path):
    """TF's checkpoint (one key, slices of it per part) restores into minitf's parts."""
    g, pv = _build(name)
    with g.as_default():
        full = pv.as_tensor()
        saver = tf.train.Saver()
        with tf.Session() as sess:
            saver.restore(sess, os.path.join(CKPTS, name, "model-1"))
            np.testing.assert_array_equal(sess.run(full), CASES[name]["value"])


@pytest.mark.parametrize("name", NAMES)
def test_minitf_checkpoint_is_tfs(name, tmp_path):
    """minitf's save of the same values: TF's list_variables, the full tensor readable as
    one key, the data and index byte for byte TF's, and a plain variable of the full shape
    restores it whole."""
    g, pv = _build(name)
    d = str(tmp_path)
    with g.as_default():
        full = pv.as_tensor()
        saver = tf.train.Saver(save_relative_paths=True)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            if name in partitioned_cases.ASSIGNED:
                sess.run(pv.assign(partitioned_cases.ASSIGNED[name]))
            np.testing.assert_array_equal(sess.run(full), CASES[name]["value"])
            path = saver.save(sess, os.path.join(d, "model"), global_step=1,
                              write_meta_graph=False)
    assert [[k, list(s)] for k, s in tf.train.list_variables(path)] == \
        CASES[name]["list_variables"]
    key = CASES[name]["name"]
    np.testing.assert_array_equal(tf.train.load_variable(path, key), CASES[name]["value"])
    for suffix in (".index", ".data-00000-of-00001"):
        with open(path + suffix, "rb") as a, \
                open(os.path.join(CKPTS, name, "model-1" + suffix), "rb") as b:
            assert a.read() == b.read(), suffix
    g2 = tf.Graph()
    with g2.as_default():
        v = tf.Variable(np.zeros(CASES[name]["shape"], CASES[name]["dtype"]), name=key)
        with tf.Session() as sess:
            tf.train.Saver().restore(sess, path)
            np.testing.assert_array_equal(sess.run(v), CASES[name]["value"])


def test_whole_checkpoint_restores_into_parts(tmp_path):
    """A tensor saved whole restores into a partitioned variable (each part reads its
    slice of the full tensor)."""
    d = str(tmp_path)
    with tf.Graph().as_default():
        tf.Variable(partitioned_cases.EMB, name="emb")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            path = tf.train.Saver().save(sess, os.path.join(d, "whole"),
                                         write_meta_graph=False)
    g, pv = _build("embedding")
    with g.as_default():
        saver = tf.train.Saver()
        with tf.Session() as sess:
            saver.restore(sess, path)
            parts = [sess.run(v) for v in pv]
    np.testing.assert_array_equal(parts[1], partitioned_cases.EMB[3:5])
    np.testing.assert_array_equal(np.concatenate(parts), partitioned_cases.EMB)


def test_partitioners_are_tensorflows():
    got = []
    for kind, kw, shape, dtype in partitioned_cases.PARTITIONER_CALLS:
        part = partitioned_cases.partitioner(tf, kind, kw)
        got.append(list(part(shape=tf.TensorShape(shape), dtype=tf.as_dtype(dtype))))
    assert got == EXPECTED["partitioner_calls"]


def test_reuse_and_errors():
    with tf.Graph().as_default():
        pv = partitioned_cases.embedding(tf)
        with tf.variable_scope("", reuse=True):
            assert tf.get_variable("emb") is pv
        with pytest.raises(ValueError, match="Partitioned variable with name emb already "
                                             "exists"):
            tf.get_variable("emb", shape=[7, 5], partitioner=tf.fixed_size_partitioner(3))
        with pytest.raises(ValueError, match="Trying to reuse partitioned variable emb, but "
                                             "specified partitions"):
            with tf.variable_scope("", reuse=True):
                tf.get_variable("emb", shape=[7, 5], partitioner=tf.fixed_size_partitioner(2))
        with pytest.raises(ValueError, match="Can only slice a variable along one dimension"):
            tf.get_variable("x", shape=[4, 4], partitioner=lambda shape, dtype: [2, 2])
        with pytest.raises(ValueError, match="must be fully defined"):
            tf.get_variable("y", shape=[None, 4], partitioner=tf.fixed_size_partitioner(2))
        with pytest.raises(ValueError, match="Partitioner must be callable"):
            tf.get_variable("z", shape=[4], partitioner=3)
        with pytest.raises(NotImplementedError, match="used as a reference"):
            # the internal conversion (TF's ops.convert_to_tensor): the public one has no as_ref
            from minitf.framework import ops as framework_ops
            framework_ops.convert_to_tensor(pv, as_ref=True)
