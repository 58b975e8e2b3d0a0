"""Training from scratch matches real TensorFlow 2.21: the digits MLP and CNN of
minitf/training_demo.py (same code, seeds and batches) trained for 200 Adam steps give
TensorFlow's loss at every step (1e-4 relative), its variable and slot names, and its test
predictions; the frozen GraphDef predicts as the trained graph, and as TensorFlow does when
it runs minitf's frozen GraphDef (tests/fixtures/training/digits.json, written by
tools/gen_training_fixture.py)."""
import json
import os

import numpy as np
import pytest

import minitf as tf
from minitf import training_demo as demo

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "training", "digits.json")
with open(FIXTURE) as f:
    EXPECTED = json.load(f)

DATA = demo.load_digits()


@pytest.fixture(scope="module", params=["mlp", "cnn"])
def trained(request):
    build = demo.build_mlp if request.param == "mlp" else demo.build_cnn
    model = build(tf)
    sess, losses = demo.train(tf, model, EXPECTED["steps"], DATA[0], DATA[1])
    yield request.param, model, sess, losses
    sess.close()


def test_loss_curve_equals_tensorflows(trained):
    name, _, _, losses = trained
    np.testing.assert_allclose(losses, EXPECTED[name]["losses"], rtol=1e-4)


def test_variables_and_slots_named_as_tensorflow(trained):
    name, model, _, _ = trained
    got = sorted(op.name for op in model["graph"].get_operations()
                 if op.type in ("VarHandleOp", "VariableV2"))
    assert got == EXPECTED[name]["variables"]


def test_test_predictions_equal_tensorflows(trained):
    name, model, sess, _ = trained
    pred = sess.run(model["pred"], {model["x"]: DATA[2]})
    want = np.array(EXPECTED[name]["test_pred"])
    assert np.mean(pred == want) >= 0.995
    assert np.mean(pred == DATA[3]) >= 0.97


def test_frozen_graph_predicts_as_trained_and_as_tensorflow_runs_it(trained):
    name, model, sess, _ = trained
    if name != "mlp":
        pytest.skip("the MLP is the model frozen")
    frozen = demo.freeze(tf, model, sess)
    assert not [n for n in frozen.node if n.op in ("VarHandleOp", "ReadVariableOp",
                                                   "VariableV2")]
    logits, pred = demo.run_frozen(tf, frozen, DATA[2])
    np.testing.assert_array_equal(pred, sess.run(model["pred"], {model["x"]: DATA[2]}))
    in_tf = EXPECTED["minitf_frozen_mlp_in_tf"]
    np.testing.assert_array_equal(pred, in_tf["pred"])
    np.testing.assert_allclose(logits, in_tf["logits"], rtol=1e-5, atol=1e-5)
