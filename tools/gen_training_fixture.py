"""Writes tests/fixtures/training/digits.json: real TensorFlow 2.21 training the digits MLP and
CNN of minitf/training_demo.py (same code, same seeds, same batches) for 200 steps: the loss
of every step, the test predictions of the trained graph, and the predictions TensorFlow
gives for the frozen GraphDef that minitf writes after the same training (read from
--minitf-frozen FILE when given; produce it with
`python -c "import minitf.training_demo as d; d.write_frozen_mlp('mlp.pb', 200)"`).

    /opt/tfvenv/bin/python tools/gen_training_fixture.py [--minitf-frozen mlp.pb]
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "pyfront"))

import numpy as np  # noqa: E402
import tensorflow.compat.v1 as tf  # noqa: E402

tf.disable_eager_execution()

import importlib.util  # noqa: E402

spec = importlib.util.spec_from_file_location(
    "training_demo", os.path.join(HERE, "..", "pyfront", "minitf", "training_demo.py"))
demo = importlib.util.module_from_spec(spec)
spec.loader.exec_module(demo)

STEPS = 200


def main(argv):
    x_train, y_train, x_test, y_test = demo.load_digits()
    out = {"tf_version": tf.__version__, "steps": STEPS}
    for name, build in (("mlp", demo.build_mlp), ("cnn", demo.build_cnn)):
        model = build(tf)
        sess, losses = demo.train(tf, model, STEPS, x_train, y_train)
        pred = sess.run(model["pred"], {model["x"]: x_test})
        out[name] = {"losses": losses, "test_pred": pred.tolist(),
                     "test_accuracy": float(np.mean(pred == y_test)),
                     "variables": sorted(op.name for op in model["graph"].get_operations()
                                         if op.type in ("VarHandleOp", "VariableV2"))}
        sess.close()
    if "--minitf-frozen" in argv:
        path = argv[argv.index("--minitf-frozen") + 1]
        gd = tf.GraphDef()
        with open(path, "rb") as f:
            gd.ParseFromString(f.read())
        logits, pred = demo.run_frozen(tf, gd, x_test)
        out["minitf_frozen_mlp_in_tf"] = {"pred": pred.tolist(),
                                          "logits": np.asarray(logits).tolist()}
    path = os.path.join(HERE, "..", "tests", "fixtures", "training", "digits.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path) and "--minitf-frozen" not in argv:
        with open(path) as f:
            old = json.load(f)
        if "minitf_frozen_mlp_in_tf" in old:
            out["minitf_frozen_mlp_in_tf"] = old["minitf_frozen_mlp_in_tf"]
    with open(path, "w") as f:
        json.dump(out, f)
    print("wrote", path, {k: out[k]["test_accuracy"] for k in ("mlp", "cnn")},
          "final losses", out["mlp"]["losses"][-1], out["cnn"]["losses"][-1])


if __name__ == "__main__":
    main(sys.argv[1:])
