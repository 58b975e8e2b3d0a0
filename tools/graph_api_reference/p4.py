import tensorflow as tf1
tf = tf1.compat.v1
tf.disable_eager_execution()
g = tf.Graph()
with g.as_default():
    a = tf.constant(1.0, name="a"); b = tf.constant(2.0, name="b"); c = tf.constant(3.0, name="c"); d = tf.constant(4.0, name="d")
    e = tf.constant(5.0, name="e"); f = tf.constant(6.0, name="f")
    with g.control_dependencies([a, b]):
        x1 = tf.no_op(name="x1")
        with g.control_dependencies([c, d.op]):
            x2 = tf.no_op(name="x2")
            with g.control_dependencies(None):
                x3 = tf.no_op(name="x3")
                with g.control_dependencies([e, f]):
                    x4 = tf.no_op(name="x4")
            y = tf.identity(a, name="y")  # a is data input: dropped
            z = tf.add(x1 and y, c, name="z") if False else tf.add(y, c, name="z")
    for o in (x1, x2, x3, x4, y.op, z.op): print(o.name, [i.name for i in o.control_inputs])
    try:
        with g.control_dependencies([1]): pass
    except Exception as ex: print(type(ex).__name__, ex)
    with g.control_dependencies([a]):
        with g.control_dependencies([a, b]):
            w = tf.no_op(name="w")
    print(w.name, [i.name for i in w.control_inputs])
    # device
    def matmul_on_gpu(n):
        return "/gpu:0" if n.type == "MatMul" else "/cpu:0"
    with g.device(matmul_on_gpu):
        m = tf.matmul([[1.0]], [[2.0]], name="m"); k = tf.constant(1.0, name="k")
    print(m.op.device, m.op.inputs[0].op.device, k.op.device)
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
    for t in (t1, t2, t3, t4, t5, t6): print(t.op.name, repr(t.op.device), repr(t.device))
    print(str(t1))
    v = tf.Variable(1.0, name="v")
    with g.device("/gpu:3"):
        asg = v.assign(2.0)
        with g.colocate_with(v.op):
            cc = tf.constant(2.0, name="cc")
    print(asg.op.type, repr(asg.op.device), asg.op.colocation_groups(), cc.op.colocation_groups(), repr(cc.op.device))
    print(asg.op.node_def.attr["_class"] if "_class" in asg.op.node_def.attr else "noclass")
    with g.colocate_with(a):
        c1 = tf.constant(1.0, name="c1")
        with g.colocate_with(b):
            c2 = tf.constant(1.0, name="c2")
        with g.colocate_with(b.op, ignore_existing=True):
            c3 = tf.constant(1.0, name="c3")
        with g.colocate_with(None, ignore_existing=True):
            c4 = tf.constant(1.0, name="c4")
    for t in (c1, c2, c3, c4): print(t.op.name, t.op.colocation_groups(), t.op.node_def.attr["_class"] if "_class" in t.op.node_def.attr else None)
    try:
        with g.colocate_with(None): pass
    except Exception as ex: print(type(ex).__name__, ex)
    with g.device("/gpu:1"):
        with g.colocate_with(a):
            c5 = tf.constant(1.0, name="c5")
    print(repr(c5.op.device), repr(a.op.device))
    # container
    with g.container("experiment0"):
        v0 = tf.Variable([1.0], name="v0", use_resource=True)
        with g.container("experiment1"):
            v1 = tf.Variable([1.0], name="v1", use_resource=True)
        with g.container(""):
            v2 = tf.Variable([2.0], name="v2", use_resource=True)
    for vv in (v0, v1, v2): print(vv.op.name, vv.op.type, vv.op.get_attr("container"))
    print(g._container if hasattr(g, "_container") else None)
    # gradient override
    with g.gradient_override_map({"Identity": "CustomSquare"}):
        s = tf.identity(a, name="s")
    print(s.op.node_def.attr.get("_gradient_op_type", None))
    print(s.op.get_attr("_gradient_op_type"))
    with g._attr_scope({"_foo": tf.AttrValue(s=b"bar")}):
        q = tf.identity(a, name="q")
    print(q.op.get_attr("_foo"))
    with g._kernel_label_map({"Identity": "mylabel"}):
        r = tf.identity(a, name="r")
    print(r.op.get_attr("_kernel"))
    try:
        with g.gradient_override_map({1: "x"}): pass
    except Exception as ex: print(type(ex).__name__, ex)
    try:
        with g._attr_scope({"_foo": 1}): pass
    except Exception as ex: print(type(ex).__name__, ex)
    with g.gradient_override_map({"Square": "CustomSquare"}):
        sq2 = tf.identity(a)
    print("_gradient_op_type" in sq2.op.node_def.attr)
    with g.device("/job:a/task:2/device:CPU:1"):
        print(g._device_function_stack if False else "")
    for sname in ["/job:w/replica:0/task:0/device:gpu:*", "/job:*/replica:*/task:*/device:cpu:*", "/cpu:0", "/gpu:1", "GPU:2", "/device:CPU:*", "/job:ps", "/task:3/gpu:0", "cpu:1"]:
        try:
            ds = tf.DeviceSpec.from_string(sname); print(sname, "->", ds.to_string(), ds.job, ds.replica, ds.task, ds.device_type, ds.device_index)
        except Exception as ex: print(sname, type(ex).__name__, ex)
    for bad in ["/foo:1", "/job:a/job:b", "/gpu:x"]:
        try: print(tf.DeviceSpec.from_string(bad).to_string())
        except Exception as ex: print(bad, type(ex).__name__, ex)
    d1 = tf.DeviceSpec(job="ps", task=1); d2 = tf.DeviceSpec(device_type="GPU", device_index=0)
    print(d1.make_merged_spec(d2).to_string(), d1 == tf.DeviceSpec.from_string("/job:ps/task:1"), hash(d1) == hash(tf.DeviceSpec.from_string("/job:ps/task:1")), repr(d1) if False else "")
    print(d1.replace(job="w").to_string(), tf.DeviceSpec().to_string() == "")
    print(type(d1).__name__, tf.DeviceSpec.__mro__[0].__name__)
    import tensorflow.python.framework.device as devmod
    print(devmod.canonical_name("/gpu:0"), devmod.canonical_name(tf.DeviceSpec(device_type="cpu")))
