"""tf.image against TensorFlow 2.21 (tests/fixtures/image_expected.json from
tools/gen_image_expected.py, cases in image_cases.py): op type and static shape of each
result, values (bytes of the encoders exactly, integer pixels exactly, floats to float32
rounding), or TF's error class and message."""
import builtins
import json
import os

import numpy as np
import pytest

import minitf as tf

import image_cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "image_expected.json")) as _f:
    EXPECTED = json.load(_f)["cases"]


def _exc_class(cls):
    return getattr(tf.errors, cls, None) or getattr(builtins, cls)


def _same_value(got, want, name):
    assert got["dtype"] == want["dtype"] and got["shape"] == want["shape"], name
    if want["dtype"] in ("float16", "float32", "float64"):
        np.testing.assert_allclose(got["value"], want["value"], rtol=2e-6, atol=2e-6,
                                   err_msg=name)
    else:
        assert got["value"] == want["value"], name


@pytest.mark.parametrize("name", sorted(image_cases.CASES))
def test_image_case(name):
    want = EXPECTED[name]
    with tf.Graph().as_default():
        tf.set_random_seed(7)
        if "build_error" in want:
            cls, msg = want["build_error"]
            with pytest.raises(_exc_class(cls)) as info:
                image_cases.CASES[name](tf)
            assert type(info.value).__name__ == cls and str(info.value) == msg
            return
        ts = image_cases.outputs(image_cases.CASES[name](tf))
        assert [image_cases.describe(t) for t in ts] == want["nodes"]
        with tf.Session() as sess:
            if "run_error" in want:
                cls, msg = want["run_error"]
                with pytest.raises(_exc_class(cls)) as info:
                    sess.run(ts)
                got = info.value.message
                got = got[got.rindex("\nNode: '") + 1:]
                if "No OpKernel was registered" in msg:
                    # minitf does not list the kernels TF has for other devices
                    msg = msg[:msg.index("\nRegistered devices")]
                    got = got[:len(msg)]
                assert got == msg
                return
            values = sess.run(ts)
        for got, w in zip(values, want["values"]):
            _same_value(image_cases.jsonable(got), w, name)
