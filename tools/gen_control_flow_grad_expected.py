"""Writes tests/fixtures/control_flow_grad_expected.json: TensorFlow 2.21 running the gradient
programs of tests/python/control_flow_grad_cases.py (v2 control flow, TF's compat.v1
graph-mode default), and tests/fixtures/control_flow_grad_v2/<case>.pb: each program's forward
graph as TF wrote it, before any gradient (its loss is the case's `loss` node), for minitf to
differentiate (developer tool):

    /opt/tfvenv/bin/python tools/gen_control_flow_grad_expected.py
"""
import os

import tf_fixture
from tf_fixture import tf

import control_flow_grad_cases as cases


def write_forward_graphdefs():
    """Writes the forward GraphDefs; returns {case: names of its xs}."""
    out = os.path.join(tf_fixture.HERE, "..", "tests", "fixtures", "control_flow_grad_v2")
    os.makedirs(out, exist_ok=True)
    xs = {}
    for name in cases.CASES:
        with tf.Graph().as_default():
            built = cases.forward_graph_def(tf, name)
        if built is not None:
            with open(os.path.join(out, name + ".pb"), "wb") as f:
                f.write(built[0].SerializeToString())
            xs[name] = built[1]
    return xs


def main():
    assert tf.control_flow_v2_enabled()
    tf_fixture.write("control_flow_grad_expected.json",
                     {"cases": {n: cases.run_case(tf, n) for n in cases.CASES},
                      "forward_xs": write_forward_graphdefs()})


if __name__ == "__main__":
    main()
