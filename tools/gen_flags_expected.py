"""Writes tests/fixtures/flags_expected.json (developer tool, needs TensorFlow 2.21):

    /opt/tfvenv/bin/python tools/gen_flags_expected.py

Runs tests/python/flags_script.py under TensorFlow with each command line of
tests/python/flags_cases.py and records its exit status, stdout and stderr's last line.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))

import flags_cases  # noqa: E402

SCRIPT = os.path.join(HERE, "..", "tests", "python", "flags_script.py")


def run(argv):
    env = dict(os.environ, FLAGS_TF="tensorflow", TF_CPP_MIN_LOG_LEVEL="3")
    p = subprocess.run([sys.executable, SCRIPT] + argv, capture_output=True, text=True, env=env,
                       timeout=300)
    err = [l for l in p.stderr.splitlines() if l.strip()]
    return {"rc": p.returncode, "stdout": p.stdout, "stderr_last": err[-1] if err else ""}


def main():
    out = {name: run(argv) for name, argv in flags_cases.CASES.items()}
    path = os.path.join(HERE, "..", "tests", "fixtures", "flags_expected.json")
    with open(path, "w") as f:
        json.dump({"cases": out}, f, indent=1, sort_keys=True)
    print("wrote", path)


if __name__ == "__main__":
    main()
