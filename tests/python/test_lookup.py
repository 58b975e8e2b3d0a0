"""tf.lookup against TensorFlow 2.21 (tests/fixtures/lookup_expected.json from
tools/gen_lookup_expected.py, cases in lookup_cases.py): the graph's nodes (names and
types), the fetched op types, then after tf.tables_initializer() the values, or TF's error
class and message from building, initializing or fetching."""
import builtins
import json
import os

import pytest

import minitf as tf

import lookup_cases as cases

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.abspath(os.path.join(HERE, "..", "fixtures"))
with open(os.path.join(FIXTURES, "lookup_expected.json")) as _f:
    EXPECTED = json.load(_f)["cases"]


def _msg(e):
    msg = getattr(e, "message", None) or str(e)
    if "\nNode: '" in msg:
        msg = msg[msg.rindex("\nNode: '") + 1:].split("\n")[1]
    return [type(e).__name__, msg.replace(FIXTURES, "<fixtures>")]


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_lookup_case(name):
    want = EXPECTED[name]
    with tf.Graph().as_default():
        if "build_error" in want:
            cls = want["build_error"][0]
            with pytest.raises(getattr(tf.errors, cls, None) or getattr(builtins, cls)) as info:
                cases.CASES[name](tf, FIXTURES)
            assert _msg(info.value) == want["build_error"]
            return
        r = cases.CASES[name](tf, FIXTURES)
        ts = r if isinstance(r, list) else [r]
        assert [t.op.type for t in ts] == want["ops"]
        got_nodes = sorted([op.name, op.type] for op in tf.get_default_graph().get_operations())
        assert got_nodes == want["nodes"]
        with tf.Session() as sess:
            if "init_error" in want:
                with pytest.raises(getattr(tf.errors, want["init_error"][0])) as info:
                    sess.run(tf.tables_initializer())
                assert _msg(info.value) == want["init_error"]
                return
            sess.run(tf.tables_initializer())
            if "run_error" in want:
                with pytest.raises(getattr(tf.errors, want["run_error"][0])) as info:
                    sess.run(ts)
                assert _msg(info.value) == want["run_error"]
            else:
                assert [cases.jsonable(v) for v in sess.run(ts)] == want["values"]


def test_lookup_before_initialization_and_initializing_twice():
    # TF 2.21 (checked by hand): FailedPreconditionError "Table not initialized." from the
    # find node; running the initializer again with the same data is fine.
    with tf.Graph().as_default():
        t = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a"], [1]), 0)
        out = t.lookup(tf.constant(["a", "b"]))
        with tf.Session() as sess:
            with pytest.raises(tf.errors.FailedPreconditionError) as info:
                sess.run(out)
            msg = info.value.message
            assert msg[msg.rindex("\nNode: '") + 1:].split("\n")[:2] == [
                "Node: 'hash_table_Lookup/LookupTableFindV2'", "Table not initialized."]
            sess.run(t.initializer)
            sess.run(t.initializer)
            assert sess.run(out).tolist() == [1, 0]
        with tf.Session() as sess:  # a new session has its own, uninitialized table
            with pytest.raises(tf.errors.FailedPreconditionError):
                sess.run(out)


def test_mutable_table_class():
    # Worked by hand: insert then remove, export in any order.
    with tf.Graph().as_default():
        t = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
        ins = t.insert(["a", "b", "c"], tf.constant([1, 2, 3], tf.int64))
        rm = t.remove(["b"])
        with tf.Session() as sess:
            sess.run(ins)
            sess.run(rm)
            assert sess.run(t.lookup(tf.constant(["a", "b", "c"]))).tolist() == [1, -1, 3]
            keys, values = sess.run(t.export())
            assert sorted(zip(keys.tolist(), values.tolist())) == [(b"a", 1), (b"c", 3)]
            assert sess.run(t.size()) == 2
