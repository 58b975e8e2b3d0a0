"""Writes tests/fixtures/saver_expected.json and TensorFlow-written checkpoints under
tests/fixtures/checkpoints/saver/ (developer tool, needs TensorFlow 2.21):

    /opt/tfvenv/bin/python tools/gen_saver_expected.py

For each graph of tests/python/saver_cases.py: the save/ nodes TF's tf.train.Saver builds
(name, op, inputs, device, attrs), its SaverDef, the values of the saved variables and
TF's list_variables of the checkpoint it writes (tests/fixtures/checkpoints/saver/<case>/).
Also: a partitioned variable's save nodes and checkpoint, the `checkpoint` state file after
several saves with max_to_keep, and TF's error messages for bad restores and saves.
"""
import os
import shutil
import tempfile

import numpy as np
from google.protobuf import text_format

import tf_fixture
from tf_fixture import tf

import saver_cases

ROOT = os.path.join(tf_fixture.HERE, "..", "tests", "fixtures", "checkpoints", "saver")


def _scope(saver):
    return saver.saver_def.restore_op_name.split("/")[0]


def _record(g, saver, sess, var_list, case_dir, step):
    path = saver.save(sess, os.path.join(case_dir, "model"), global_step=step,
                      write_meta_graph=False)
    return {
        "nodes": saver_cases.save_nodes(g, _scope(saver)),
        "saver_def": text_format.MessageToString(saver.as_saver_def()),
        "values": saver_cases.values_of(sess, var_list),
        "returned_path": os.path.relpath(path, case_dir),
        "list_variables": [[k, list(s)] for k, s in tf.train.list_variables(path)],
        "files": sorted(os.listdir(case_dir)),
        "state": open(os.path.join(case_dir, "checkpoint")).read(),
    }


def graph_case(name, build):
    case_dir = os.path.join(ROOT, name)
    shutil.rmtree(case_dir, ignore_errors=True)
    os.makedirs(case_dir)
    g = tf.Graph()
    with g.as_default():
        var_list, kwargs = build(tf)
        saver = tf.train.Saver(var_list, save_relative_paths=True, **kwargs)
        if var_list is None:
            var_list = tf.global_variables()
        with tf.Session(config=saver_cases.session_config(tf)) as sess:
            sess.run(tf.global_variables_initializer())
            train = tf.get_collection("train_op")
            if train:
                sess.run(train[0])
            return _record(g, saver, sess, var_list, case_dir, 3)


def partitioned():
    """get_variable with fixed_size_partitioner(2): parts p/part_0, p/part_1 saved as slices
    of one checkpoint key `p`."""
    case_dir = os.path.join(ROOT, "partitioned")
    shutil.rmtree(case_dir, ignore_errors=True)
    os.makedirs(case_dir)
    g = tf.Graph()
    with g.as_default():
        p = tf.get_variable("p", shape=[4, 3], initializer=tf.zeros_initializer(),
                            partitioner=tf.fixed_size_partitioner(2))
        q = tf.Variable(saver_cases.B, name="q")
        saver = tf.train.Saver(save_relative_paths=True)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for part in p:
                start = part._save_slice_info.var_offset[0]
                sess.run(part.assign(saver_cases.P[start:start + part.shape[0]]))
            out = _record(g, saver, sess, [q], case_dir, 1)
            out["values"]["p"] = sess.run(p.as_tensor()).tolist()
            out["parts"] = [[v.name, v._save_slice_info.spec, v.shape.as_list()]
                            for v in p]
    return out


def state_file():
    """Four saves with max_to_keep=2 (absolute paths, DIR stands for the directory), the
    files left and TF's latest_checkpoint / get_checkpoint_state after them."""
    d = tempfile.mkdtemp()
    out = {}
    g = tf.Graph()
    with g.as_default():
        tf.Variable(1.0, name="x")
        saver = tf.train.Saver(max_to_keep=2)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            returned = [saver.save(sess, os.path.join(d, "model"), global_step=s)
                        for s in (10, 20, 30, 40)]
            out["returned"] = [r.replace(d, "DIR") for r in returned]
            out["last_checkpoints"] = [r.replace(d, "DIR") for r in saver.last_checkpoints]
            text = open(os.path.join(d, "checkpoint")).read()
            out["state"] = text.replace(d, "DIR")
            out["files"] = sorted(os.listdir(d))
            out["latest"] = tf.train.latest_checkpoint(d).replace(d, "DIR")
            st = tf.train.get_checkpoint_state(d)
            out["state_proto_paths"] = [p.replace(d, "DIR") for p in
                                        st.all_model_checkpoint_paths]
            # A new Saver recovers the paths from the state file.
            s2 = tf.train.Saver(max_to_keep=2)
            s2.recover_last_checkpoints(st.all_model_checkpoint_paths)
            out["recovered"] = [p.replace(d, "DIR") for p in s2.last_checkpoints]
    shutil.rmtree(d)
    d = tempfile.mkdtemp()
    with g.as_default():
        saver = tf.train.Saver(save_relative_paths=True)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            saver.save(sess, os.path.join(d, "model.ckpt"), latest_filename="my_state")
            saver.save(sess, os.path.join(d, "model.ckpt"), global_step=7,
                       latest_filename="my_state")
            out["relative_state"] = open(os.path.join(d, "my_state")).read()
            out["relative_files"] = sorted(os.listdir(d))
            out["relative_latest"] = tf.train.latest_checkpoint(d, "my_state").replace(
                d, "DIR")
    shutil.rmtree(d)
    return out


def _err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the class and text are the result
        return [type(e).__name__, str(e)]
    return None


def errors():
    """TF's exceptions (class, text) for bad restores and saves of case `resource`'s
    checkpoint."""
    prefix = os.path.join(ROOT, "resource", "model-3")
    out = {}

    def restore_into(build):
        g = tf.Graph()
        with g.as_default():
            build()
            saver = tf.train.Saver()
            with tf.Session() as sess:
                saver.restore(sess, prefix)

    out["missing_key"] = _err(lambda: restore_into(
        lambda: (tf.Variable(saver_cases.A, name="a"), tf.Variable(1.0, name="zzz"))))
    out["shape_mismatch"] = _err(lambda: restore_into(
        lambda: tf.Variable(np.zeros((3, 2), np.float32), name="a")))
    out["shape_mismatch_ref"] = _err(lambda: restore_into(
        lambda: tf.Variable(np.zeros((3, 2), np.float32), name="a", use_resource=False)))
    out["dtype_mismatch"] = _err(lambda: restore_into(
        lambda: tf.Variable(np.zeros((2, 3), np.int32), name="a")))
    g = tf.Graph()
    with g.as_default():
        tf.Variable(1.0, name="x")
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out["restore_not_a_checkpoint"] = _err(
                lambda: saver.restore(sess, "/nonexistent_dir/model-1"))
            out["restore_none"] = _err(lambda: saver.restore(sess, None))
            out["save_missing_parent"] = _err(lambda: saver.save(
                sess, "/nonexistent_dir/sub/model", write_meta_graph=False))
            out["latest_filename_path"] = _err(lambda: saver.save(
                sess, "/tmp/model", latest_filename="a/b", write_meta_graph=False))
            out["latest_filename_collides"] = _err(lambda: saver.save(
                sess, "/tmp/checkpoint", write_meta_graph=False))
        out["no_variables"] = _err(lambda: tf.train.Saver(var_list=[]))
        out["duplicate_name"] = _err(lambda: tf.train.Saver(
            {"k": tf.Variable(1.0, name="y"), "k2": tf.Variable(1.0, name="y2")} and
            [tf.get_default_graph().get_tensor_by_name("x:0")] * 2))
        out["deferred_save"] = _err(lambda: tf.train.Saver(defer_build=True).save(
            None, "/tmp/m"))
    out["latest_missing_dir"] = tf.train.latest_checkpoint("/nonexistent_dir")
    out["state_missing_dir"] = repr(tf.train.get_checkpoint_state("/nonexistent_dir"))
    out["load_missing_key"] = _err(lambda: tf.train.load_variable(prefix, "nope"))
    out["load_missing_dir"] = _err(lambda: tf.train.load_checkpoint("/nonexistent_dir"))
    out["reader_missing"] = _err(lambda: tf.train.NewCheckpointReader("/nonexistent_dir/m"))
    reader = tf.train.NewCheckpointReader(prefix)
    out["reader_get_missing"] = _err(lambda: reader.get_tensor("nope"))
    out["reader_debug_string"] = reader.debug_string().decode()
    out["reader_dtypes"] = {k: v.name for k, v in
                            sorted(reader.get_variable_to_dtype_map().items())}
    out["reader_shapes"] = {k: v for k, v in
                            sorted(reader.get_variable_to_shape_map().items())}
    out["exists"] = [tf.train.checkpoint_exists(prefix),
                     tf.train.checkpoint_exists(prefix + "x")]
    return out


def main():
    cases = {name: graph_case(name, build) for name, build in saver_cases.CASES.items()}
    cases["partitioned"] = partitioned()
    tf_fixture.write("saver_expected.json", {"cases": cases, "state_file": state_file(),
                                             "errors": errors()})


if __name__ == "__main__":
    main()
