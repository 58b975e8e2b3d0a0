"""tf.train.Saver, the checkpoint state file and checkpoint readers against TensorFlow 2.21
(tests/fixtures/saver_expected.json and the checkpoints TF wrote under
tests/fixtures/checkpoints/saver/, both from tools/gen_saver_expected.py)."""
import json
import os
import shutil

import numpy as np
import pytest

import minitf as tf
from minitf.framework import errors

import saver_cases

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "fixtures")
CKPTS = os.path.join(FIX, "checkpoints", "saver")
with open(os.path.join(FIX, "saver_expected.json")) as _f:
    EXPECTED = json.load(_f)
CASES = EXPECTED["cases"]
ERRORS = EXPECTED["errors"]
STATE = EXPECTED["state_file"]

# Cases whose save nodes minitf builds exactly as TF (sharded ones need StringJoin and
# StaticRegexFullMatch; partitioned variables are not in minitf's get_variable).
NODE_CASES = ["resource", "ref", "dict_list", "dtypes", "named", "slots", "sharded1", "sharded2"]


def _build(name):
    g = tf.Graph()
    with g.as_default():
        var_list, kwargs = saver_cases.CASES[name](tf)
        saver = tf.train.Saver(var_list, save_relative_paths=True, **kwargs)
        if var_list is None:
            var_list = tf.global_variables()
    return g, saver, var_list


def _scope(saver):
    return saver.saver_def.restore_op_name.split("/")[0]


def _check_values(got, want):
    assert sorted(got) == sorted(want)
    for k in want:
        g, w = np.asarray(got[k]), np.asarray(want[k])
        if w.dtype.kind in "fc":
            np.testing.assert_array_equal(g.astype(w.dtype), w, err_msg=k)
        else:
            assert g.tolist() == w.tolist(), k


def _copy_case(name, tmp_path):
    d = tmp_path / name
    shutil.copytree(os.path.join(CKPTS, name), d)
    return str(d)


@pytest.mark.parametrize("name", NODE_CASES)
def test_save_nodes_are_tensorflows(name):
    g, saver, _ = _build(name)
    assert saver_cases.save_nodes(g, _scope(saver)) == CASES[name]["nodes"]


@pytest.mark.parametrize("name", NODE_CASES)
def test_saver_def_is_tensorflows(name):
    from google.protobuf import text_format
    _, saver, _ = _build(name)
    assert text_format.MessageToString(saver.as_saver_def()) == CASES[name]["saver_def"]
    assert saver.to_proto() is saver.as_saver_def()


@pytest.mark.parametrize("name", NODE_CASES)
def test_tf_checkpoint_restores_with_tfs_values(name, tmp_path):
    """A checkpoint written by TensorFlow's Saver restores into minitf's variables."""
    d = _copy_case(name, tmp_path)
    g, saver, var_list = _build(name)
    with g.as_default(), tf.Session(config=saver_cases.session_config(tf)) as sess:
        saver.restore(sess, tf.train.latest_checkpoint(d))
        _check_values({k: saver_cases.jsonable(v)
                       for k, v in saver_cases.values_of(sess, var_list).items()},
                      CASES[name]["values"])


@pytest.mark.parametrize("name", NODE_CASES)
def test_save_writes_what_tf_wrote(name, tmp_path):
    """minitf's save gives TF's files, state file and list_variables; restoring into a
    fresh graph gives the values back."""
    g, saver, var_list = _build(name)
    d = str(tmp_path)
    with g.as_default(), tf.Session(config=saver_cases.session_config(tf)) as sess:
        sess.run(tf.global_variables_initializer())
        train = tf.get_collection("train_op")
        if train:
            saver.restore(sess, os.path.join(CKPTS, name, "model-3"))
        path = saver.save(sess, os.path.join(d, "model"), global_step=3,
                          write_meta_graph=False)
        values = saver_cases.values_of(sess, var_list)
    assert os.path.relpath(path, d) == CASES[name]["returned_path"]
    assert sorted(os.listdir(d)) == CASES[name]["files"]
    with open(os.path.join(d, "checkpoint")) as f:
        assert f.read() == CASES[name]["state"]
    assert [[k, list(s)] for k, s in tf.train.list_variables(path)] == \
        CASES[name]["list_variables"]
    for k, v in values.items():
        assert saver_cases.jsonable(tf.train.load_variable(d, k)) == v, k
    g2, saver2, var_list2 = _build(name)
    with g2.as_default(), tf.Session(config=saver_cases.session_config(tf)) as sess:
        saver2.restore(sess, path)
        _check_values(saver_cases.values_of(sess, var_list2), values)


def test_tf_partitioned_checkpoint_reads_whole():
    """TF's partitioned variable p (saved as two slices of key p) reads back whole."""
    case = CASES["partitioned"]
    prefix = os.path.join(CKPTS, "partitioned", "model-1")
    assert [[k, list(s)] for k, s in tf.train.list_variables(prefix)] == \
        case["list_variables"]
    np.testing.assert_array_equal(tf.train.load_variable(prefix, "p"), case["values"]["p"])
    g = tf.Graph()
    with g.as_default():
        p = tf.Variable(np.zeros((4, 3), np.float32), name="p")
        q = tf.Variable(np.zeros(3, np.int32), name="q")
        saver = tf.train.Saver()
        with tf.Session() as sess:
            saver.restore(sess, prefix)
            np.testing.assert_array_equal(sess.run(p), case["values"]["p"])
            np.testing.assert_array_equal(sess.run(q), case["values"]["q"])


def _counter_graph(max_to_keep=2, **kw):
    g = tf.Graph()
    with g.as_default():
        x = tf.Variable(1.0, name="x")
        saver = tf.train.Saver(max_to_keep=max_to_keep, **kw)
    return g, x, saver


def _undir(paths, d):
    return [p.replace(d, "DIR") for p in paths]


def test_max_to_keep_state_file_and_latest(tmp_path):
    d = str(tmp_path)
    g, _, saver = _counter_graph()
    with g.as_default(), tf.Session(config=saver_cases.session_config(tf)) as sess:
        sess.run(tf.global_variables_initializer())
        returned = [saver.save(sess, os.path.join(d, "model"), global_step=s,
                               write_meta_graph=False) for s in (10, 20, 30, 40)]
    assert _undir(returned, d) == STATE["returned"]
    assert _undir(saver.last_checkpoints, d) == STATE["last_checkpoints"]
    with open(os.path.join(d, "checkpoint")) as f:
        assert f.read().replace(d, "DIR") == STATE["state"]
    # TF also wrote .meta files; minitf has no meta graph export yet.
    assert sorted(os.listdir(d)) == [f for f in STATE["files"] if not f.endswith(".meta")]
    assert tf.train.latest_checkpoint(d).replace(d, "DIR") == STATE["latest"]
    st = tf.train.get_checkpoint_state(d)
    assert _undir(st.all_model_checkpoint_paths, d) == STATE["state_proto_paths"]
    _, _, s2 = _counter_graph()
    s2.recover_last_checkpoints(st.all_model_checkpoint_paths)
    assert _undir(s2.last_checkpoints, d) == STATE["recovered"]


def test_max_to_keep_deletes_oldest_first(tmp_path):
    d = str(tmp_path)
    g, x, saver = _counter_graph(max_to_keep=3)
    with g.as_default(), tf.Session(config=saver_cases.session_config(tf)) as sess:
        sess.run(tf.global_variables_initializer())
        gone = []
        for step in range(1, 7):
            sess.run(x.assign(float(step)))
            saver.save(sess, os.path.join(d, "m"), global_step=step, write_meta_graph=False)
            gone.append([s for s in range(1, step + 1)
                         if not os.path.exists(os.path.join(d, "m-%d.index" % s))])
    assert gone == [[], [], [], [1], [1, 2], [1, 2, 3]]
    assert saver.last_checkpoints == [os.path.join(d, "m-%d" % s) for s in (4, 5, 6)]
    assert tf.train.load_variable(d, "x") == 6.0
    np.testing.assert_array_equal(tf.train.load_variable(os.path.join(d, "m-4"), "x:0"), 4.0)


def test_max_to_keep_none_keeps_all_and_resave_moves_to_end(tmp_path):
    d = str(tmp_path)
    g, _, saver = _counter_graph(max_to_keep=None)
    with g.as_default(), tf.Session(config=saver_cases.session_config(tf)) as sess:
        sess.run(tf.global_variables_initializer())
        for step in (1, 2, 3):
            saver.save(sess, os.path.join(d, "m"), global_step=step, write_meta_graph=False)
    assert saver.last_checkpoints == []  # TF records nothing when max_to_keep is 0/None
    assert all(os.path.exists(os.path.join(d, "m-%d.index" % s)) for s in (1, 2, 3))
    g, _, saver = _counter_graph(max_to_keep=5)
    with g.as_default(), tf.Session(config=saver_cases.session_config(tf)) as sess:
        sess.run(tf.global_variables_initializer())
        for step in (1, 2, 1):
            saver.save(sess, os.path.join(d, "m"), global_step=step, write_meta_graph=False)
    assert saver.last_checkpoints == [os.path.join(d, "m-2"), os.path.join(d, "m-1")]


def test_keep_checkpoint_every_n_hours(tmp_path):
    """A checkpoint made after the next keep time survives max_to_keep."""
    d = str(tmp_path)
    g, _, saver = _counter_graph(max_to_keep=1, keep_checkpoint_every_n_hours=1.0)
    with g.as_default(), tf.Session(config=saver_cases.session_config(tf)) as sess:
        sess.run(tf.global_variables_initializer())
        saver.save(sess, os.path.join(d, "m"), global_step=1, write_meta_graph=False)
        # Pretend m-1 was written 2 hours after the Saver was built.
        saver.set_last_checkpoints_with_time(
            [(os.path.join(d, "m-1"), saver._next_checkpoint_time + 3600)])
        saver.save(sess, os.path.join(d, "m"), global_step=2, write_meta_graph=False)
        saver.save(sess, os.path.join(d, "m"), global_step=3, write_meta_graph=False)
    left = sorted(f for f in os.listdir(d) if f.endswith(".index"))
    assert left == ["m-1.index", "m-3.index"]


def test_relative_paths_and_latest_filename(tmp_path):
    d = str(tmp_path)
    g, _, _ = _counter_graph()
    with g.as_default():
        saver = tf.train.Saver(save_relative_paths=True)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            saver.save(sess, os.path.join(d, "model.ckpt"), latest_filename="my_state",
                       write_meta_graph=False)
            saver.save(sess, os.path.join(d, "model.ckpt"), global_step=7,
                       latest_filename="my_state", write_meta_graph=False)
    with open(os.path.join(d, "my_state")) as f:
        assert f.read() == STATE["relative_state"]
    assert sorted(os.listdir(d)) == [f for f in STATE["relative_files"]
                                     if not f.endswith(".meta")]
    assert tf.train.latest_checkpoint(d, "my_state").replace(d, "DIR") == \
        STATE["relative_latest"]
    assert tf.train.latest_checkpoint(d) is None


def test_update_checkpoint_state_and_exists(tmp_path):
    d = str(tmp_path)
    tf.train.update_checkpoint_state(d, os.path.join(d, "b"), [os.path.join(d, "a")])
    st = tf.train.get_checkpoint_state(d)
    assert st.model_checkpoint_path == os.path.join(d, "b")
    assert list(st.all_model_checkpoint_paths) == [os.path.join(d, "a"), os.path.join(d, "b")]
    assert tf.train.latest_checkpoint(d) is None  # no files for b
    prefix = os.path.join(CKPTS, "resource", "model-3")
    assert [tf.train.checkpoint_exists(prefix), tf.train.checkpoint_exists(prefix + "x")] == \
        ERRORS["exists"]
    assert tf.train.latest_checkpoint("/nonexistent_dir") == ERRORS["latest_missing_dir"]
    assert repr(tf.train.get_checkpoint_state("/nonexistent_dir")) == \
        ERRORS["state_missing_dir"]
    with open(os.path.join(d, "checkpoint"), "w") as f:
        f.write("not a state file {")
    assert tf.train.get_checkpoint_state(d) is None


def test_reader_maps_and_debug_string():
    prefix = os.path.join(CKPTS, "resource", "model-3")
    reader = tf.train.NewCheckpointReader(prefix)
    assert {k: v.name for k, v in reader.get_variable_to_dtype_map().items()} == \
        ERRORS["reader_dtypes"]
    assert reader.get_variable_to_shape_map() == ERRORS["reader_shapes"]
    assert reader.debug_string().decode() == ERRORS["reader_debug_string"]
    assert reader.has_tensor("a") and not reader.has_tensor("nope")
    np.testing.assert_array_equal(reader.get_tensor("a"), CASES["resource"]["values"]["a"])
    reader2 = tf.train.load_checkpoint(os.path.join(CKPTS, "dtypes"))
    assert reader2.get_tensor("words").tolist() == [b"hello", b"", b"checkpoint"]
    assert reader2.get_tensor("f64") == 2.5 and reader2.get_tensor("f64").shape == ()


def _raises(fn, want):
    cls, text = want
    with pytest.raises(getattr(errors, cls, None) or getattr(__builtins__, cls, None)
                       or eval(cls)) as e:
        fn()
    return str(e.value), text


def _first_lines(msg, n):
    return "\n".join(msg.split("\n")[:n])


def test_reader_errors():
    prefix = os.path.join(CKPTS, "resource", "model-3")
    got, want = _raises(lambda: tf.train.load_variable(prefix, "nope"),
                        ERRORS["load_missing_key"])
    assert got == want
    got, want = _raises(lambda: tf.train.load_checkpoint("/nonexistent_dir"),
                        ERRORS["load_missing_dir"])
    assert got == want
    got, want = _raises(lambda: tf.train.NewCheckpointReader("/nonexistent_dir/m"),
                        ERRORS["reader_missing"])
    assert got == want
    reader = tf.train.NewCheckpointReader(prefix)
    got, want = _raises(lambda: reader.get_tensor("nope"), ERRORS["reader_get_missing"])
    assert got == want


def _restore_into(build, prefix, init=False):
    g = tf.Graph()
    with g.as_default():
        build()
        saver = tf.train.Saver()
        with tf.Session() as sess:
            if init:
                sess.run(tf.global_variables_initializer())
            saver.restore(sess, prefix)
            return sess.run(tf.global_variables())


@pytest.mark.parametrize("case,build,key_line", [
    ("missing_key", lambda: (tf.Variable(saver_cases.A, name="a"),
                             tf.Variable(1.0, name="zzz")),
     "Key zzz not found in checkpoint"),
    ("dtype_mismatch", lambda: tf.Variable(np.zeros((2, 3), np.int32), name="a"),
     "tensor_name = a; expected dtype int32 does not equal original dtype float"),
    ("shape_mismatch_ref", lambda: tf.Variable(np.zeros((3, 2), np.float32), name="a",
                                               use_resource=False),
     "Assign requires shapes of both tensors to match. lhs shape= [3,2] rhs shape= [2,3]"),
])
def test_restore_errors_are_tensorflows(case, build, key_line):
    prefix = os.path.join(CKPTS, "resource", "model-3")
    cls, text = ERRORS[case]
    with pytest.raises(getattr(errors, cls)) as e:
        # TF compares an uninitialized VariableV2 against its declared shape; minitf's
        # Assign checks an initialized one only, so the ref case initializes first.
        _restore_into(build, prefix, init=case.endswith("_ref"))
    msg = str(e.value)
    # The first lines (TF's wrapper text) are TF's; then the kernel's message naming the
    # key and node. TF's "Detected at node" stack frames are Python frames of the generator.
    head = text.split("Graph execution error:")[0]
    assert msg.startswith(head)
    assert key_line in text and key_line in msg


def test_resource_restore_takes_checkpoint_shape():
    """TF 2.21 restores a resource variable of another shape without error (its
    AssignVariableOp has validate_shape=False)."""
    assert ERRORS["shape_mismatch"] is None
    vals = _restore_into(lambda: tf.Variable(np.zeros((3, 2), np.float32), name="a"),
                         os.path.join(CKPTS, "resource", "model-3"))
    np.testing.assert_array_equal(vals[0], saver_cases.A)


def test_saver_argument_errors(tmp_path):
    g = tf.Graph()
    with g.as_default():
        tf.Variable(1.0, name="x")
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for key, fn in [
                    ("restore_not_a_checkpoint",
                     lambda: saver.restore(sess, "/nonexistent_dir/model-1")),
                    ("restore_none", lambda: saver.restore(sess, None)),
                    ("save_missing_parent", lambda: saver.save(
                        sess, "/nonexistent_dir/sub/model", write_meta_graph=False)),
                    ("latest_filename_path", lambda: saver.save(
                        sess, str(tmp_path / "model"), latest_filename="a/b",
                        write_meta_graph=False)),
                    ("latest_filename_collides", lambda: saver.save(
                        sess, "/tmp/checkpoint", write_meta_graph=False))]:
                cls, text = ERRORS[key]
                with pytest.raises(ValueError) as e:
                    fn()
                assert (type(e.value).__name__, str(e.value)) == (cls, text), key
        for key, fn in [
                ("no_variables", lambda: tf.train.Saver(var_list=[])),
                ("duplicate_name", lambda: tf.train.Saver(
                    [g.get_tensor_by_name("x:0")] * 2)),
                ("deferred_save", lambda: tf.train.Saver(defer_build=True).save(None, "m"))]:
            cls, text = ERRORS[key]
            with pytest.raises(Exception) as e:
                fn()
            assert (type(e.value).__name__, str(e.value)) == (cls, text), key


def test_defer_build_and_from_proto(tmp_path):
    d = str(tmp_path)
    g = tf.Graph()
    with g.as_default():
        saver = tf.train.Saver(defer_build=True)
        x = tf.Variable(3.0, name="x")
        saver.build()
        assert saver.as_saver_def().restore_op_name == "save/restore_all"
        again = tf.train.Saver.from_proto(saver.to_proto())
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            path = again.save(sess, os.path.join(d, "m"), write_meta_graph=False)
            sess.run(x.assign(0.0))
            again.restore(sess, path)
            assert sess.run(x) == 3.0
        assert saver.to_proto(export_scope="save").restore_op_name == "restore_all"
        assert saver.to_proto(export_scope="other") is None


def test_global_step_tensor_and_pad(tmp_path):
    d = str(tmp_path)
    g = tf.Graph()
    with g.as_default():
        step = tf.train.get_or_create_global_step()
        saver = tf.train.Saver(pad_step_number=True)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(step.assign(42))
            path = saver.save(sess, os.path.join(d, "m"), global_step=step,
                              write_meta_graph=False)
    assert path == os.path.join(d, "m-00000042")
    assert tf.train.load_variable(d, "global_step") == 42


def test_init_from_checkpoint():
    prefix = os.path.join(CKPTS, "resource", "model-3")
    g = tf.Graph()
    with g.as_default():
        with tf.variable_scope("new"):
            k = tf.get_variable("kernel", shape=[3, 2], dtype=tf.float64)
        a = tf.get_variable("a2", shape=[2, 3])
        tf.train.init_from_checkpoint(prefix, {"layer/": "new/", "a": a})
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            np.testing.assert_array_equal(sess.run(k), saver_cases.C)
            np.testing.assert_array_equal(sess.run(a), np.float32(saver_cases.A))
        with pytest.raises(ValueError, match="Tensor nope is not found in"):
            tf.train.init_from_checkpoint(prefix, {"nope": a})


def test_init_from_checkpoint_onto_partitioned_variables():
    """A partitioned variable named in the map (or found under a mapped scope) is its parts,
    each restoring its slice of the checkpoint's tensor (TF's _collect_partitioned_variable);
    the checkpoint was written by TF."""
    prefix = os.path.join(CKPTS, "resource", "model-3")
    with tf.Graph().as_default():
        pk = tf.get_variable("pk", shape=[3, 2], dtype=tf.float64,
                             partitioner=tf.fixed_size_partitioner(3))
        with tf.variable_scope("part"):
            sk = tf.get_variable("kernel", shape=[3, 2], dtype=tf.float64,
                                 partitioner=tf.fixed_size_partitioner(2))
        tf.train.init_from_checkpoint(prefix, {"layer/kernel": "pk", "layer/": "part/"})
        assert [v.name for v in pk] == ["pk/part_0:0", "pk/part_1:0", "pk/part_2:0"]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert [sess.run(v).shape for v in sk] == [(2, 2), (1, 2)]
            np.testing.assert_array_equal(sess.run(tf.concat(list(pk), 0)), saver_cases.C)
            np.testing.assert_array_equal(sess.run(tf.concat(list(sk), 0)), saver_cases.C)


@pytest.mark.parametrize("name", ["sharded1", "sharded2"])
def test_tf_sharded_checkpoint_restores(name, tmp_path):
    """TF's sharded save (two data files merged into one index for sharded2) restores
    through a plain Saver with TF's values, and its state file is TF's."""
    case = CASES[name]
    d = _copy_case(name, tmp_path)
    assert sorted(os.listdir(d)) == case["files"]
    g = tf.Graph()
    with g.as_default():
        vs = {"a": tf.Variable(np.zeros((2, 3), np.float32), name="a"),
              "b": tf.Variable(np.zeros(3, np.int32), name="b")}
        if "c" in case["values"]:
            vs["c"] = tf.Variable(np.zeros((3, 2), np.float32), name="c")
        saver = tf.train.Saver()
        with tf.Session() as sess:
            saver.restore(sess, tf.train.latest_checkpoint(d))
            _check_values(saver_cases.values_of(sess, vs), case["values"])
    assert [[k, list(s)] for k, s in tf.train.list_variables(d)] == case["list_variables"]


def test_group_splits_by_device():
    """tf.group of ops on two devices: one NoOp per device under the named one (the form
    of a sharded Saver's restore_all)."""
    g = tf.Graph()
    with g.as_default():
        with tf.device("/cpu:1"):
            b = tf.no_op(name="b")
        with tf.device("/cpu:0"):
            a = tf.no_op(name="a")
        grp = tf.group(b, a, name="all")
    nodes = {n.name: (n.device, list(n.input)) for n in g.as_graph_def().node}
    assert nodes["all"] == ("", ["^all/NoOp", "^all/NoOp_1"])
    assert nodes["all/NoOp"] == ("/device:CPU:0", ["^a"])
    assert nodes["all/NoOp_1"] == ("/device:CPU:1", ["^b"])
    assert grp.name == "all"


def test_save_under_a_file_is_tfs_value_error(tmp_path):
    """A prefix whose parent is a file: the save fails with errno ENOTDIR, which TF maps to
    FailedPrecondition, and Saver.save turns into its ValueError (TF 2.21's wording)."""
    blocker = tmp_path / "afile"
    blocker.write_text("not a directory")
    with tf.Graph().as_default():
        v = tf.Variable(1.0, name="v")
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(v.initializer)
            prefix = str(blocker / "model")
            with pytest.raises(ValueError) as e:
                saver.save(sess, prefix)
            assert str(e.value) == "Parent directory of %s doesn't exist, can't save." % prefix
            op = tf.raw_ops.SaveV2(prefix=prefix, tensor_names=["v"], shape_and_slices=[""],
                                   tensors=[tf.constant(1.0)])
            with pytest.raises(tf.errors.FailedPreconditionError, match="Not a directory"):
                sess.run(op)
