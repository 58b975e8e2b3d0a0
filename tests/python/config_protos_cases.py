"""Cases shared by tools/gen_config_protos_expected.py (run with real TensorFlow) and
test_config_protos.py (run with minitf): the config messages TF1 scripts build
(tf.ConfigProto with GPUOptions / GraphOptions / RewriterConfig, tf.train.ClusterDef), the
top-level messages, and the names Adam's non-slot variables get (init_scope keeps the
name scope; use_own_namescope_for_non_slot_vars moves them to a root scope)."""


def config_bytes(tf):
    """Serialized bytes (hex) of configs built the ways TF1 scripts build them."""
    out = {}
    c = tf.ConfigProto(gpu_options=tf.GPUOptions(allow_growth=True,
                                                 per_process_gpu_memory_fraction=0.5))
    c.graph_options.rewrite_options.arithmetic_optimization = 2  # RewriterConfig.OFF
    out["gpu_and_rewrite"] = c.SerializeToString().hex()
    c = tf.ConfigProto(allow_soft_placement=True, log_device_placement=False,
                       intra_op_parallelism_threads=2, inter_op_parallelism_threads=1)
    c.gpu_options.visible_device_list = "0"
    c.graph_options.optimizer_options.opt_level = -1  # OptimizerOptions.L0
    c.graph_options.optimizer_options.global_jit_level = 1  # ON_1
    c.experimental.disable_thread_spinning = True
    c.rpc_options.compression_algorithm = "gzip"
    out["threads_and_options"] = c.SerializeToString().hex()
    cluster = tf.train.ClusterDef(job=[tf.train.JobDef(name="worker", tasks={0: "localhost:2222",
                                                                               1: "localhost:2223"})])
    out["cluster"] = tf.ConfigProto(cluster_def=cluster).SerializeToString().hex()
    gpu = tf.GPUOptions()
    gpu.experimental.virtual_devices.add(memory_limit_mb=[1024.0, 512.0])
    out["virtual_devices"] = gpu.SerializeToString().hex()
    out["summary"] = tf.Summary(value=[tf.Summary.Value(tag="loss", simple_value=0.25)]) \
        .SerializeToString().hex()
    out["event"] = tf.Event(wall_time=1.5, step=3, session_log=tf.SessionLog(
        status=tf.SessionLog.START)).SerializeToString().hex()
    out["histogram"] = tf.HistogramProto(min=0.0, max=2.0, num=3, sum=3.0, sum_squares=5.0,
                                         bucket_limit=[1.0, 2.0], bucket=[1.0, 2.0]) \
        .SerializeToString().hex()
    out["log_message"] = tf.LogMessage(level=tf.LogMessage.WARN, message="w") \
        .SerializeToString().hex()
    out["tensor_info"] = tf.TensorInfo(name="x:0", dtype=1).SerializeToString().hex()
    return out


def parse_back(tf, hex_bytes):
    """Fields read back from the "threads_and_options" bytes."""
    c = tf.ConfigProto.FromString(bytes.fromhex(hex_bytes))
    return [c.allow_soft_placement, c.gpu_options.visible_device_list,
            c.graph_options.optimizer_options.opt_level,
            c.graph_options.optimizer_options.global_jit_level,
            c.experimental.disable_thread_spinning, c.rpc_options.compression_algorithm]


def adam_variable_names(tf):
    """{own: sorted global variable names, values after one step of each of two Adams}."""
    out = {}
    for own in (False, True):
        with tf.Graph().as_default():
            out[str(own)] = _two_adams(tf, own)
    return out


def _two_adams(tf, own):
    with tf.name_scope("outer"):
        w = tf.Variable([1.0, 2.0], name="w")
        loss = tf.reduce_sum(w * w)
        step = tf.train.AdamOptimizer(
            0.1, use_own_namescope_for_non_slot_vars=own).minimize(loss)
        step2 = tf.train.AdamOptimizer(
            0.1, use_own_namescope_for_non_slot_vars=own).minimize(loss)
    names = sorted(v.name for v in tf.global_variables())
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run([step, step2])
        return {"names": names, "w": sess.run(w).tolist()}


def init_scope_names(tf):
    """Names and control inputs of ops made under init_scope inside a name scope and a
    control_dependencies block."""
    with tf.Graph().as_default():
        return _init_scope_names(tf)


def _init_scope_names(tf):
    a = tf.constant(1.0, name="a")
    with tf.name_scope("outer"), tf.control_dependencies([a]):
        inside = tf.constant(2.0, name="inside")
        with tf.init_scope():
            lifted = tf.constant(3.0, name="lifted")
    return {"inside": [inside.op.name, [op.name for op in inside.op.control_inputs]],
            "lifted": [lifted.op.name, [op.name for op in lifted.op.control_inputs]]}
