"""tf.compat.v1.metrics: TensorFlow 1's streaming metrics, each a (value, update_op) pair over
local variables (see minitf.ops.metrics_impl)."""
from minitf.ops.metrics_impl import (  # noqa: F401
    accuracy, auc, average_precision_at_k, false_negatives, false_negatives_at_thresholds,
    false_positives, false_positives_at_thresholds, mean, mean_absolute_error,
    mean_cosine_distance, mean_iou, mean_per_class_accuracy, mean_relative_error,
    mean_squared_error, mean_tensor, percentage_below, precision, precision_at_k,
    precision_at_thresholds, precision_at_top_k, recall, recall_at_k, recall_at_thresholds,
    recall_at_top_k, root_mean_squared_error, sensitivity_at_specificity,
    sparse_average_precision_at_k, sparse_precision_at_k, specificity_at_sensitivity,
    true_negatives, true_negatives_at_thresholds, true_positives, true_positives_at_thresholds)
