"""Writes tests/fixtures/control_flow_expected.json: TensorFlow 2.21 running
tests/python/control_flow_cases.py (v2 control flow, TF's compat.v1 graph-mode default), and
tests/fixtures/control_flow_v2/*.pb: those graphs as GraphDefs TF wrote, with their function
libraries (developer tool):

    /opt/tfvenv/bin/python tools/gen_control_flow_expected.py
"""
import os

import tf_fixture
from tf_fixture import tf

import control_flow_cases as cases


def write_graphdefs():
    out = os.path.join(tf_fixture.HERE, "..", "tests", "fixtures", "control_flow_v2")
    os.makedirs(out, exist_ok=True)
    for name in cases.CASES:
        g = tf.Graph()
        with g.as_default():
            cases.CASES[name](tf)
        with open(os.path.join(out, name + ".pb"), "wb") as f:
            f.write(g.as_graph_def().SerializeToString())


def main():
    assert tf.control_flow_v2_enabled()
    tf_fixture.write("control_flow_expected.json", {
        "cases": {n: cases.run_case(tf, n) for n in cases.CASES},
        "errors": {n: cases.run_error(tf, n) for n in cases.ERRORS}})
    write_graphdefs()


if __name__ == "__main__":
    main()
