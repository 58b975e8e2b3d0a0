"""Writes tests/fixtures/image_expected.json (developer tool, needs TensorFlow 2.21):

    /opt/tfvenv/bin/python tools/gen_image_expected.py

For each case of tests/python/image_cases.py: the op type and static shape of each result
TF builds, and the values TF computes (image_cases.jsonable), or the exception (class,
message) building or running the case raises.
"""
import tf_fixture
from tf_fixture import tf

import image_cases


def _err(e):
    """(class, message): a run error's message from its "Node: 'name'" line on (TF's
    traceback of where the node was defined left out)."""
    msg = getattr(e, "message", None) or str(e)
    if "\nNode: '" in msg:
        msg = msg[msg.rindex("\nNode: '") + 1:]
    return [type(e).__name__, msg]


def run_case(build):
    out = {}
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(7)
        try:
            result = build(tf)
        except Exception as e:  # noqa: BLE001 - the class and text are the result
            out["build_error"] = _err(e)
            return out
        ts = image_cases.outputs(result)
        out["nodes"] = [image_cases.describe(t) for t in ts]
        with tf.Session() as sess:
            try:
                out["values"] = [image_cases.jsonable(v) for v in sess.run(ts)]
            except Exception as e:  # noqa: BLE001
                out["run_error"] = _err(e)
    return out


def main():
    tf_fixture.write("image_expected.json",
                     {"cases": {k: run_case(b) for k, b in sorted(image_cases.CASES.items())}},
                     indent=None)


if __name__ == "__main__":
    main()
