"""Training steps per second of the digits MLP and the small CNN (minitf/training_demo.py,
batch 64, Adam), minitf beside real TensorFlow in the same run. One case = one training step
(Session.run of the train op and the loss, the batch fed); the two engines are timed
alternately (bench/common.py `interleaved`), TensorFlow kept in a --tf-serve subprocess.

        python bench/bench_training.py [--tf-python PATH | --no-tf] [--rounds N] [--only NAME]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pyfront"))
import common  # noqa: E402

CASES = ["mlp", "cnn"]


def _demo():
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pyfront", "minitf",
                        "training_demo.py")
    spec = importlib.util.spec_from_file_location("training_demo", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def setup(tf, name):
    demo = _demo()
    x_train, y_train, _, _ = demo.load_digits()
    model = (demo.build_mlp if name == "mlp" else demo.build_cnn)(tf)
    sess = tf.Session(graph=model["graph"])
    sess.run(model["init"])
    batches = demo.batches(x_train, y_train, 64)
    state = {"i": 0}
    fetches = [model["train"], model["loss"]]

    def step():
        bx, by = batches[state["i"] % len(batches)]
        state["i"] += 1
        sess.run(fetches, {model["x"]: bx, model["labels"]: by})

    for _ in range(20):  # warm-up: plans, allocator
        step()
    return step


def main():
    names, rounds = common.selected_cases(CASES, sys.argv)
    if "--tf-serve" in sys.argv:
        common.tf_serve(setup)
        return
    res = common.interleaved(os.path.abspath(__file__), setup, names, sys.argv, rounds,
                             repeats=5, number=20)
    print("training steps/s, batch 64, Adam (%d rounds x median of 5 x 20 steps; "
          "mt/TF = ratio of steps/s, median of same-round ratios)" % rounds)
    print("%-6s %12s %12s %8s %6s" % ("model", "minitf", "TF", "mt/TF", "best"))
    for name in names:
        t, tt, ratio, best = res[name]
        print("%-6s %12.0f %12s %8s %6s" % (
            name, 1 / t, "%.0f" % (1 / tt) if tt else "-",
            "%.2f" % (1 / ratio) if ratio else "-", "%.2f" % (1 / best) if best else "-"))


if __name__ == "__main__":
    main()
