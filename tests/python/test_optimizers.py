"""Every tf.train optimizer, ten steps on a fixed problem (optimizer_cases.py: ref and resource
variables, dense gradients and IndexedSlices with a repeated row), against TensorFlow 2.21's
values (tests/fixtures/optimizer_expected.json, written by tools/gen_optimizer_expected.py):
the loss, the variables and every slot after each step (1e-6 relative to each tensor's largest
magnitude, float32), the slot names, the optimizer's variables, the global step and the training graph's nodes
(names and types); plus TF's
errors."""
import json
import os

import numpy as np
import pytest

import minitf as tf
import optimizer_cases

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "optimizer_expected.json")
with open(FIXTURE) as f:
    EXPECTED = json.load(f)["runs"]


# TensorFlow's group() of resource assigns reads each assigned variable (ReadVariableOps
# nothing consumes); minitf groups the assign ops themselves.
UNREAD_IN_MINITF = {"adam/resource": {
    "Adam/ReadVariableOp_2 ReadVariableOp", "Adam/ReadVariableOp_3 ReadVariableOp",
    "Adam/update_e/ReadVariableOp_7 ReadVariableOp",
    "Adam/update_e/ReadVariableOp_8 ReadVariableOp"}}


def _compare(got, want, key):
    assert set(got["nodes"]) == set(want["nodes"]) - UNREAD_IN_MINITF.get(key, set())
    assert got["slot_names"] == want["slot_names"]
    assert got["slot_vars"] == want["slot_vars"]
    assert got["opt_vars"] == want["opt_vars"]
    assert got["global_step"] == want["global_step"] == 10
    assert len(got["steps"]) == len(want["steps"])
    for i, (g, w) in enumerate(zip(got["steps"], want["steps"])):
        assert sorted(g) == sorted(w)
        for key in w:
            expect = np.array(w[key])
            scale = max(float(np.max(np.abs(expect))), 1e-30)
            np.testing.assert_allclose(np.array(g[key]), expect, rtol=1e-6, atol=1e-6 * scale,
                                       err_msg="step %d %s" % (i, key))


def test_every_optimizer_has_tensorflow_values():
    assert sorted(EXPECTED) == sorted("%s/%s" % (n, k) for n in optimizer_cases.OPTIMIZERS
                                      for k in ("ref", "resource"))


@pytest.mark.parametrize("kind", ["resource", "ref"])
@pytest.mark.parametrize("name", list(optimizer_cases.OPTIMIZERS))
def test_ten_steps_equal_tensorflows(name, kind):
    key = "%s/%s" % (name, kind)
    _compare(optimizer_cases.run(tf, name, ref=kind == "ref"), EXPECTED[key], key)


def test_errors_as_tensorflow():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="No variables to optimize."):
            tf.train.GradientDescentOptimizer(0.1).minimize(tf.constant(1.0) * 2.0)
        v = tf.Variable([1.0, 2.0], name="v")
        other = tf.Variable([3.0], name="other")
        loss = tf.reduce_sum(v * v)
        with pytest.raises(ValueError, match="No gradients provided for any variable"):
            tf.train.GradientDescentOptimizer(0.1).minimize(loss, var_list=[other])
        iv = tf.Variable([1, 2], name="iv")
        with pytest.raises(ValueError, match=r"Invalid type tf.int32 for Sum_1:0, expected: \["):
            tf.train.GradientDescentOptimizer(0.1).compute_gradients(tf.reduce_sum(iv),
                                                                     var_list=[iv])
        # an integer variable simply gets no gradient (TensorFlow's behaviour)
        assert tf.train.GradientDescentOptimizer(0.1).compute_gradients(
            tf.cast(tf.reduce_sum(iv), tf.float32), var_list=[iv]) == [(None, iv)]
        with pytest.raises(ValueError, match="gate_gradients must be one of"):
            tf.train.AdamOptimizer().compute_gradients(loss, gate_gradients=7)
        with pytest.raises(ValueError, match="Must specify the optimizer name"):
            tf.train.GradientDescentOptimizer(0.1, name="")


@pytest.mark.parametrize("use_resource", [True, False])
def test_update_with_wrong_shape_names_node_and_keeps_variable(use_resource):
    with tf.Graph().as_default():
        v = tf.Variable([1.0, 2.0], name="v", use_resource=use_resource)
        opt = tf.train.GradientDescentOptimizer(1.0)
        # known when built: TensorFlow's shape error
        with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3"):
            opt.apply_gradients([(tf.constant([1.0, 2.0, 3.0]), v)])
        # known only when run: the kernel's error, the variable unchanged
        grad = tf.placeholder(tf.float32, None)
        bad = opt.apply_gradients([(grad, v)])
        with tf.Session() as sess:
            sess.run(v.initializer)
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"var and delta do not have the same shape\[2\] \[3\]"):
                sess.run(bad, {grad: [1.0, 2.0, 3.0]})
            np.testing.assert_array_equal(sess.run(v), [1.0, 2.0])
