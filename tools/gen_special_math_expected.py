"""Writes tests/fixtures/special_math_expected.json: what TensorFlow 2.21 (tf.compat.v1 graph
mode) gives for the programs of tests/python/special_math_cases.py (values, static shapes,
graphs, gradient graphs and values, errors). Developer tool only:

    /opt/tfvenv/bin/python tools/gen_special_math_expected.py
"""
import numpy as np

import tf_fixture
from tf_fixture import tf

import special_math_cases as cases


def _clean(x):
    """JSON without NaN/inf literals: floats as they are, non-finite ones as strings."""
    if isinstance(x, float) and not np.isfinite(x):
        return repr(x)
    if isinstance(x, list):
        return [_clean(v) for v in x]
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    return x


def main():
    out = {"values": {}, "grads": {}, "errors": {}}
    for name, build in {**cases.VALUES, **cases.VALUES_NO_GRAPH}.items():
        out["values"][name] = cases.run_value(tf, build)
    for name, build in cases.GRADS.items():
        out["grads"][name] = cases.run_grad(tf, build)
    for name, build in cases.ERRORS.items():
        out["errors"][name] = cases.run_error(tf, build)
    tf_fixture.write("special_math_expected.json", _clean(out))


if __name__ == "__main__":
    main()
