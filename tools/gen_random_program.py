"""Writes tests/fixtures/random_program/: TensorFlow's ops, seeds and numbers for the TF1
program in tests/python/random_program.py.

Run: /opt/tfvenv/bin/python tools/gen_random_program.py"""
import json
import os
import subprocess
import sys

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))
import random_program  # noqa: E402

if len(sys.argv) == 3:  # child: TensorFlow sizes its process-wide intra-op pool by the first
    # session's config, so each thread count needs a fresh process.
    np.save(sys.argv[2], random_program.sharded_multinomial(tf, int(sys.argv[1])))
    sys.exit(0)

out_dir = os.path.join(ROOT, "tests", "fixtures", "random_program")
os.makedirs(out_dir, exist_ok=True)
g = tf.Graph()
with g.as_default():
    tensors = random_program.build(tf)
    values = random_program.run(tf, tensors)
    meta = {"ops": random_program.describe(g),
            "tensors": {k: {"shape": t.shape.as_list(), "dtype": t.dtype.name}
                        for k, t in tensors.items()}}
for n in random_program.SHARDED_THREADS:
    tmp = os.path.join(out_dir, "tmp_sharded.npy")
    subprocess.run([sys.executable, os.path.abspath(__file__), str(n), tmp], check=True,
                   stderr=subprocess.DEVNULL)
    values["sharded/%d" % n] = np.load(tmp)
    os.remove(tmp)
np.savez_compressed(os.path.join(out_dir, "expected.npz"), **values)
with open(os.path.join(out_dir, "graph.json"), "w") as f:
    json.dump(meta, f, indent=1)
print("wrote", out_dir)
