"""The training example fits its line and leaves a log directory TensorBoard reads: the graph
and the loss curve (read back with tensorboard's own event loader)."""
import os
import sys

import numpy as np
import pytest

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                        "examples", "python")
sys.path.insert(0, EXAMPLES)

import train_linear_regression  # noqa: E402


def test_training_converges_and_tensorboard_reads_the_log(tmp_path):
    event_accumulator = pytest.importorskip(
        "tensorboard.backend.event_processing.event_accumulator")
    w, b, losses = train_linear_regression.train(str(tmp_path), steps=100)
    # y = 3x + 2 + noise(0.05): gradient descent gets close in 100 steps
    assert abs(w - 3.0) < 0.05 and abs(b - 2.0) < 0.05
    assert losses[0] > 4.0 and losses[-1] < 0.01
    assert all(later <= earlier for earlier, later in zip(losses, losses[1:]))
    acc = event_accumulator.EventAccumulator(str(tmp_path))
    acc.Reload()
    scalars = acc.Scalars("loss")
    assert [e.step for e in scalars] == list(range(100))
    np.testing.assert_allclose([e.value for e in scalars], losses, rtol=1e-6)
    graph = acc.Graph()
    names = {n.name for n in graph.node}
    assert {"x", "y", "model/w", "mse/Mean", "train/group_deps"} <= names
