"""A TF1-style script for tf.app.run / tf.flags (tests/python/test_flags.py runs it with
minitf; tools/gen_flags_expected.py with TensorFlow 2.21 and records what it prints).
FLAGS_TF=tensorflow imports tensorflow.compat.v1, anything else minitf."""
import json
import os
import sys

if os.environ.get("FLAGS_TF") == "tensorflow":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow.compat.v1 as tf
else:
    import minitf as tf

flags = tf.app.flags
flags.DEFINE_string("data_dir", "/tmp/data", "Where the data is.")
flags.DEFINE_integer("batch_size", 32, "Batch size.", lower_bound=1)
flags.DEFINE_float("learning_rate", 0.01, "Learning rate.")
flags.DEFINE_boolean("train", True, "Train or evaluate.")
tf.flags.DEFINE_enum("mode", "fast", ["fast", "slow"], "Mode.")
tf.flags.DEFINE_list("layers", ["64", "32"], "Layer sizes.")
tf.flags.DEFINE_multi_string("tag", [], "Tags, repeatable.")
tf.flags.DEFINE_string(flag_name="old_style", default_value="x", docstring="TF 1.x names.")
FLAGS = tf.flags.FLAGS


def main(argv):
    print(json.dumps({
        "argv": argv[1:],
        "data_dir": FLAGS.data_dir, "batch_size": FLAGS.batch_size,
        "learning_rate": FLAGS.learning_rate, "train": FLAGS.train, "mode": FLAGS.mode,
        "layers": FLAGS.layers, "tag": FLAGS.tag, "old_style": FLAGS.old_style,
        "is_parsed": FLAGS.is_parsed(),
        "present": FLAGS["batch_size"].present,
        "in": ["mode" in FLAGS, "nope" in FLAGS],
    }, sort_keys=True))
    return 3 if FLAGS.mode == "slow" else 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--read-before-run":
        # tf.flags.FLAGS parses sys.argv when read before any parse.
        sys.argv = [sys.argv[0]] + sys.argv[2:]
        print(json.dumps({"early_batch_size": FLAGS.batch_size}))
    tf.app.run(main)
