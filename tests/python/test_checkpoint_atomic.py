"""Saves are atomic, as TensorFlow's: a training process killed with SIGKILL at random
points (seeded delays, several times over, the process restarted from its latest checkpoint
each time) always leaves a `checkpoint` state file whose checkpoints all restore, with every
variable equal to the step it was saved at. No half-written checkpoint is ever the latest
(the bundle and V1 writers write temporary files and rename them; the state file is written
to a temporary name and renamed; max_to_keep deletes old checkpoints after the state file
names the new one)."""
import os
import random
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import minitf as tf

CHILD = r"""
import os, sys
import numpy as np
import minitf as tf
d, version, sharded = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
with tf.device("/cpu:0"):
    big = tf.Variable(np.zeros(1 << 19, np.float32), name="big")
with tf.device("/cpu:1" if sharded else "/cpu:0"):
    ref = tf.Variable(np.zeros([3, 4], np.float64), name="ref", use_resource=False)
    word = tf.Variable(b"", name="word")
step = tf.placeholder(tf.int64, [])
text = tf.placeholder(tf.string, [])
assign = tf.group(big.assign(tf.fill([1 << 19], tf.cast(step, tf.float32))),
                  ref.assign(tf.fill([3, 4], tf.cast(step, tf.float64))),
                  word.assign(text))
saver = tf.train.Saver(max_to_keep=2, write_version=version, sharded=sharded)
with tf.Session(config=tf.ConfigProto(device_count={"CPU": 2})) as sess:
    sess.run(tf.global_variables_initializer())
    latest = tf.train.latest_checkpoint(d)
    first = 1
    if latest:
        saver.restore(sess, latest)
        first = int(sess.run(ref)[0, 0]) + 1
    for s in range(first, first + 100000):
        sess.run(assign, {step: s, text: str(s)})
        saver.save(sess, os.path.join(d, "model"), global_step=s, write_meta_graph=False)
        print(s, flush=True)
"""


def _check_consistent(d, version):
    """Every checkpoint the state file names restores with all variables equal to its
    step; returns the latest step."""
    state = tf.train.get_checkpoint_state(d)
    assert state is not None and state.model_checkpoint_path
    assert state.all_model_checkpoint_paths[-1] == state.model_checkpoint_path
    g = tf.Graph()
    with g.as_default():
        big = tf.Variable(np.full(1 << 19, -1, np.float32), name="big")
        ref = tf.Variable(np.full([3, 4], -1, np.float64), name="ref", use_resource=False)
        word = tf.Variable(b"x", name="word")
        saver = tf.train.Saver(write_version=version)
        with tf.Session() as sess:
            for path in state.all_model_checkpoint_paths:
                step = int(re.search(r"model-(\d+)$", path).group(1))
                saver.restore(sess, path)
                b, r, w = sess.run([big, ref, word])
                assert (b == step).all() and (r == step).all() and w == str(step).encode(), path
    return int(re.search(r"model-(\d+)$", state.model_checkpoint_path).group(1))


@pytest.mark.parametrize("version,sharded", [(tf.train.SaverDef.V2, False),
                                             (tf.train.SaverDef.V1, False),
                                             (tf.train.SaverDef.V2, True)])
def test_sigkill_mid_save_leaves_the_latest_checkpoint_restorable(tmp_path, version, sharded):
    # sharded: variables on two CPU devices, so each save writes two temporary shards
    # (model-N_temp/part-0000x-of-00002) and merges them into model-N.
    rng = random.Random(20260 + version + 7 * sharded)
    d = str(tmp_path)
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    last = 0
    for _ in range(6):
        p = subprocess.Popen([sys.executable, str(script), d, str(version), str(int(sharded))],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            line = p.stdout.readline()  # one more save completed: the kill lands later
            assert line.strip(), "the child saved nothing"
            time.sleep(rng.uniform(0.0, 0.4))
        finally:
            p.send_signal(signal.SIGKILL)
            p.wait()
        latest = _check_consistent(d, version)
        assert latest > last  # each run went on from where the last one stopped
        last = latest
    # max_to_keep=2: at most the two named checkpoints (and files of the one cut off).
    state = tf.train.get_checkpoint_state(d)
    assert len(state.all_model_checkpoint_paths) == 2
    if version == tf.train.SaverDef.V2:
        shards = 2 if sharded else 1
        assert os.path.exists(state.model_checkpoint_path + ".data-%05d-of-%05d" % (
            shards - 1, shards))
    else:
        assert os.path.isfile(state.model_checkpoint_path)  # V1: one file per checkpoint
