"""Graph contexts (control_dependencies, device, DeviceSpec, colocate_with,
container, gradient_override_map, _attr_scope, _kernel_label_map) against
TensorFlow 2.21 tf.compat.v1 graph mode (expected values printed by real TF)."""
import pytest

import minitf as tf
from minitf.framework import device as pydev


def names(ops):
    return [o.name for o in ops]


def test_seed_control_dependencies_example(graph):
    g = graph
    a, b, c, d, e, f = [tf.constant(float(i), name=n) for i, n in enumerate("abcdef")]
    with g.control_dependencies([a, b]):
        x1 = tf.no_op(name="x1")
        with g.control_dependencies([c, d.op]):
            x2 = tf.no_op(name="x2")
            with g.control_dependencies(None):
                x3 = tf.no_op(name="x3")
                with g.control_dependencies([e, f]):
                    x4 = tf.no_op(name="x4")
            y = tf.identity(a, name="y")  # a is a data input: dropped
            z = tf.add(y, c, name="z")  # y was built inside: nothing added
    assert [names(o.control_inputs) for o in (x1, x2, x3, x4, y.op, z.op)] == [
        ["a", "b"], ["a", "b", "c", "d"], [], ["e", "f"], ["b", "c", "d"], []]
    with pytest.raises(TypeError, match="^Can not convert a int into a Tensor or Operation.$"):
        with g.control_dependencies([1]):
            pass
    with g.control_dependencies([a]):
        with g.control_dependencies([a, b]):
            w = tf.no_op(name="w")
    assert names(w.control_inputs) == ["a", "b"]


def test_seed_device_function_example(graph):
    def matmul_on_gpu(n):
        return "/gpu:0" if n.type == "MatMul" else "/cpu:0"
    with graph.device(matmul_on_gpu):
        m = tf.matmul([[1.0]], [[2.0]], name="m")
        k = tf.constant(1.0, name="k")
    assert (m.op.device, m.op.inputs[0].op.device, k.op.device) == ("/gpu:0", "/cpu:0", "/cpu:0")


def test_device_nesting_and_merging(graph):
    g = graph
    with g.device("/job:w/replica:0/task:1"):
        with g.device("/device:GPU:1"):
            t1 = tf.constant(1.0, name="t1")
        with g.device("/job:ps"):
            t2 = tf.constant(1.0, name="t2")
        with g.device(None):
            t3 = tf.constant(1.0, name="t3")
        with g.device("/cpu:*"):
            t4 = tf.constant(1.0, name="t4")
        with g.device(""):
            t5 = tf.constant(1.0, name="t5")
        with g.device(tf.DeviceSpec(job="x", device_type="GPU", device_index=2)):
            t6 = tf.constant(1.0, name="t6")
    assert [(t.op.device, t.device) for t in (t1, t2, t3, t4, t5, t6)] == [
        ("/job:w/replica:0/task:1/device:GPU:1",) * 2, ("/job:ps/replica:0/task:1",) * 2,
        ("", ""), ("/job:w/replica:0/task:1/device:CPU:*",) * 2,
        ("/job:w/replica:0/task:1",) * 2, ("/job:x/replica:0/task:1/device:GPU:2",) * 2]
    assert str(t1) == ('Tensor("t1:0", shape=(), dtype=float32, '
                       'device=/job:w/replica:0/task:1/device:GPU:1)')
    with tf.device("/cpu:0"):
        z = tf.constant(1.0, name="z")
    assert str(z) == 'Tensor("z:0", shape=(), dtype=float32, device=/device:CPU:0)'
    assert z.op.node_def.device == "/device:CPU:0"


DEVICE_STRINGS = [
    ("/job:w/replica:0/task:0/device:gpu:*", "/job:w/replica:0/task:0/device:GPU:*",
     ("w", 0, 0, "GPU", None)),
    ("/cpu:0", "/device:CPU:0", (None, None, None, "CPU", 0)),
    ("/gpu:1", "/device:GPU:1", (None, None, None, "GPU", 1)),
    ("GPU:2", "/device:GPU:2", (None, None, None, "GPU", 2)),
    ("/device:CPU:*", "/device:CPU:*", (None, None, None, "CPU", None)),
    ("/job:ps", "/job:ps", ("ps", None, None, None, None)),
    ("/task:3/gpu:0", "/task:3/device:GPU:0", (None, None, 3, "GPU", 0)),
    ("cpu:1", "/device:CPU:1", (None, None, None, "CPU", 1)),
    ("/job:a/job:b", "/job:b", ("b", None, None, None, None)),
]


@pytest.mark.parametrize("text,canonical,fields", DEVICE_STRINGS)
def test_device_spec_parse_and_print(text, canonical, fields):
    ds = tf.DeviceSpec.from_string(text)
    assert ds.to_string() == canonical
    assert (ds.job, ds.replica, ds.task, ds.device_type, ds.device_index) == fields


def test_device_spec_errors_and_merging():
    for bad, msg in [("/job:*/replica:*/task:*/device:cpu:*",
                      "invalid literal for int() with base 10: '*'"),
                     ("/foo:1", "Unknown attribute 'foo' is encountered while parsing the "
                                "device spec: '/foo:1'."),
                     ("/gpu:x", "invalid literal for int() with base 10: 'x'")]:
        with pytest.raises(ValueError) as e:
            tf.DeviceSpec.from_string(bad)
        assert str(e.value) == msg
    d1 = tf.DeviceSpec(job="ps", task=1)
    d2 = tf.DeviceSpec(device_type="GPU", device_index=0)
    assert d1.make_merged_spec(d2).to_string() == "/job:ps/task:1/device:GPU:0"
    assert d1 == tf.DeviceSpec.from_string("/job:ps/task:1")
    assert hash(d1) == hash(tf.DeviceSpec.from_string("/job:ps/task:1"))
    assert d1.replace(job="w").to_string() == "/job:w/task:1"
    assert tf.DeviceSpec().to_string() == ""
    assert type(d1).__name__ == "DeviceSpecV1"
    assert pydev.canonical_name("/gpu:0") == "/device:GPU:0"
    assert pydev.canonical_name(tf.DeviceSpec(device_type="cpu")) == "/device:CPU:*"


def test_colocate_with(graph):
    g = graph
    a = tf.constant(1.0, name="a")
    b = tf.constant(2.0, name="b")
    with g.colocate_with(a):
        c1 = tf.constant(1.0, name="c1")
        with g.colocate_with(b):
            c2 = tf.constant(1.0, name="c2")
        with g.colocate_with(b.op, ignore_existing=True):
            c3 = tf.constant(1.0, name="c3")
        with g.colocate_with(None, ignore_existing=True):
            c4 = tf.constant(1.0, name="c4")
    groups = [t.op.colocation_groups() for t in (c1, c2, c3, c4)]
    assert groups == [[b"loc:@a"], [b"loc:@a", b"loc:@b"], [b"loc:@b"], [b"loc:@c4"]]
    assert list(c2.op.node_def.attr["_class"].list.s) == [b"loc:@a", b"loc:@b"]
    assert "_class" not in c4.op.node_def.attr
    with pytest.raises(ValueError) as e:
        with g.colocate_with(None):
            pass
    assert str(e.value) == ("Trying to reset colocation (op is None) but ignore_existing is "
                            "not True")
    with g.device("/gpu:1"):
        with g.colocate_with(a):  # colocation wins over the device scope
            c5 = tf.constant(1.0, name="c5")
    assert c5.op.device == ""
    with g.device("/cpu:0"):
        p = tf.constant(1.0, name="p")
    with g.device("/gpu:1"):
        with tf.colocate_with(p):
            c6 = tf.constant(1.0, name="c6")
    assert c6.op.device == "/device:CPU:0"
    v = tf.Variable(1.0, name="v")
    with g.device("/gpu:3"):
        with g.colocate_with(v.op):
            cc = tf.constant(2.0, name="cc")
    assert (cc.op.colocation_groups(), cc.op.device) == ([b"loc:@v"], "")


def test_seed_container_example(graph):
    g = graph
    with g.container("experiment0"):
        v0 = tf.Variable([1.0], name="v0")
        with g.container("experiment1"):
            v1 = tf.Variable([1.0], name="v1")
        with g.container(""):
            v2 = tf.Variable([2.0], name="v2")
    assert [(v.op.name, v.op.type, v.op.get_attr("container")) for v in (v0, v1, v2)] == [
        ("v0", "VarHandleOp", b"experiment0"), ("v1", "VarHandleOp", b"experiment1"),
        ("v2", "VarHandleOp", b"")]
    assert g._container == ""
    with tf.container("c") as name:
        assert name == "c"


def test_seed_gradient_override_map_example(graph):
    g = graph
    a = tf.constant(5.0, name="a")
    s1 = tf.identity(a)
    with g.gradient_override_map({"Identity": "CustomSquare"}):
        s2 = tf.identity(a)
    assert "_gradient_op_type" not in s1.op.node_def.attr
    assert s2.op.get_attr("_gradient_op_type") == b"CustomSquare"
    with g.gradient_override_map({"Square": "CustomSquare"}):
        s3 = tf.identity(a)  # only ops of the mapped types
    assert "_gradient_op_type" not in s3.op.node_def.attr
    with pytest.raises(TypeError, match="^op_type_map must be a dictionary mapping strings to "
                       "strings$"):
        with g.gradient_override_map({1: "x"}):
            pass


def test_attr_scope_and_kernel_label_map(graph):
    g = graph
    a = tf.constant(1.0, name="a")
    with g._attr_scope({"_foo": tf.AttrValue(s=b"bar")}):
        q = tf.identity(a, name="q")
    assert q.op.get_attr("_foo") == b"bar"
    with g._attr_scope({"_n": lambda node_def: tf.AttrValue(s=node_def.name.encode())}):
        q2 = tf.identity(a, name="q2")
    assert q2.op.get_attr("_n") == b"q2"
    with g._kernel_label_map({"Identity": "mylabel"}):
        r = tf.identity(a, name="r")
    assert r.op.get_attr("_kernel") == b"mylabel"
    with pytest.raises(TypeError) as e:
        with g._attr_scope({"_foo": 1}):
            pass
    assert str(e.value) == ("attr_map must be a dictionary mapping strings to AttrValue protocol "
                            "buffers or callables that emit AttrValue protocol buffers")
    r2 = tf.identity(a, name="r2")
    assert "_kernel" not in r2.op.node_def.attr and "_foo" not in r2.op.node_def.attr


# Placement: the local CPU is the only device (TF 2.21 on a CPU-only machine gives the same
# InvalidArgumentError text, its available-device list being this one CPU).
@pytest.mark.parametrize("device", ["/device:CPU:0", "/cpu:0", "/device:CPU:*", "CPU:0",
                                    "/job:localhost/replica:0/task:0/device:CPU:0",
                                    "/job:localhost", "/task:0", ""])
def test_local_devices_place(device):
    with tf.Graph().as_default():
        with tf.device(device):
            c = tf.constant(1.0) + 1
        with tf.Session() as sess:
            assert sess.run(c) == 2.0


@pytest.mark.parametrize("device", ["/device:GPU:3", "/gpu:0", "/device:CPU:1",
                                    "/job:worker/task:0", "/replica:1", "/task:2/cpu:0"])
def test_unknown_device_fails_to_place(device):
    canonical = tf.DeviceSpec.from_string(device).to_string()
    with tf.Graph().as_default():
        with tf.device(device):
            c = tf.constant(1.0) + 1
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                sess.run(c)
    assert ("Cannot assign a device for operation add: {{node add}} was explicitly assigned to "
            "%s but available devices are [ /job:localhost/replica:0/task:0/device:CPU:0 ]. "
            "Make sure the device specification refers to a valid device." % canonical
            ) in str(e.value)


def test_soft_placement_runs_on_cpu():
    with tf.Graph().as_default():
        with tf.device("/device:GPU:3"):
            c = tf.constant(1.0) + 1
        config = tf.ConfigProto(allow_soft_placement=True)
        with tf.Session(config=config) as sess:
            assert sess.run(c) == 2.0


def test_device_count_gives_more_cpus():
    # TF 2.21 with ConfigProto(device_count={"CPU": 2}): /cpu:1 places, /cpu:2 fails naming
    # both devices; list_devices lists both.
    config = tf.ConfigProto(device_count={"CPU": 2})
    with tf.Graph().as_default():
        with tf.device("/cpu:1"):
            ok = tf.constant(1.0) + 1
        with tf.device("/cpu:2"):
            bad = tf.constant(1.0) + 2
        with tf.Session(config=config) as sess:
            assert sess.run(ok) == 2.0
            assert [d.name for d in sess.list_devices()] == [
                "/job:localhost/replica:0/task:0/device:CPU:0",
                "/job:localhost/replica:0/task:0/device:CPU:1"]
            incarnations = [d.incarnation for d in sess.list_devices()]
            assert all(0 < i < 2 ** 64 for i in incarnations)
            assert [d.incarnation for d in sess.list_devices()] == incarnations
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                sess.run(bad)
    assert ("was explicitly assigned to /device:CPU:2 but available devices are [ "
            "/job:localhost/replica:0/task:0/device:CPU:0, "
            "/job:localhost/replica:0/task:0/device:CPU:1 ]") in str(e.value)
