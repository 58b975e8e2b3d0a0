"""tf.app.run and tf.flags against TensorFlow 2.21: tests/python/flags_script.py, a TF1-style
script (DEFINE_string/integer/float/boolean/enum/list/multi_string, the TF 1.x keyword
names, FLAGS read before run), run under minitf with each command line of flags_cases.py;
its exit status, output and last stderr line equal what tools/gen_flags_expected.py
recorded under TensorFlow (tests/fixtures/flags_expected.json)."""
import json
import os
import subprocess
import sys

import pytest

import flags_cases

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "flags_script.py")
with open(os.path.join(HERE, "..", "fixtures", "flags_expected.json")) as _f:
    EXPECTED = json.load(_f)["cases"]


@pytest.mark.parametrize("name", sorted(flags_cases.CASES))
def test_flags_script(name):
    env = dict(os.environ)
    env.pop("FLAGS_TF", None)
    p = subprocess.run([sys.executable, SCRIPT] + flags_cases.CASES[name], capture_output=True,
                       text=True, env=env, timeout=300)
    want = EXPECTED[name]
    err = [line for line in p.stderr.splitlines() if line.strip()]
    assert (p.returncode, p.stdout) == (want["rc"], want["stdout"]), p.stderr
    assert (err[-1] if err else "") == want["stderr_last"]


def test_flags_module_is_absl():
    import absl.flags

    import minitf as tf
    assert tf.flags.DEFINE_enum is absl.flags.DEFINE_enum
    assert tf.app.flags is tf.flags
    assert tf.flags.FlagValues is absl.flags.FlagValues
