"""Every Python test builds in its own fresh default graph."""
import pytest

import minitf as tf


@pytest.fixture(autouse=True)
def graph():
    g = tf.Graph()
    with g.as_default():
        yield g
