"""Writes tests/fixtures/tensor_array_expected.json: what TensorFlow 2.21 (tf.compat.v1 graph
mode) gives for the tf.TensorArray programs in tests/python/tensor_array_cases.py, under
control flow v2 (TensorList ops) and v1 (TensorArrayV3 ops). Developer tool only:

    /opt/tfvenv/bin/python tools/gen_tensor_array_expected.py
"""
from tf_fixture import tf, write  # noqa: E402

import tensor_array_cases  # noqa: E402
import list_stack_cases  # noqa: E402


def main():
    tf.get_logger().setLevel("ERROR")
    write("tensor_array_expected.json",
          {"v2": tensor_array_cases.run_all(tf, True), "v1": tensor_array_cases.run_all(tf, False),
           "lists": {n: f(tf) for n, f in list_stack_cases.LIST_CASES.items()},
           "stacks": {n: f(tf) for n, f in list_stack_cases.STACK_CASES.items()}})


if __name__ == "__main__":
    main()
