"""Goldens for the nn family (runtime/kernels/nn_ops.c): BiasAdd, activations, Softmax and
LogSoftmax, FusedBatchNorm(V3), LRN, the softmax cross-entropy losses, TopKV2, InTopKV2, L2Loss.

Run: cd tools/goldens && /opt/tfvenv/bin/python gen_nn.py
"""
import ml_dtypes
import numpy as np

from golden_lib import Const, Family, tf

f = Family("nn")
rng = np.random.RandomState(3)
f32, f64, f16, bf16 = np.float32, np.float64, np.float16, ml_dtypes.bfloat16
FLOATS = [f16, bf16, f32, f64]
nan, inf = np.nan, np.inf
SPECIAL = [nan, inf, -inf, -0.0, 0.0, 1e-30, -1e-30]


def randn(*shape, dtype=f32, scale=1.0):
    return (rng.randn(*shape) * scale).astype(dtype)


# ---- BiasAdd ----
x4 = np.arange(24).reshape(2, 2, 2, 3)
for dt in [f32, f64, np.int32, np.int64, np.int16, np.int8, np.uint8, np.uint16, np.uint32,
           np.uint64, f16, bf16, np.complex64, np.complex128]:
    f.case("BiasAdd", [("value", x4.astype(dt)), ("bias", np.array([1, 2, 3]).astype(dt))],
           name="BiasAdd_nhwc_" + np.dtype(dt).name)
for dt in [f32, f16, np.int32]:
    f.case("BiasAdd", [("value", x4.reshape(2, 3, 2, 2).astype(dt)),
                       ("bias", np.array([10, 20, 30]).astype(dt))],
           {"data_format": "NCHW"}, name="BiasAdd_nchw_" + np.dtype(dt).name)
f.case("BiasAdd", [("value", randn(2, 3)), ("bias", randn(3))], {"data_format": "NCHW"},
       name="BiasAdd_nchw_rank2")
f.case("BiasAdd", [("value", randn(2, 3, 2, 2, 2)), ("bias", randn(3))],
       {"data_format": "NCHW"}, name="BiasAdd_nchw_rank5")
f.case("BiasAdd", [("value", randn(2, 1, 1, 1, 4)), ("bias", randn(4))], name="BiasAdd_rank5")
f.case("BiasAdd", [("value", np.int8([[127, -128], [5, 6]])), ("bias", np.int8([1, -1]))],
       name="BiasAdd_int8_overflow")
f.case("BiasAdd", [("value", f32(np.zeros((0, 3)))), ("bias", f32([1, 2, 3]))],
       name="BiasAdd_empty")
f.case("BiasAdd", [("value", f32([[nan, inf], [-inf, 1]])), ("bias", f32([1, -inf]))],
       name="BiasAdd_nan_inf")
f.case("BiasAdd", [("value", randn(2, 3)), ("bias", randn(4))], name="BiasAdd_bad_bias_len")
f.case("BiasAdd", [("value", randn(3)), ("bias", randn(3))], name="BiasAdd_rank1")
f.case("BiasAdd", [("value", randn(2, 3)), ("bias", randn(1, 3))], name="BiasAdd_bias_rank2")
f.case("BiasAdd", [("value", np.array([True, False]).reshape(1, 2)),
                   ("bias", np.array([True, True]))], name="BiasAdd_bool")

# ---- activations ----
ints = np.array([-128, -7, -1, 0, 1, 5, 6, 7, 127])
for dt in [np.int8, np.int16, np.int32, np.int64]:
    for op in ["Relu", "Relu6"]:
        f.case(op, [("features", ints.astype(dt))], name="%s_%s" % (op, np.dtype(dt).name))
for dt in [np.uint8, np.uint16, np.uint32, np.uint64]:
    for op in ["Relu", "Relu6"]:
        f.case(op, [("features", np.array([0, 1, 5, 6, 7, 200]).astype(dt))],
               name="%s_%s" % (op, np.dtype(dt).name))
vals = np.array([-20, -3.5, -1, -0.5, -1e-5, 0, 1e-5, 0.5, 1, 3.5, 5.9, 6, 6.5, 20] + SPECIAL)
for dt in FLOATS:
    name = np.dtype(dt).name
    for op in ["Relu", "Relu6", "Elu", "Selu", "Softsign", "LeakyRelu", "Softplus"]:
        f.case(op, [("features", vals.astype(dt).reshape(3, 7))], name="%s_%s" % (op, name))
    # TF rounds exp(x) to half before log1p: one ulp apart near the threshold
    f.case("Softplus", [("features", np.linspace(-40, 40, 161).astype(dt))],
           name="Softplus_range_" + name, rtol=2e-3 if dt is f16 else None)
f.case("LeakyRelu", [("features", vals.astype(f32))], {"alpha": 0.01}, name="LeakyRelu_alpha")
f.case("LeakyRelu", [("features", vals.astype(f32))], {"alpha": 2.0}, name="LeakyRelu_alpha2")
f.case("Elu", [("features", f32(np.zeros((2, 0, 3))))], name="Elu_empty")
f.case("Relu", [("features", f32(3.0))], name="Relu_scalar")
f.case("Elu", [("features", np.int32([1, -1]))], name="Elu_int32")

# ---- Softmax, LogSoftmax ----
for op in ["Softmax", "LogSoftmax"]:
    for dt in FLOATS:
        name = "%s_%s" % (op, np.dtype(dt).name)
        f.case(op, [("logits", randn(3, 5, dtype=dt, scale=3))], name=name)
        f.case(op, [("logits", np.array([[1000, 1000, 1000], [-1000, 0, 1000], [1, 2, 3]])
                     .astype(dt))], name=name + "_large")
    f.case(op, [("logits", randn(2, 3, 4))], name=op + "_rank3")
    f.case(op, [("logits", randn(7))], name=op + "_rank1")
    f.case(op, [("logits", randn(4, 1))], name=op + "_one_class")
    f.case(op, [("logits", f32(np.zeros((0, 4))))], name=op + "_empty_rows")
    f.case(op, [("logits", f32(np.zeros((3, 0))))], name=op + "_empty_classes")
    for dt in FLOATS:
        f.case(op, [("logits", np.array([[nan, 1, 2], [-inf, 0, 1], [inf, 0, 1], [-inf, -inf, 0],
                                         [-inf, -inf, -inf], [1, nan, 2], [inf, inf, 1]])
                     .astype(dt))], name=op + "_nan_inf_" + np.dtype(dt).name)
    f.case(op, [("logits", f32(2.0))], name=op + "_scalar")
    f.case(op, [("logits", randn(2, 64, dtype=f64, scale=10))], name=op + "_wide")
    f.case(op, [("logits", np.int32([[1, 2]]))], name=op + "_int32")

# ---- L2Loss ----
for dt in FLOATS:
    f.case("L2Loss", [("t", randn(4, 5, dtype=dt))], name="L2Loss_" + np.dtype(dt).name)
f.case("L2Loss", [("t", f32(np.zeros((0, 3))))], name="L2Loss_empty")
f.case("L2Loss", [("t", f32(3.0))], name="L2Loss_scalar")
f.case("L2Loss", [("t", f32([1, nan]))], name="L2Loss_nan")
f.case("L2Loss", [("t", f32([1e30, 1e30]))], name="L2Loss_overflow")

# ---- FusedBatchNorm, FusedBatchNormV3 ----
def bn_inputs(x, c, u=f32, empty_stats=False):
    stats = [("mean", (rng.randn(c) * 0.5).astype(u)),
             ("variance", (rng.rand(c) + 0.5).astype(u))]
    if empty_stats:
        stats = [("mean", np.zeros(0, u)), ("variance", np.zeros(0, u))]
    return [("x", x), ("scale", (rng.rand(c) + 0.5).astype(u)),
            ("offset", rng.randn(c).astype(u))] + stats


for op in ["FusedBatchNorm", "FusedBatchNormV3"]:
    for fmt, shape in [("NHWC", (2, 3, 4, 5)), ("NCHW", (2, 5, 3, 4))]:
        for training in [False, True]:
            f.case(op, bn_inputs(randn(*shape), 5),
                   {"is_training": training, "data_format": fmt, "epsilon": 0.001},
                   name="%s_%s_%s" % (op, fmt, "train" if training else "infer"))
    f.case(op, bn_inputs(randn(2, 3, 4, 5), 5),
           {"is_training": True, "exponential_avg_factor": 0.25},
           name=op + "_train_avg_factor")
    f.case(op, bn_inputs(randn(2, 3, 4, 5), 5, empty_stats=True), {"is_training": True},
           name=op + "_train_empty_stats")
    f.case(op, bn_inputs(randn(1, 1, 1, 3), 3), {"is_training": True},
           name=op + "_train_single")
    f.case(op, bn_inputs(randn(2, 3, 4, 5), 4), {"is_training": False},
           name=op + "_bad_channels")
    f.case(op, bn_inputs(randn(2, 3, 5), 5), {"is_training": False}, name=op + "_rank3")
    f.case(op, bn_inputs(randn(2, 3, 4, 5), 5, empty_stats=True), {"is_training": False},
           name=op + "_infer_empty_stats")
for dt in [f16, bf16]:
    name = np.dtype(dt).name
    f.case("FusedBatchNormV3", bn_inputs(randn(2, 3, 4, 5, dtype=dt), 5),
           {"is_training": False}, name="FusedBatchNormV3_infer_" + name)
    f.case("FusedBatchNormV3", bn_inputs(randn(2, 3, 4, 5, dtype=dt), 5),
           {"is_training": True}, name="FusedBatchNormV3_train_" + name)
f.case("FusedBatchNormV3", bn_inputs(randn(2, 2, 3, 4, 3), 3),
       {"is_training": False, "data_format": "NDHWC"}, name="FusedBatchNormV3_ndhwc")
# (inference on 5-D x leaves TF's reserve spaces uninitialized: trained here)
f.case("FusedBatchNormV3", bn_inputs(randn(2, 3, 2, 3, 4), 3),
       {"is_training": True, "data_format": "NCDHW"}, name="FusedBatchNormV3_ncdhw")
f.case("FusedBatchNormV3", bn_inputs(randn(2, 3, 4, 5, dtype=bf16), 5, u=bf16),
       {"is_training": False}, name="FusedBatchNormV3_u_bfloat16",
       match="No OpKernel was registered to support Op 'FusedBatchNormV3'")
f.case("FusedBatchNorm", bn_inputs(randn(2, 3, 4, 5, dtype=f64), 5, u=f64),
       {"is_training": False}, name="FusedBatchNorm_float64")

# ---- LRN ----
for dt in [f32, f16, bf16]:
    f.case("LRN", [("input", randn(2, 2, 3, 8, dtype=dt))], name="LRN_" + np.dtype(dt).name,
           match="No OpKernel was registered to support Op 'LRN'" if dt is bf16 else None)
f.case("LRN", [("input", randn(1, 2, 2, 7))],
       {"depth_radius": 2, "bias": 2.0, "alpha": 0.5, "beta": 0.75}, name="LRN_attrs")
f.case("LRN", [("input", randn(1, 1, 2, 3))], {"depth_radius": 0, "beta": 1.0}, name="LRN_r0")
f.case("LRN", [("input", randn(1, 1, 2, 3))], {"depth_radius": 10}, name="LRN_wide_radius")
f.case("LRN", [("input", f32(np.zeros((0, 2, 2, 3))))], name="LRN_empty")
f.case("LRN", [("input", randn(2, 3, 4))], name="LRN_rank3")

# ---- SoftmaxCrossEntropyWithLogits ----
def onehotish(b, c, dt):
    lab = rng.rand(b, c)
    return (lab / lab.sum(1, keepdims=True)).astype(dt)


for dt in FLOATS:
    f.case("SoftmaxCrossEntropyWithLogits",
           [("features", randn(4, 5, dtype=dt, scale=2)), ("labels", onehotish(4, 5, dt))],
           name="Xent_" + np.dtype(dt).name)
f.case("SoftmaxCrossEntropyWithLogits", [("features", randn(3, 4)), ("labels", onehotish(1, 4, f32))],
       name="Xent_bcast_labels_row")
f.case("SoftmaxCrossEntropyWithLogits", [("features", randn(3, 4)), ("labels", onehotish(1, 4, f32)[0])],
       name="Xent_bcast_labels_rank1")
f.case("SoftmaxCrossEntropyWithLogits", [("features", randn(1, 4)), ("labels", onehotish(3, 4, f32))],
       name="Xent_bcast_logits")
f.case("SoftmaxCrossEntropyWithLogits", [("features", randn(3, 1)), ("labels", onehotish(3, 4, f32))],
       name="Xent_bcast_logits_col")
f.case("SoftmaxCrossEntropyWithLogits", [("features", f32([[1000, 0, -1000], [nan, 1, 2]])),
                                         ("labels", f32([[0, 0, 1], [1, 0, 0]]))],
       name="Xent_extreme")
f.case("SoftmaxCrossEntropyWithLogits", [("features", f32(np.zeros((0, 3)))),
                                         ("labels", f32(np.zeros((0, 3))))], name="Xent_empty")
f.case("SoftmaxCrossEntropyWithLogits", [("features", randn(3, 4)), ("labels", randn(3, 5))],
       name="Xent_mismatch")
f.case("SoftmaxCrossEntropyWithLogits", [("features", randn(2, 3, 4)), ("labels", randn(2, 3, 4))],
       name="Xent_rank3")
f.case("SoftmaxCrossEntropyWithLogits", [("features", randn(4)), ("labels", randn(4))],
       name="Xent_rank1")

# ---- SparseSoftmaxCrossEntropyWithLogits ----
for dt in FLOATS:
    for lt in [np.int32, np.int64]:
        f.case("SparseSoftmaxCrossEntropyWithLogits",
               [("features", randn(4, 5, dtype=dt, scale=2)), ("labels", lt([0, 4, 2, 2]))],
               name="SparseXent_%s_%s" % (np.dtype(dt).name, np.dtype(lt).name))
f.case("SparseSoftmaxCrossEntropyWithLogits", [("features", randn(2, 3)), ("labels", np.int32([1, 5]))],
       name="SparseXent_out_of_range")
f.case("SparseSoftmaxCrossEntropyWithLogits", [("features", randn(2, 3)), ("labels", np.int64([-1, 0]))],
       name="SparseXent_negative")
f.case("SparseSoftmaxCrossEntropyWithLogits", [("features", f32([[1000, 0, -1000], [nan, 1, 2]])),
                                               ("labels", np.int32([2, 1]))],
       name="SparseXent_extreme")
f.case("SparseSoftmaxCrossEntropyWithLogits", [("features", f32(np.zeros((0, 3)))),
                                               ("labels", np.int32(np.zeros(0)))],
       name="SparseXent_empty")
f.case("SparseSoftmaxCrossEntropyWithLogits", [("features", randn(3, 4)), ("labels", np.int32([0, 1]))],
       name="SparseXent_batch_mismatch")
f.case("SparseSoftmaxCrossEntropyWithLogits", [("features", randn(3)), ("labels", np.int32([0]))],
       name="SparseXent_rank1")

# ---- TopKV2 ----
row = np.array([[3, 1, 4, 1, 5, 9, 2, 6], [5, 3, 5, 8, 9, 7, 9, 3]])
for dt in [f32, f64, np.int32, np.int64, np.int16, np.int8, np.uint8, np.uint16, np.uint32,
           np.uint64, f16, bf16]:
    f.case("TopKV2", [("input", row.astype(dt)), ("k", Const(np.int32(3)))],
           name="TopKV2_" + np.dtype(dt).name)
f.case("TopKV2", [("input", row.astype(f32)), ("k", Const(np.int32(8)))], name="TopKV2_all")
f.case("TopKV2", [("input", row.astype(f32)), ("k", Const(np.int32(8)))], {"sorted": False},
       name="TopKV2_all_unsorted")
f.case("TopKV2", [("input", row.astype(f32)), ("k", Const(np.int32(1)))], {"sorted": False},
       name="TopKV2_k1_unsorted")
f.case("TopKV2", [("input", row.astype(f32)), ("k", Const(np.int32(0)))], name="TopKV2_k0")
f.case("TopKV2", [("input", f32([[2, 2, 2, 1, 2], [1, 1, 1, 1, 1]])), ("k", Const(np.int32(3)))],
       name="TopKV2_ties")
f.case("TopKV2", [("input", f32([-inf, 3, inf, -0.0, 0.0, -1])), ("k", Const(np.int32(4)))],
       name="TopKV2_inf")
f.case("TopKV2", [("input", randn(2, 3, 6)), ("k", Const(np.int64(2)))],
       {"index_type": tf.int64}, name="TopKV2_rank3_int64")
f.case("TopKV2", [("input", randn(2, 6)), ("k", Const(np.int16(2)))],
       {"index_type": tf.int16}, name="TopKV2_int16")
f.case("TopKV2", [("input", randn(2, 3)), ("k", np.int32(2))], name="TopKV2_k_fed")
f.case("TopKV2", [("input", randn(2, 3)), ("k", np.int32(5))], name="TopKV2_k_too_big_fed")
f.case("TopKV2", [("input", randn(2, 3)), ("k", np.int32(-1))], name="TopKV2_k_negative_fed")
f.case("TopKV2", [("input", randn(2, 3)), ("k", Const(np.int32(5)))], name="TopKV2_k_too_big")
f.case("TopKV2", [("input", randn(2, 3)), ("k", Const(np.int32(-1)))], name="TopKV2_k_negative")
f.case("TopKV2", [("input", f32(np.zeros((0, 3)))), ("k", Const(np.int32(2)))],
       name="TopKV2_empty")
f.case("TopKV2", [("input", f32(1.0)), ("k", Const(np.int32(1)))], name="TopKV2_scalar")
f.case("TopKV2", [("input", randn(3)), ("k", Const(np.int32([1])))], name="TopKV2_k_vector")

# ---- InTopKV2 ----
pred = f32([[0.1, 0.3, 0.2, 0.4], [0.5, 0.5, 0.1, 0.0], [nan, 1, 2, 3], [1, inf, 3, 4],
            [0.1, 0.2, 0.3, 0.4]])
for tt in [np.int32, np.int64]:
    for k in [1, 2]:
        f.case("InTopKV2", [("predictions", pred), ("targets", tt([3, 1, 3, 3, -1])),
                            ("k", tt(k))], name="InTopKV2_%s_k%d" % (np.dtype(tt).name, k))
f.case("InTopKV2", [("predictions", pred), ("targets", np.int32([0, 0, 1, 2, 4])),
                    ("k", np.int32(0))], name="InTopKV2_k0")
f.case("InTopKV2", [("predictions", pred), ("targets", np.int32([0, 0, 1, 2, 3])),
                    ("k", np.int32(4))], name="InTopKV2_k_all")
f.case("InTopKV2", [("predictions", pred), ("targets", np.int32([0, 0, 1])),
                    ("k", np.int32(1))], name="InTopKV2_batch_mismatch")
f.case("InTopKV2", [("predictions", f32([1, 2])), ("targets", np.int32([0])),
                    ("k", np.int32(1))], name="InTopKV2_rank1")
f.write()
