"""Writes tests/fixtures/metrics_expected.json: what TensorFlow 2.21 (tf.compat.v1 graph mode)
gives for the cases of tests/python/metrics_cases.py: tf.metrics streams (variables, names,
static shapes, update_op and value after each batch, every node's name and type), tf.confusion_matrix and tf.sets values,
construction and run-time errors. Developer tool:

    /opt/tfvenv/bin/python tools/gen_metrics_expected.py
"""
from tf_fixture import tf, write
from gen_logging_expected import run_message

import metrics_cases as cases  # noqa: E402


def main():
    tf.get_logger().setLevel("ERROR")
    out = {
        "stream": {k: cases.run_stream(tf, b) for k, b in cases.STREAM_CASES.items()},
        "values": {k: cases.run_value(tf, b) for k, b in cases.VALUE_CASES.items()},
        "static": {k: cases.static_error(tf, b) for k, b in cases.STATIC_CASES.items()},
        "run": {k: cases.run_error(tf, b, run_message) for k, b in cases.RUN_CASES.items()},
        "nodes": {k: cases.graph_nodes(tf, b) for k, b in cases.STREAM_CASES.items()},
    }
    write("metrics_expected.json", out)


if __name__ == "__main__":
    main()
