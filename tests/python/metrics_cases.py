"""Cases shared by tools/gen_metrics_expected.py (run with real TensorFlow 2.21) and
tests/python/test_metrics.py: tf.compat.v1.metrics streams, tf.confusion_matrix and tf.sets.

STREAM_CASES: build(tf) -> ((value, update_op), feeds): a metric over placeholders, fed batch
by batch; after each batch the runner records update_op's result and then value's, plus the
local / metric variable names, the value and update tensors' names, static shapes and dtypes.
VALUE_CASES: build(tf) -> tensor (or a SparseTensor / list of them) whose value is recorded.
STATIC_CASES: build(tf) raises at construction (type and message recorded).
RUN_CASES: build(tf) -> (fetch, feed): running it fails (type and message recorded)."""
import numpy as np

RNG = np.random.RandomState(12)


def _batches(*makers, n=3):
    """n feeds of arrays made by makers (each a function of the batch index)."""
    return [[m(i) for m in makers] for i in range(n)]


_PRED = [RNG.uniform(size=[5]).astype(np.float32).round(3) for _ in range(3)]
_PRED[1][2] = 0.0  # an exact 0 and 1: the endpoint thresholds -1e-7 and 1 + 1e-7
_PRED[2][4] = 1.0
_LAB = [np.array(RNG.uniform(size=[5]) > 0.5) for _ in range(3)]
_W = [RNG.uniform(0, 2, size=[5]).astype(np.float32).round(2) for _ in range(3)]
_INT_LAB = [RNG.randint(0, 3, size=[6]) for _ in range(3)]
_INT_PRED = [RNG.randint(0, 3, size=[6]) for _ in range(3)]
_X = [RNG.normal(size=[4]).astype(np.float32).round(3) for _ in range(3)]
_Y = [RNG.normal(size=[4]).astype(np.float32).round(3) for _ in range(3)]
_SCORES = [RNG.uniform(size=[3, 5]).astype(np.float32).round(3) for _ in range(3)]
_TOPK_LAB = [RNG.randint(0, 5, size=[3, 2]).astype(np.int64) for _ in range(3)]
_MT = [RNG.normal(size=[2, 3]).astype(np.float32).round(3) for _ in range(3)]


def _unit(x):
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


_COS_A = [_unit(RNG.normal(size=[4, 3])) for _ in range(3)]
_COS_B = [_unit(RNG.normal(size=[4, 3])) for _ in range(3)]


def _ph(tf, dtype, shape=None):
    return tf.placeholder(dtype, shape)


def _stream(metric, *pairs):
    """Feeds: a list of {placeholder: batch} dicts from (placeholder, [batches]) pairs."""
    n = len(pairs[0][1])
    return metric, [{p: b[i] for p, b in pairs} for i in range(n)]


def _binary(tf, fn, weighted=False, **kw):
    p = _ph(tf, tf.float32, [None])
    lab = _ph(tf, tf.bool, [None])
    pairs = [(p, _PRED), (lab, _LAB)]
    if weighted:
        w = _ph(tf, tf.float32, [None])
        kw["weights"] = w
        pairs.append((w, _W))
    return _stream(fn(lab, p, **kw), *pairs)


def _bool_counts(tf, fn, weighted=False, **kw):
    p = _ph(tf, tf.float32, [5])
    lab = _ph(tf, tf.int32, [5])
    pairs = [(p, [(x > 0.5).astype(np.float32) for x in _PRED]), (lab, [x.astype(np.int32) for x in _LAB])]
    if weighted:
        w = _ph(tf, tf.float32, [5])
        kw["weights"] = w
        pairs.append((w, _W))
    return _stream(fn(lab, p, **kw), *pairs)


def _regression(tf, fn, weighted=False, **kw):
    x = _ph(tf, tf.float32, [None])
    y = _ph(tf, tf.float32, [None])
    pairs = [(x, _X), (y, _Y)]
    if weighted:
        w = _ph(tf, tf.float32, [None])
        kw["weights"] = w
        pairs.append((w, [a[:4] for a in _W]))
    return _stream(fn(x, y, **kw), *pairs)


def _classes(tf, fn, weighted=False, **kw):
    lab = _ph(tf, tf.int64, [6])
    pred = _ph(tf, tf.int64, [6])
    pairs = [(lab, _INT_LAB), (pred, _INT_PRED)]
    if weighted:
        w = _ph(tf, tf.float32, [6])
        kw["weights"] = w
        pairs.append((w, [np.concatenate([a, a[:1]]) for a in _W]))
    return _stream(fn(lab, pred, **kw), *pairs)


def _topk(tf, fn, labels="dense", weighted=False, scores_arg=True, **kw):
    scores = _ph(tf, tf.float32, [3, 5])
    pairs = [(scores, _SCORES)]
    if labels == "dense":
        lab = _ph(tf, tf.int64, [3, 2])
        pairs.append((lab, _TOPK_LAB))
    elif labels == "flat":
        lab = _ph(tf, tf.int64, [3])
        pairs.append((lab, [a[:, 0] for a in _TOPK_LAB]))
    else:  # sparse: row 0 has 2 labels, row 1 one, row 2 none
        lab = tf.SparseTensor([[0, 0], [0, 1], [1, 0]],
                              _ph(tf, tf.int64, [3]), [3, 2])
        pairs.append((lab.values, [a.reshape(-1)[:3] for a in _TOPK_LAB]))
    if weighted:
        w = _ph(tf, tf.float32, [3])
        kw["weights"] = w
        pairs.append((w, [a[:3] for a in _W]))
    pred = scores if scores_arg else tf.nn.top_k(scores, kw.get("k") or 2)[1]
    return _stream(fn(lab, pred, **kw), *pairs)


def _mean_tensor(tf, weighted):
    v = _ph(tf, tf.float32, [2, 3])
    pairs = [(v, _MT)]
    kw = {}
    if weighted:
        w = _ph(tf, tf.float32, [2, 1])
        kw["weights"] = w
        pairs.append((w, [np.array([[1.0], [0.0]], np.float32), np.array([[0.5], [2.0]], np.float32),
                          np.array([[0.0], [0.0]], np.float32)]))
    return _stream(tf.metrics.mean_tensor(v, **kw), *pairs)


def _cosine(tf, weighted=False):
    a = _ph(tf, tf.float32, [None, 3])
    b = _ph(tf, tf.float32, [None, 3])
    pairs = [(a, _COS_A), (b, _COS_B)]
    kw = {}
    if weighted:
        w = _ph(tf, tf.float32, [None, 1])
        kw["weights"] = w
        pairs.append((w, [x[:4].reshape(4, 1) for x in _W]))
    return _stream(tf.metrics.mean_cosine_distance(a, b, dim=1, **kw), *pairs)


def _relative(tf):
    x = _ph(tf, tf.float32, [4])
    y = _ph(tf, tf.float32, [4])
    nz = _ph(tf, tf.float32, [4])
    norm = [np.array([1.0, 0.0, 2.0, 0.5], np.float32), np.array([3.0, 1.0, 0.0, 1.0], np.float32),
            np.array([0.25, 2.0, 1.0, 0.0], np.float32)]
    return _stream(tf.metrics.mean_relative_error(x, y, nz), (x, _X), (y, _Y), (nz, norm))


def _mean(tf, weights=None, shape=(None,), values=None):
    v = _ph(tf, tf.float32, list(shape))
    pairs = [(v, values or _X)]
    kw = {}
    if weights == "vector":
        w = _ph(tf, tf.float32, [None])
        kw["weights"] = w
        pairs.append((w, [a[:4] for a in _W]))
    elif weights == "scalar":
        kw["weights"] = 0.5
    elif weights == "column":
        w = _ph(tf, tf.float32, [4, 1])
        kw["weights"] = w
        pairs.append((w, [a[:4].reshape(4, 1) for a in _W]))
    elif weights == "row":  # [1, 3] broadcast over [2, 3] values
        w = _ph(tf, tf.float32, [1, 3])
        kw["weights"] = w
        pairs.append((w, [a[:3].reshape(1, 3) for a in _W]))
    return _stream(tf.metrics.mean(v, **kw), *pairs)


def _collections(tf):
    v = _ph(tf, tf.float32, [None])
    m = tf.metrics.mean(v, metrics_collections=["my_metrics"], updates_collections=["my_updates"],
                        name="streamed")
    assert tf.get_collection("my_metrics") == [m[0]]
    assert tf.get_collection("my_updates") == [m[1]]
    return _stream(m, (v, _X))


def _unknown_rank_weights(tf):
    v = _ph(tf, tf.float32, [None])
    w = _ph(tf, tf.float32, None)
    ws = [a[:4] for a in _W[:2]] + [np.float32(0.5)]  # a vector twice, then a scalar
    return _stream(tf.metrics.mean(v, weights=w), (v, _X), (w, ws))


def _unknown_rank_labels(tf):
    lab = _ph(tf, tf.int64, None)
    pred = _ph(tf, tf.int64, None)
    labs = [_INT_LAB[0].reshape(6, 1), _INT_LAB[1], _INT_LAB[2]]  # [6, 1] squeezed at run time
    return _stream(tf.metrics.accuracy(lab, pred), (lab, labs), (pred, _INT_PRED))


def _squeezed(tf):
    lab = _ph(tf, tf.int32, [6, 1])
    pred = _ph(tf, tf.int64, [6])
    w = _ph(tf, tf.float32, [6, 1])
    return _stream(tf.metrics.accuracy(lab, pred, weights=w),
                   (lab, [a.reshape(6, 1).astype(np.int32) for a in _INT_LAB]), (pred, _INT_PRED),
                   (w, [np.concatenate([a, a[:1]]).reshape(6, 1) for a in _W]))


def _sparse_unknown_rank(tf):
    scores = _ph(tf, tf.float32, [3, 5])
    values = _ph(tf, tf.int64, [3])
    lab = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], values,
                          tf.placeholder_with_default(tf.constant([3, 2], tf.int64), [None]))
    return _stream(tf.metrics.recall_at_k(lab, scores, 2), (scores, _SCORES),
                   (values, [a.reshape(-1)[:3] for a in _TOPK_LAB]))


def _mean_iou_2d(tf):
    lab = _ph(tf, tf.int32, [2, 3])
    pred = _ph(tf, tf.int32, [2, 3])
    w = _ph(tf, tf.float32, [2, 3])
    return _stream(tf.metrics.mean_iou(lab, pred, 3, weights=w),
                   (lab, [a.reshape(2, 3).astype(np.int32) for a in _INT_LAB]),
                   (pred, [a.reshape(2, 3).astype(np.int32) for a in _INT_PRED]),
                   (w, [np.concatenate([a, a[:1]]).reshape(2, 3) for a in _W]))


STREAM_CASES = {
    "mean_unknown_rank_weights": _unknown_rank_weights,
    "accuracy_unknown_rank": _unknown_rank_labels,
    "accuracy_squeezed": _squeezed,
    "recall_at_k_sparse_unknown_rank": _sparse_unknown_rank,
    "mean_iou_2d": _mean_iou_2d,
    "mean": lambda tf: _mean(tf),
    "mean_weighted": lambda tf: _mean(tf, "vector"),
    "mean_scalar_weight": lambda tf: _mean(tf, "scalar"),
    "mean_column_weight": lambda tf: _mean(tf, "column", shape=(4,)),
    "mean_row_weight": lambda tf: _mean(tf, "row", shape=(2, 3),
                                        values=[a[:2, :3] for a in _SCORES]),
    "mean_collections": _collections,
    "mean_tensor": lambda tf: _mean_tensor(tf, False),
    "mean_tensor_weighted": lambda tf: _mean_tensor(tf, True),
    "accuracy": lambda tf: _classes(tf, tf.metrics.accuracy),
    "accuracy_weighted": lambda tf: _classes(tf, tf.metrics.accuracy, weighted=True),
    "accuracy_named": lambda tf: _classes(tf, tf.metrics.accuracy, name="acc"),
    "mean_absolute_error": lambda tf: _regression(tf, tf.metrics.mean_absolute_error),
    "mean_absolute_error_weighted": lambda tf: _regression(tf, tf.metrics.mean_absolute_error,
                                                           weighted=True),
    "mean_squared_error": lambda tf: _regression(tf, tf.metrics.mean_squared_error),
    "mean_squared_error_weighted": lambda tf: _regression(tf, tf.metrics.mean_squared_error,
                                                          weighted=True),
    "root_mean_squared_error": lambda tf: _regression(tf, tf.metrics.root_mean_squared_error),
    "root_mean_squared_error_weighted": lambda tf: _regression(
        tf, tf.metrics.root_mean_squared_error, weighted=True),
    "mean_relative_error": _relative,
    "mean_cosine_distance": lambda tf: _cosine(tf),
    "mean_cosine_distance_weighted": lambda tf: _cosine(tf, True),
    "percentage_below": lambda tf: _regression(
        tf, lambda x, y, **kw: tf.metrics.percentage_below(x, 0.1, **kw)),
    "percentage_below_weighted": lambda tf: _regression(
        tf, lambda x, y, **kw: tf.metrics.percentage_below(x, 0.1, **kw), weighted=True),
    "true_positives": lambda tf: _bool_counts(tf, tf.metrics.true_positives),
    "true_positives_weighted": lambda tf: _bool_counts(tf, tf.metrics.true_positives, True),
    "false_positives": lambda tf: _bool_counts(tf, tf.metrics.false_positives),
    "false_positives_weighted": lambda tf: _bool_counts(tf, tf.metrics.false_positives, True),
    "true_negatives": lambda tf: _bool_counts(tf, tf.metrics.true_negatives),
    "true_negatives_weighted": lambda tf: _bool_counts(tf, tf.metrics.true_negatives, True),
    "false_negatives": lambda tf: _bool_counts(tf, tf.metrics.false_negatives),
    "false_negatives_weighted": lambda tf: _bool_counts(tf, tf.metrics.false_negatives, True),
    "precision": lambda tf: _bool_counts(tf, tf.metrics.precision),
    "precision_weighted": lambda tf: _bool_counts(tf, tf.metrics.precision, True),
    "recall": lambda tf: _bool_counts(tf, tf.metrics.recall),
    "recall_weighted": lambda tf: _bool_counts(tf, tf.metrics.recall, True),
    "true_positives_at_thresholds": lambda tf: _binary(
        tf, tf.metrics.true_positives_at_thresholds, thresholds=[0.25, 0.5, 0.75]),
    "false_positives_at_thresholds": lambda tf: _binary(
        tf, tf.metrics.false_positives_at_thresholds, weighted=True, thresholds=[0.0, 0.5, 1.0]),
    "true_negatives_at_thresholds": lambda tf: _binary(
        tf, tf.metrics.true_negatives_at_thresholds, weighted=True, thresholds=[0.3, 0.6]),
    "false_negatives_at_thresholds": lambda tf: _binary(
        tf, tf.metrics.false_negatives_at_thresholds, thresholds=[0.1, 0.5, 0.9]),
    "precision_at_thresholds": lambda tf: _binary(
        tf, tf.metrics.precision_at_thresholds, weighted=True, thresholds=[0.2, 0.5, 0.8]),
    "recall_at_thresholds": lambda tf: _binary(
        tf, tf.metrics.recall_at_thresholds, thresholds=[0.2, 0.5, 0.8]),
    "auc_roc": lambda tf: _binary(tf, tf.metrics.auc),
    "auc_roc_weighted": lambda tf: _binary(tf, tf.metrics.auc, weighted=True, num_thresholds=20),
    "auc_pr": lambda tf: _binary(tf, tf.metrics.auc, curve="PR", num_thresholds=50),
    "auc_pr_careful": lambda tf: _binary(tf, tf.metrics.auc, weighted=True, curve="PR",
                                         summation_method="careful_interpolation"),
    "auc_roc_careful": lambda tf: _binary(tf, tf.metrics.auc,
                                          summation_method="careful_interpolation"),
    "auc_minoring": lambda tf: _binary(tf, tf.metrics.auc, summation_method="minoring",
                                       num_thresholds=10),
    "auc_majoring_pr": lambda tf: _binary(tf, tf.metrics.auc, curve="PR",
                                          summation_method="majoring", num_thresholds=10),
    "auc_thresholds": lambda tf: _binary(tf, tf.metrics.auc, thresholds=[0.7, 0.2, 0.5],
                                         name="my_auc"),
    "auc_num_thresholds_0": lambda tf: _binary(tf, tf.metrics.auc, num_thresholds=0),
    "auc_num_thresholds_1": lambda tf: _binary(tf, tf.metrics.auc, num_thresholds=1),
    "auc_num_thresholds_3_pr": lambda tf: _binary(tf, tf.metrics.auc, num_thresholds=3,
                                                  curve="PR",
                                                  summation_method="careful_interpolation"),
    "precision_at_no_thresholds": lambda tf: _binary(tf, tf.metrics.precision_at_thresholds,
                                                     thresholds=[]),
    "sensitivity_at_specificity_1": lambda tf: _binary(
        tf, tf.metrics.sensitivity_at_specificity, specificity=0.5, num_thresholds=1),
    "sensitivity_at_specificity": lambda tf: _binary(
        tf, tf.metrics.sensitivity_at_specificity, specificity=0.6),
    "sensitivity_at_specificity_weighted": lambda tf: _binary(
        tf, tf.metrics.sensitivity_at_specificity, weighted=True, specificity=0.3,
        num_thresholds=25),
    "specificity_at_sensitivity": lambda tf: _binary(
        tf, tf.metrics.specificity_at_sensitivity, sensitivity=0.5),
    "specificity_at_sensitivity_weighted": lambda tf: _binary(
        tf, tf.metrics.specificity_at_sensitivity, weighted=True, sensitivity=0.8,
        num_thresholds=30),
    "mean_iou": lambda tf: _classes(tf, lambda lab, p, **kw: tf.metrics.mean_iou(lab, p, 3, **kw)),
    "mean_iou_weighted": lambda tf: _classes(
        tf, lambda lab, p, **kw: tf.metrics.mean_iou(lab, p, 4, **kw), weighted=True),
    "mean_per_class_accuracy": lambda tf: _classes(
        tf, lambda lab, p, **kw: tf.metrics.mean_per_class_accuracy(lab, p, 3, **kw)),
    "mean_per_class_accuracy_weighted": lambda tf: _classes(
        tf, lambda lab, p, **kw: tf.metrics.mean_per_class_accuracy(lab, p, 4, **kw),
        weighted=True),
    "recall_at_k": lambda tf: _topk(tf, tf.metrics.recall_at_k, k=2),
    "recall_at_k_class": lambda tf: _topk(tf, tf.metrics.recall_at_k, k=3, class_id=1),
    "recall_at_k_flat_weighted": lambda tf: _topk(tf, tf.metrics.recall_at_k, "flat", True, k=2),
    "recall_at_k_sparse": lambda tf: _topk(tf, tf.metrics.recall_at_k, "sparse", k=2),
    "recall_at_k_sparse_class": lambda tf: _topk(tf, tf.metrics.recall_at_k, "sparse", k=2,
                                                 class_id=3),
    "precision_at_k": lambda tf: _topk(tf, tf.metrics.precision_at_k, k=2),
    "precision_at_k_weighted_class": lambda tf: _topk(tf, tf.metrics.precision_at_k, "dense",
                                                      True, k=3, class_id=2),
    "precision_at_k_sparse": lambda tf: _topk(tf, tf.metrics.precision_at_k, "sparse", k=1),
    "sparse_precision_at_k": lambda tf: _topk(tf, tf.metrics.sparse_precision_at_k, "flat", k=2),
    "precision_at_top_k": lambda tf: _topk(tf, tf.metrics.precision_at_top_k, scores_arg=False,
                                           k=2),
    "precision_at_top_k_nok": lambda tf: _topk(tf, tf.metrics.precision_at_top_k, "flat",
                                               scores_arg=False),
    "recall_at_top_k": lambda tf: _topk(tf, tf.metrics.recall_at_top_k, "sparse",
                                        scores_arg=False, k=2),
    "recall_at_top_k_class": lambda tf: _topk(tf, tf.metrics.recall_at_top_k, "dense", True,
                                              scores_arg=False, k=2, class_id=0),
    "average_precision_at_k": lambda tf: _topk(tf, tf.metrics.average_precision_at_k, k=3),
    "average_precision_at_k_weighted": lambda tf: _topk(tf, tf.metrics.average_precision_at_k,
                                                        "dense", True, k=2),
    "average_precision_at_k_flat": lambda tf: _topk(tf, tf.metrics.average_precision_at_k,
                                                    "flat", k=1),
    "average_precision_at_k_sparse": lambda tf: _topk(tf, tf.metrics.average_precision_at_k,
                                                      "sparse", k=2),
    "sparse_average_precision_at_k": lambda tf: _topk(
        tf, tf.metrics.sparse_average_precision_at_k, k=4),
}


def _sp(tf, indices, values, shape, dtype=None):
    return tf.SparseTensor(indices, tf.constant(values, dtype or tf.int64), shape)


_A = [[[1, 2, 3], [4, 4, 5]], [[0, 9, 9], [7, 1, 1]]]
_B = [[[2, 3, 6], [5, 6, 7]], [[9, 0, 8], [2, 2, 2]]]

VALUE_CASES = {
    "confusion_matrix": lambda tf: tf.confusion_matrix([1, 2, 4], [2, 2, 4]),
    "confusion_matrix_num_classes": lambda tf: tf.confusion_matrix(
        tf.constant([0, 1, 1, 2]), tf.constant([1, 1, 2, 2]), num_classes=4, dtype=tf.float64),
    "confusion_matrix_weights": lambda tf: tf.math.confusion_matrix(
        [[0], [1], [1]], [0, 1, 0], weights=[0.5, 2.0, 1.0], dtype=tf.float32),
    "confusion_matrix_v1_order": lambda tf: tf.confusion_matrix(
        [0, 1], [1, 1], 3, tf.int64, "cm", [3, 4]),
    "sets_intersection_dense": lambda tf: tf.sets.intersection(tf.constant(_A), tf.constant(_B)),
    "sets_union_dense": lambda tf: tf.sets.union(tf.constant(_A, tf.int32), tf.constant(_B, tf.int32)),
    "sets_difference_dense": lambda tf: tf.sets.difference(tf.constant(_A), tf.constant(_B)),
    "sets_difference_b_a": lambda tf: tf.sets.set_difference(tf.constant(_A, tf.int16),
                                                             tf.constant(_B, tf.int16),
                                                             aminusb=False),
    "sets_size_sparse": lambda tf: tf.sets.size(_sp(tf, [[0, 0], [0, 1], [0, 3], [2, 0]],
                                                    [5, 5, 7, 1], [3, 4])),
    "sets_dense_sparse": lambda tf: tf.sets.intersection(
        tf.constant([[1, 2, 2], [3, 4, 5], [6, 7, 8]], tf.int64),
        _sp(tf, [[0, 0], [0, 1], [2, 0], [2, 2]], [2, 1, 8, 0], [3, 3])),
    "sets_sparse_dense_flipped": lambda tf: tf.sets.difference(
        _sp(tf, [[0, 0], [1, 1]], [4, 3], [2, 2]), tf.constant([[4, 1], [0, 0]], tf.int64)),
    "sets_sparse_sparse": lambda tf: tf.sets.union(
        _sp(tf, [[0, 0], [2, 1]], [3, 1], [4, 2]), _sp(tf, [[1, 0], [2, 0], [2, 1]], [5, 1, 0],
                                                       [4, 2])),
    "sets_strings": lambda tf: tf.sets.intersection(
        tf.constant([["a", "b", "cc"], ["x", "y", "y"]]),
        tf.constant([["cc", "a", "q"], ["y", "z", "x"]])),
    "sets_size_uint8_3d": lambda tf: tf.sets.set_size(tf.SparseTensor(
        [[0, 0, 0], [0, 0, 1], [1, 1, 0]], tf.constant([3, 3, 4], tf.uint8), [2, 2, 2])),
    "sets_empty_result": lambda tf: tf.sets.intersection(tf.constant([[1, 2]]),
                                                         tf.constant([[3, 4]])),
}


def _fed(tf, value, dtype=None):
    c = tf.constant(value, dtype=dtype)
    return tf.placeholder_with_default(c, None)


def _fed_shaped(tf, value, dtype=None):
    c = tf.constant(value, dtype=dtype)
    return tf.placeholder_with_default(c, c.shape)


STATIC_CASES = {
    "auc_pr_careful_1_threshold": lambda tf: _binary(tf, tf.metrics.auc, num_thresholds=1,
                                                     curve="PR",
                                                     summation_method="careful_interpolation"),
    "accuracy_shape_mismatch": lambda tf: tf.metrics.accuracy(tf.zeros([3]), tf.zeros([4])),
    "auc_bad_curve": lambda tf: tf.metrics.auc(tf.zeros([3], tf.bool), tf.zeros([3]),
                                               curve="XY"),
    "auc_bad_summation": lambda tf: tf.metrics.auc(tf.zeros([3], tf.bool), tf.zeros([3]),
                                                   summation_method="simpson"),
    "sensitivity_out_of_range": lambda tf: tf.metrics.sensitivity_at_specificity(
        tf.zeros([3], tf.bool), tf.zeros([3]), 1.5),
    "specificity_out_of_range": lambda tf: tf.metrics.specificity_at_sensitivity(
        tf.zeros([3], tf.bool), tf.zeros([3]), -0.1),
    "mean_weights_rank": lambda tf: tf.metrics.mean(tf.zeros([2, 3]), weights=tf.zeros([2, 3, 4])),
    "mean_weights_dim": lambda tf: tf.metrics.mean(tf.zeros([2, 3]), weights=tf.zeros([2, 2])),
    "average_precision_k0": lambda tf: tf.metrics.average_precision_at_k(
        tf.zeros([2], tf.int64), tf.zeros([2, 3]), 0),
    "labels_rank": lambda tf: tf.metrics.recall_at_top_k(
        tf.zeros([2, 2, 2], tf.int64), tf.zeros([2], tf.int64)),
    "confusion_weights_shape": lambda tf: tf.confusion_matrix([1, 2], [1, 2], weights=[1, 2, 3]),
    "sets_float": lambda tf: tf.sets.intersection(tf.zeros([2, 2]), tf.zeros([2, 2])),
    "sets_type_mismatch": lambda tf: tf.sets.union(tf.zeros([2, 2], tf.int32),
                                                   tf.zeros([2, 2], tf.int64)),
    "sets_rank1": lambda tf: tf.sets.intersection(tf.constant([1, 2]), tf.constant([1, 2])),
    "sets_group_mismatch": lambda tf: tf.sets.intersection(tf.zeros([2, 3], tf.int32),
                                                           tf.zeros([3, 3], tf.int32)),
    "sets_size_dense": lambda tf: tf.sets.size(tf.zeros([2, 2], tf.int32)),
}

RUN_CASES = {
    "auc_predictions_above_one": lambda tf: tf.metrics.auc(
        tf.constant([True, False]), _fed(tf, [0.5, 1.5]))[1],
    "precision_at_thresholds_negative": lambda tf: tf.metrics.precision_at_thresholds(
        tf.constant([True, False]), _fed(tf, [-0.5, 0.5]), [0.5])[1],
    "mean_weights_not_broadcastable": lambda tf: tf.metrics.mean(
        _fed(tf, [[1.0, 2.0, 3.0]]), weights=_fed(tf, [[1.0, 2.0]]))[1],
    "mean_weights_rank_fed": lambda tf: tf.metrics.mean(
        _fed(tf, [1.0, 2.0]), weights=_fed(tf, [[[1.0, 2.0]]]))[1],
    "confusion_negative": lambda tf: tf.confusion_matrix(_fed(tf, [0, -1]), [0, 1]),
    "confusion_out_of_bound": lambda tf: tf.confusion_matrix([0, 1], _fed(tf, [0, 3]), 3),
    "mean_iou_out_of_bound": lambda tf: tf.metrics.mean_iou(
        tf.constant([0, 1]), _fed_shaped(tf, [0, 5], tf.int32), 3)[1],
    "sets_mismatch_fed": lambda tf: tf.sets.intersection(
        _fed(tf, [[1, 2]]), _fed(tf, [[1], [2]])).values,
    "sets_unsorted_sparse": lambda tf: tf.sets.size(tf.SparseTensor(
        _fed(tf, [[1, 0], [0, 0]], tf.int64), tf.constant([1, 2]), [2, 2])),
    "sets_out_of_bounds_sparse": lambda tf: tf.sets.size(tf.SparseTensor(
        _fed(tf, [[0, 0], [0, 5]], tf.int64), tf.constant([1, 2]), [2, 2])),
    "sets_repeated_sparse": lambda tf: tf.sets.size(tf.SparseTensor(
        _fed(tf, [[0, 1], [0, 1]], tf.int64), tf.constant([1, 2]), [2, 2])),
    "sets_rank1_sparse": lambda tf: tf.sets.size(tf.SparseTensor(
        _fed(tf, [[0], [1]], tf.int64), tf.constant([1, 2]), _fed(tf, [2], tf.int64))),
    "sets_unvalidated_out_of_bounds": lambda tf: tf.raw_ops.SetSize(
        set_indices=_fed(tf, [[0, 0], [0, 5]], tf.int64), set_values=tf.constant([1, 2]),
        set_shape=tf.constant([2, 2], tf.int64), validate_indices=False),
    "sets_negative_shape": lambda tf: tf.raw_ops.SetSize(
        set_indices=tf.constant([[0, 0]], tf.int64), set_values=tf.constant([1]),
        set_shape=_fed(tf, [-1, 2], tf.int64)),
    "sets_values_not_vector": lambda tf: tf.raw_ops.SetSize(
        set_indices=tf.constant([[0, 0]], tf.int64), set_values=_fed(tf, [[1]]),
        set_shape=tf.constant([2, 2], tf.int64)),
    "sets_rows_mismatch": lambda tf: tf.raw_ops.SetSize(
        set_indices=_fed(tf, [[0, 0], [0, 1]], tf.int64), set_values=_fed(tf, [1]),
        set_shape=tf.constant([2, 2], tf.int64)),
    "sets_indices_width": lambda tf: tf.raw_ops.SetSize(
        set_indices=_fed(tf, [[0, 0, 0]], tf.int64), set_values=_fed(tf, [1]),
        set_shape=tf.constant([2, 2], tf.int64)),
    "sets_dense_sparse_mismatch": lambda tf: tf.sets.intersection(
        _fed(tf, [[1, 2]], tf.int64), tf.SparseTensor([[0, 0]], tf.constant([1], tf.int64),
                                                      _fed(tf, [2, 2], tf.int64))).values,
    "sets_sparse_sparse_rank": lambda tf: tf.sets.union(
        tf.SparseTensor([[0, 0]], tf.constant([1]), [2, 2]),
        tf.SparseTensor([[0, 0, 0]], tf.constant([1]), _fed(tf, [2, 2, 2], tf.int64))).values,
    "sets_bad_operation": lambda tf: tf.raw_ops.DenseToDenseSetOperation(
        set1=tf.constant([[1]]), set2=tf.constant([[1]]), set_operation="xor")[1],
}


# ---- runners, the same under TensorFlow and minitf ----

def jsonable(v):
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if hasattr(v, "indices") and hasattr(v, "dense_shape"):
        return {"sparse": [jsonable(v.indices), jsonable(v.values), jsonable(v.dense_shape)]}
    a = np.asarray(v)
    if a.dtype.kind in "SUO":
        return {"dtype": "string", "value": [x.decode() if isinstance(x, bytes) else str(x)
                                             for x in a.reshape(-1)], "shape": list(a.shape)}
    return {"dtype": a.dtype.name, "value": a.reshape(-1).tolist(), "shape": list(a.shape)}


def _static(t):
    shape = t.get_shape()
    return [None if shape.ndims is None else shape.as_list(), t.dtype.name]


def run_stream(tf, build):
    """What a stream case gives: variables, names, static shapes, and per batch the
    update_op's result then the value's."""
    g = tf.Graph()
    with g.as_default():
        (value, update), feeds = build(tf)
        out = {
            "local": [v.name for v in tf.local_variables()],
            "metric": [v.name for v in tf.get_collection(tf.GraphKeys.METRIC_VARIABLES)],
            "global": [v.name for v in tf.global_variables()],
            "trainable": [v.name for v in tf.trainable_variables()],
            "value_name": value.name,
            "static": [_static(value), _static(update)],
            "updates": [], "values": [],
        }
        with tf.Session() as s:
            s.run(tf.local_variables_initializer())
            out["initial"] = jsonable(s.run(value))
            for fd in feeds:
                out["updates"].append(jsonable(s.run(update, fd)))
                out["values"].append(jsonable(s.run(value)))
    return out


def graph_nodes(tf, build):
    """[[name, type]] of every op a stream case builds, in creation order."""
    g = tf.Graph()
    with g.as_default():
        build(tf)
        return [[op.name, op.type] for op in g.get_operations()]


# Stream cases whose graph differs from TensorFlow's, and why (their values still equal TF's).
NODE_DIFFERENCES = {
    "mean_iou": "the diagonal is a GatherNd: minitf has no DiagPart op yet",
    "mean_iou_weighted": "the diagonal is a GatherNd: minitf has no DiagPart op yet",
    "recall_at_k_sparse": "SparseTensor labels: the rank test is static, TF builds a tf.cond "
                          "over SparseReshape (neither SparseReshape nor composite cond "
                          "outputs exist in minitf yet)",
    "recall_at_k_sparse_class": "SparseTensor labels (as recall_at_k_sparse)",
    "precision_at_k_sparse": "SparseTensor labels (as recall_at_k_sparse)",
    "recall_at_top_k": "SparseTensor labels (as recall_at_k_sparse)",
    "recall_at_k_sparse_unknown_rank": "SparseTensor labels: minitf's tf.cond chooses the "
                                       "indices and shape, TF's the whole SparseTensor",
    "mean_iou_2d": "the diagonal is a GatherNd: minitf has no DiagPart op yet",
    "average_precision_at_k_sparse": "SparseTensor labels: also the tiling is a SparseReorder "
                                     "of shifted indices, not SparseReshape + SparseConcat",
}


def run_value(tf, build):
    g = tf.Graph()
    with g.as_default():
        t = build(tf)
        with tf.Session() as s:
            return jsonable(s.run(t))


def static_error(tf, build):
    g = tf.Graph()
    with g.as_default():
        try:
            build(tf)
        except (ValueError, TypeError, tf.errors.OpError) as e:
            msg = e.message if isinstance(e, tf.errors.OpError) else str(e)
            return [type(e).__name__, msg]
    return None


def run_error(tf, build, run_message):
    g = tf.Graph()
    with g.as_default():
        fetch = build(tf)
        with tf.Session() as s:
            s.run(tf.local_variables_initializer())
            try:
                s.run(fetch)
            except tf.errors.OpError as e:
                return [type(e).__name__, run_message(e)]
    return None
