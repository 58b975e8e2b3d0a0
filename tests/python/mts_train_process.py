"""A training process for test_monitored_session.py's crash test:

    python mts_train_process.py CHECKPOINT_DIR OUT_JSON SECONDS_PER_STEP

trains monitored_session_cases' model with MonitoredTrainingSession over CHECKPOINT_DIR
(resuming from its latest checkpoint), sleeping after each step so a test can kill it
between checkpoints, and writes the trained variables to OUT_JSON when it finishes."""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import minitf as tf  # noqa: E402

import monitored_session_cases as cases  # noqa: E402


class _Slow(tf.train.SessionRunHook):
    def __init__(self, seconds):
        self._seconds = seconds

    def after_run(self, run_context, run_values):
        time.sleep(self._seconds)


def main():
    directory, out, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    tf.logging.set_verbosity(tf.logging.INFO)
    result = cases.train(tf, directory, extra_hooks=[_Slow(seconds)])
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(result["values"], f)
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
