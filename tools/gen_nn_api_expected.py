"""Writes tests/fixtures/nn_api_expected.json (developer tool, needs TensorFlow 2.21):

    /opt/tfvenv/bin/python tools/gen_nn_api_expected.py

For each case of tests/python/nn_api_cases.py: the nodes, static shapes, values and
gradients TensorFlow's tf.compat.v1.nn functions give, and the errors of ERRORS."""
import tf_fixture
from tf_fixture import tf

import nn_api_cases


def main():
    cases = {name: nn_api_cases.run(tf, build) for name, build in nn_api_cases.CASES.items()}
    errors = {name: nn_api_cases.error(tf, build)
              for name, build in nn_api_cases.ERRORS.items()}
    run_errors = {name: nn_api_cases.run_error(tf, build)
                  for name, build in nn_api_cases.RUN_ERRORS.items()}
    tf_fixture.write("nn_api_expected.json", {
        "cases": cases, "errors": errors, "run_errors": run_errors,
        "sampler_runs": nn_api_cases.sampler_runs(tf)})


if __name__ == "__main__":
    main()
